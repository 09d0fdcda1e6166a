package tagged

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/inprose"
	"github.com/dialectkit/toolcall/dialects/internal/rawcall"
)

// announcing is the state of the Reader's search for the call the
// stretch being read opens, to announce it (PieceCallStart) before its
// region closes.
type announcing struct {
	// scan is where the next search for the call's opening literal
	// starts; at is the literal found, whose opening tag is awaited (-1:
	// none), and open where its section or the call opens.
	scan, at, open int
	// no says the stretch that starts at seg holds no call to announce.
	no bool
	// started says call index was announced and its PieceCall is not
	// returned yet.
	started bool
	index   int
}

// announce returns PieceCallStart for the call the stretch being read
// opens, once its opening tag has its name and nothing the text may yet
// bring can make it anything but a call (pieces are final):
//
//   - the reasoning start is settled, the template's block is over, no end
//     of turn came, and the stretch holds no reasoning tag before it;
//   - nothing before it in the stretch opens a section, a call or a loose
//     wrapper, so it is the stretch's first call;
//   - it stands at the start of a line, or right after its section's
//     opening literal with only whitespace between, and that section (or
//     the call, outside one) is not shown (shownState): markup so placed
//     is named in no sentence (inprose.Mentioned);
//   - its opening tag names one tool.
//
// A call whose name is text (glm45, longcat, mirothinker), glimmer's
// messages and MiniCPM 5's rewritten markup are not announced: the call
// goes out whole when its region closes.
//
// Write calls it once the reasoning start is settled.
func (r *reader) announce(text string) {
	d := &r.t.desc
	a := &r.ann
	if a.started || a.no || r.eot || r.lead || r.implicit != 0 && !r.first ||
		d.ToolName == NameText || d.frame != nil || d.normalize != nil {
		return
	}
	if limit := rawcall.Limit(r.opts); limit >= 0 && r.calls >= limit {
		return
	}
	if a.at < 0 {
		from := max(r.seg, a.scan-len(d.ToolStart)+1)
		i := strings.Index(text[from:], d.ToolStart)
		if i < 0 {
			a.scan = len(text)
			return
		}
		a.at = from + i
		if !r.firstCall(text, a.at) {
			a.no = true
			return
		}
	}
	pos := a.at + len(d.ToolStart)
	limit := min(len(text), pos+maxTagLen+len(d.TagEnd))
	te := strings.Index(text[pos:limit], d.TagEnd)
	if te < 0 {
		// Not closed yet, or never: a tag too long is no call's.
		a.no = limit < len(text) || len(text)-pos >= maxTagLen+len(d.TagEnd)
		return
	}
	name, n := attrValues(text[pos:pos+te], d.ToolName)
	a.no = true
	if n != 1 || name == "" {
		return
	}
	if d.ResolveAliases {
		rc := dialects.RawCall{Name: name}
		resolveAlias(&rc, r.opts.Tools)
		name = rc.Name
	}
	a.started, a.index = true, r.calls
	r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCallStart, Index: r.calls, Name: name})
}

// firstCall reports whether the ToolStart at text[at] opens the first call
// of the stretch from seg, framed as announce says.
func (r *reader) firstCall(text string, at int) bool {
	d := &r.t.desc
	before := text[r.seg:at]
	for _, tg := range r.t.tags {
		if strings.Contains(before, tg.Open) || strings.Contains(before, tg.Close) {
			return false
		}
	}
	if r.st.cont {
		// Inside a section after a call read: only a gap may stand
		// before the next call.
		return strings.TrimSpace(before) == ""
	}
	open := at
	if d.ScopeStart != "" {
		t := strings.TrimRight(before, " \t\r\n")
		if strings.HasSuffix(t, d.ScopeStart) {
			open = r.seg + len(t) - len(d.ScopeStart)
		} else if !d.ScopeOptional {
			return false
		}
	}
	if strings.Contains(text[r.seg:open], d.ToolStart) || d.ScopeStart != "" && strings.Contains(text[r.seg:open], d.ScopeStart) {
		return false
	}
	for _, w := range d.LooseWrappers {
		if strings.Contains(text[r.seg:open], w.Start) {
			return false
		}
	}
	if open > 0 && text[open-1] != '\n' {
		return false // markup inside a line may be named in a sentence
	}
	if inprose.InSentence(text, open, at+len(d.ToolStart)) {
		return false
	}
	r.tryShown()
	return !r.try.at(text, open)
}
