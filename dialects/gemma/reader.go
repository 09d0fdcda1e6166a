package gemma

import (
	"bytes"
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/inprose"
	"github.com/dialectkit/toolcall/dialects/internal/rawcall"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/sofar"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/lenient"
)

// NewReader returns the engine that reads one output of the dialect in
// one pass as it arrives (dialects.Incremental); Extract is Read of a new
// Reader.
//
// The output is kept whole (sofar.Output) and read on from where the last
// delta stopped, in modes: content, a reasoning channel (gemma4), a
// <think> block, a call block.
//
//   - Content and reasoning go out as they arrive; a partial marker at the
//     end, trailing whitespace and the first bytes of a channel (where its
//     name may stand) are held.
//   - A call block is held until its end is decided: its closing token
//     with every string of its arguments closed, the next block or channel
//     token, or, when the close token stands inside a string, up to
//     maxInnerCloses later close tokens; its calls go out then.
//   - A call block inside reasoning counts only if the reasoning never
//     closes: from the block's opening token on, what the reader decides is
//     held until the reasoning closes (it is then all reasoning, the blocks
//     as written) or the output ends (the blocks are calls).
//   - While a later </think> (or, in gemma4, <channel|>) could still make
//     the start of the output reasoning the template opened
//     (dialects.ImplicitReasoning, dialects.TemplateBlockEnd), the
//     output is held. A channel the template opened (Options.ReasoningOpen,
//     or a <channel|> first) is read as a channel from the first byte: its
//     reasoning streams; a </think> before any <think> cuts it, and after
//     the channel the text waits only while such a tag may still come.
//   - A block in content announces its first call (PieceCallStart) as
//     soon as the call's name is read (announce).
//
// A marker that inline code, a quotation or an example fence opened before
// it shows (shown.ShownScan) is text.
func (d *Dialect) NewReader(opts *dialects.Options) dialects.Reader {
	if opts == nil {
		opts = &dialects.Options{}
	}
	r := &reader{d: d, opts: opts}
	r.content.kind, r.reasoning.kind = dialects.PieceContent, dialects.PieceReasoning
	r.content.lead, r.reasoning.lead = true, true
	switch {
	case !d.reasoning && opts.ReasoningOpen:
		// The template opened a <think> block, FunctionGemma's only
		// reasoning wrapper: the output starts in it.
		r.enter(modeThink)
	case !d.reasoning, opts.ReasoningClosed && !opts.ReasoningOpen:
		r.mode = modeContent
	default:
		r.mode = modeStart
	}
	return r
}

// mode is what the reader is reading.
type mode uint8

const (
	// modeStart: the start of a gemma4 output, held while a later tag
	// may make it reasoning the template opened.
	modeStart mode = iota
	modeContent
	// modeChannel: a reasoning channel (gemma4).
	modeChannel
	// modeThink: a <think> block.
	modeThink
	// modeCall: a call block.
	modeCall
	// modeAfter: after the channel the template opened closed, held while
	// a later </think> may still end a <think> block the template opened
	// (thinkPending).
	modeAfter
)

// reader is the dialect's Reader.
type reader struct {
	d    *Dialect
	opts *dialects.Options
	in   sofar.Output
	out  []dialects.Piece

	mode mode
	pos  int // the text before pos is decided
	scan int // the search for markers goes on here

	content, reasoning joiner
	// labelled says the channel text at pos may begin with the channel's
	// name; labelK is how far its blanks were read.
	labelled bool
	labelK   int
	marked   bool
	calls    int
	shown    shown.ShownScan

	// tmpl says the channel being read is the one the template opened
	// (Options.ReasoningOpen, or a <channel|> before any reasoning tag);
	// thinkPending that a </think> before any <think> may yet end a
	// <think> block the template opened too (dialects.TemplateBlockEnd):
	// until the tags settle it, such a tag is looked for in the channel
	// and after it.
	tmpl, thinkPending bool

	// thinkEnd finds the </think> that ends the <think> block being read
	// in the text from thinkFrom on: one inside a string of a JSON value
	// the block writes is text of it (strictjson.IndexTag).
	thinkEnd  strictjson.TagFinder
	thinkFrom int

	// marks decides, for each marker found in content or reasoning from
	// marksFrom on, whether it stands inside a string of a JSON value
	// the text writes: it is then text (strictjson.TagFinder.At, the rule
	// of strictjson.IndexTag).
	marks     strictjson.TagFinder
	marksFrom int

	start startState
	blk   blockState
	hold  holdState
}

// startState decides where a gemma4 output starts: in reasoning the
// template opened or not.
type startState struct {
	// decided: implicit is known; implicit says a closing tag before any
	// opening one ends a block the template opened.
	decided, implicit bool
	// tags finds the reasoning tags, as dialects.ImplicitReasoning and
	// dialects.TemplateBlockEnd look for them.
	tags [4]strictjson.TagFinder
	// thinkEnd is where the <think> block the template opened ends (0:
	// none), once thinkKnown.
	thinkKnown bool
	thinkEnd   int
	// chFrom is where the search for the first channel token goes on,
	// lead where the output's leading blanks end, as far as read.
	chFrom, lead int
}

// The reasoning tags the start is decided by, in startState.tags order.
var startTags = [4]string{channelOpen + thoughtLabel, channelClose, dialects.Think.Open, dialects.Think.Close}

// blockState is the call block being read.
type blockState struct {
	start, from int
	scan        int
	par         [2]bool // an odd count of each string delimiter since from
	// end and m are the first token that may end the block (-1: none
	// yet); openAt says a string was open there.
	end    int
	m      string
	openAt bool
	// cur is the end decided, tries the close tokens read past end.
	cur   int
	tries int
	// resume is the mode the block stands in.
	resume mode
	// head is where the search for the end of the name of the call that
	// starts at call goes on, announced that the call was announced
	// (PieceCallStart), or that it will not be.
	call, head int
	announced  bool
	// In a block in content, the calls that another call follows in the
	// block go out as they are read (take): next is where the first call
	// not returned starts, taken how many were, cand where the search for
	// the next call's prefix goes on, and failed the length of the last
	// try that did not read a call (a try is made again once the call's
	// text has doubled, so the work stays linear).
	next, taken, cand, failed int
	noTake                    bool
	// strs are where the block's strings open and close, in pairs (the
	// last alone while one is open), as par reads them, from the first
	// that ends after cand: a call prefix inside one is text, never a try.
	strs []int
}

// holdState is what a call block in reasoning holds: from pos (its
// reasoning text not written yet) on, what the reader decides goes to
// pend, until the reasoning closes (rollback) or the output ends.
type holdState struct {
	active    bool
	pos       int
	reasoning joiner
	labelled  bool
	marked    bool
	calls     int
	// opens are the channel tokens read since: the reasoning's text starts
	// anew after each.
	opens []int
	pend  []dialects.Piece
}

// Text returns the output given so far (dialects.TextReader).
func (r *reader) Text() string { return r.in.Text() }

// Write reads the output's next bytes.
func (r *reader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	if text, ok := r.in.Write(delta); ok {
		r.step(text, false)
	}
	return r.out
}

// Close ends the output and decides everything held.
func (r *reader) Close() []dialects.Piece {
	r.out = r.out[:0]
	text, ok := r.in.Close()
	if !ok {
		return r.out
	}
	r.step(text, true)
	r.content.cut(r)
	r.reasoning.cut(r)
	if r.hold.active {
		// The reasoning never closed: its blocks are calls.
		r.hold.active = false
		r.out = append(r.out, r.hold.pend...)
	}
	return r.out
}

// step reads text, the output so far, as far as it allows; final says the
// output has ended.
func (r *reader) step(text string, final bool) {
	for {
		var more bool
		switch r.mode {
		case modeStart:
			more = r.startStep(text, final)
		case modeContent:
			more = r.contentStep(text, final)
		case modeChannel:
			more = r.channelStep(text, final)
		case modeThink:
			more = r.thinkStep(text, final)
		case modeCall:
			more = r.callStep(text, final)
		case modeAfter:
			more = r.afterStep(text, final)
		}
		if !more {
			return
		}
	}
}

// emit returns p, or holds it while a block in reasoning is held.
func (r *reader) emit(p dialects.Piece) {
	if r.hold.active {
		r.hold.pend = append(r.hold.pend, p)
		return
	}
	r.out = append(r.out, p)
}

// mark returns PieceMarked, once: the dialect's markers were read.
func (r *reader) mark() {
	if !r.marked {
		r.marked = true
		r.emit(dialects.Piece{Kind: dialects.PieceMarked})
	}
}

// enter begins mode m at pos, with a new piece of its text.
func (r *reader) enter(m mode) {
	r.mode = m
	r.scan = r.pos
	r.marks.Reset()
	r.marksFrom = r.pos
	switch m {
	case modeContent:
		r.content.cut(r)
	case modeChannel:
		r.reasoning.cut(r)
	case modeThink:
		// A <think> block's text is trimmed and joined to the reasoning
		// before it with nothing between, as a split at <think> joins it
		// (dialects.SplitReasoning).
		r.reasoning.cut(r)
		r.reasoning.thought = true
		r.thinkEnd.Reset()
		r.thinkFrom = r.pos
	}
}

// markup says what the marker m that find returned at text[i] is: markup
// (TagFound), text (TagNone: inline code, a quotation or an example shows
// it, or it stands inside a string of a JSON value), or not known until
// more text comes (TagPending). A marker the text's end may begin (m "")
// is TagFound: find decided it.
func (r *reader) markup(text string, i int, m string, final bool) strictjson.TagState {
	switch {
	case m == "":
		return strictjson.TagFound
	case r.shown.ShownAt(text, i):
		return strictjson.TagNone
	}
	return r.marks.At(text[r.marksFrom:], i-r.marksFrom, final)
}

// find returns the first of markers at or after from, or where a marker
// may begin that the text's end cuts (m ""), or len(text).
func find(text string, from int, markers []string, final bool) (int, string) {
	for from < len(text) {
		j := strings.IndexByte(text[from:], '<')
		if j < 0 {
			break
		}
		i := from + j
		for _, m := range markers {
			if strings.HasPrefix(text[i:], m) {
				return i, m
			}
		}
		for _, m := range markers {
			if !final && len(text)-i < len(m) && strings.HasPrefix(m, text[i:]) {
				return i, ""
			}
		}
		from = i + 1
	}
	return len(text), ""
}

// startStep decides where a gemma4 output starts (the rules of
// dialects.ImplicitReasoning and dialects.TemplateBlockEnd, with
// Options.ReasoningOpen opening the channel), holding the text until
// they are settled.
func (r *reader) startStep(text string, final bool) bool {
	st := &r.start
	if r.opts.ReasoningOpen {
		// The template opened the channel: its reasoning streams from
		// the first byte.
		r.enterTemplate()
		return true
	}
	var at [4]int
	var state [4]strictjson.TagState
	for k := range st.tags {
		at[k], state[k] = st.tags[k].Find(text, startTags[k], final)
	}
	if !st.decided {
		first, ok := r.firstTag(text, final, &at, &state)
		if !ok {
			return false
		}
		if first == 1 {
			// A <channel|> first: the template opened the channel.
			r.enterTemplate()
			return true
		}
		// A </think> first, or no tag at all: a block the template
		// opened may end at the first </think>.
		st.decided, st.implicit = true, first == -1 || first == 3
	}
	if !st.implicit {
		r.enter(modeContent)
		return true
	}
	if !st.thinkKnown {
		// A </think> before any <think> ends a block the template opened.
		o, os, c, cs := at[2], state[2], at[3], state[3]
		switch {
		case cs == strictjson.TagFound && (os == strictjson.TagNone || o > c):
			st.thinkEnd = c + len(dialects.Think.Close)
		case os == strictjson.TagFound && (cs == strictjson.TagNone || c > o), final:
		default:
			return false
		}
		st.thinkKnown, st.chFrom = true, st.thinkEnd
	}
	// A <channel|> before any <|channel> means the template opened the
	// channel.
	c := strings.Index(text[st.chFrom:], channelClose)
	o := strings.Index(text[st.chFrom:], channelOpen)
	if c < 0 && o < 0 && !final {
		st.chFrom = max(st.chFrom, len(text)-len(channelOpen)+1)
		return false
	}
	channel := c >= 0 && (o < 0 || c < o)
	if st.thinkEnd > 0 {
		// All before it is reasoning, call blocks included.
		r.reasoning.cut(r)
		r.reasoning.thought = true
		r.reasoning.write(r, text[:st.thinkEnd-len(dialects.Think.Close)])
		r.pos = st.thinkEnd
	}
	if channel {
		r.enter(modeChannel)
		r.labelled, r.labelK = true, 0
	} else {
		r.enter(modeContent)
	}
	return true
}

// firstTag reads what decides whether a gemma4 output starts in a block
// the template opened (dialects.ImplicitReasoning): -2 when it opens with
// a call, else the startTags index of its first reasoning tag, as that
// rule finds it (-1: none, at the end). ok is false while the text so far
// does not tell.
func (r *reader) firstTag(text string, final bool, at *[4]int, state *[4]strictjson.TagState) (first int, ok bool) {
	st := &r.start
	for st.lead < len(text) && strings.IndexByte(" \t\r\n", text[st.lead]) >= 0 {
		st.lead++ // the output's leading blanks are read once
	}
	lead := text[st.lead:]
	switch {
	case lead == "" && !final:
		return 0, false
	case textlayer.OpensCall(lead, r.d.start.Bare, r.d.start.Starts):
		return -2, true
	case !final && len(lead) < len(r.d.open) && strings.EqualFold(lead, r.d.open[:len(lead)]):
		return 0, false // the output may yet open with a call
	}
	first = -1
	for k := range at {
		if state[k] == strictjson.TagFound && (first < 0 || at[k] < at[first]) {
			first = k
		}
	}
	if first < 0 && !final {
		return 0, false
	}
	for k := range at {
		if first >= 0 && state[k] == strictjson.TagPending && at[k] < at[first] {
			return 0, false
		}
	}
	return first, true
}

// enterTemplate begins the output in the channel the template opened.
// Whether a <think> block the template opened ends in the output too is
// left to the tags (thinkPending).
func (r *reader) enterTemplate() {
	r.start.decided, r.start.implicit = true, true
	r.tmpl, r.thinkPending = true, true
	r.enter(modeChannel)
	r.labelled, r.labelK = true, 0
}

// thinkClose settles, as far as the text allows, whether a </think>
// before any <think> ends a <think> block the template opened (the rule
// of dialects.TemplateBlockEnd, with the tags found as IndexTag finds
// them). It returns that tag's offset (-1: none), and hold, the first
// offset of a tag not settled yet (-1: none), where the reader must wait.
// It clears thinkPending when no such tag can come.
func (r *reader) thinkClose(text string, final bool) (at, hold int) {
	st := &r.start
	o, os := st.tags[2].Find(text, dialects.Think.Open, final)
	c, cs := st.tags[3].Find(text, dialects.Think.Close, final)
	switch {
	case cs == strictjson.TagFound && (os == strictjson.TagNone || o > c):
		return c, -1
	case os == strictjson.TagFound && (cs == strictjson.TagNone || c > o), os == strictjson.TagNone && cs == strictjson.TagNone && final:
		r.thinkPending = false
		return -1, -1
	}
	hold = -1
	if os != strictjson.TagNone {
		hold = o
	}
	if cs != strictjson.TagNone && (hold < 0 || c < hold) {
		hold = c
	}
	return -1, hold
}

// thinkEnds ends, at c, the <think> block the template opened: the text
// before c, from pos, is reasoning, joined to the reasoning before it with
// nothing between, as a split at the tag joins it.
func (r *reader) thinkEnds(text string, c int) {
	r.reasoning.thought = true
	r.reasoning.write(r, text[r.pos:c])
	r.reasoning.cut(r)
	r.pos, r.scan, r.thinkPending = c+len(dialects.Think.Close), c+len(dialects.Think.Close), false
}

// afterStep reads on after the channel the template opened has closed,
// while a later </think> may still end a <think> block the template
// opened: the text since is held until the tags settle it, and is then
// reasoning (such a tag follows) or read as content.
func (r *reader) afterStep(text string, final bool) bool {
	c, _ := r.thinkClose(text, final)
	switch {
	case c >= 0:
		r.reasoning.cut(r)
		r.thinkEnds(text, c)
	case r.thinkPending:
		return false
	}
	r.enter(modeContent)
	return true
}

// contentStep reads content up to the next call or reasoning block.
func (r *reader) contentStep(text string, final bool) bool {
	for {
		i, m := find(text, r.scan, r.d.inContent, final)
		st := r.markup(text, i, m, final)
		if st == strictjson.TagNone {
			r.scan = i + len(m) // shown, or inside a string: text
			continue
		}
		r.content.write(r, text[r.pos:i])
		r.pos, r.scan = i, i
		if m == "" || st == strictjson.TagPending {
			return false
		}
		r.content.cut(r)
		if m != dialects.Think.Open {
			// A <think> tag is every dialect's, no evidence of this one.
			r.mark()
		}
		switch m {
		case r.d.open:
			r.startBlock(i, modeContent)
			return true
		case channelOpen:
			r.pos = i + len(m)
			r.enter(modeChannel)
			r.labelled, r.labelK = true, 0
			return true
		case dialects.Think.Open:
			r.pos = i + len(m)
			r.enter(modeThink)
			return true
		}
		// A stray closing token closes nothing; the token is markup.
		r.pos, r.scan = i+len(m), i+len(m)
	}
}

// channelStep reads a reasoning channel up to its close. In a channel
// that closes, a call block is the model thinking, not calling, as in a
// closed <think> block: its text stays in the reasoning. Only in a channel
// that never closes does a call block count (the model forgot to close
// it): from a block on, the channel is held (holdState).
func (r *reader) channelStep(text string, final bool) bool {
	for {
		markers, end, last := r.d.inReasoning, len(text), final
		c, hold := -1, -1
		if r.tmpl && r.thinkPending {
			// While a </think> may end a <think> block the template
			// opened, the channel is read up to the first such tag,
			// settled (c) or not yet (hold): no marker after it counts
			// before it is settled.
			markers = r.d.inTemplate
			c, hold = r.thinkClose(text, final)
			if k := max(c, hold); k >= 0 {
				end, last = max(k, r.scan), true
			}
		}
		i, m := find(text[:end], r.scan, markers, last)
		switch r.markup(text, i, m, final) {
		case strictjson.TagNone:
			r.scan = i + len(m) // shown, or inside a string: text
			continue
		case strictjson.TagPending:
			if !r.hold.active {
				r.channelText(text, i, false)
			}
			r.scan = i
			return false
		}
		switch {
		case m == "" && c >= 0:
			// A </think> in the channel the template opened ends a
			// <think> block it opened: the reasoning is cut there, call
			// blocks before it included, and the channel reads on.
			if r.hold.active {
				r.rollback(text, c)
			} else {
				r.channelText(text, c, true)
			}
			r.reasoning.thought = true
			r.reasoning.cut(r)
			r.pos, r.scan, r.thinkPending = c+len(dialects.Think.Close), c+len(dialects.Think.Close), false
			r.labelled, r.labelK = true, 0
			continue
		case m == "" && hold >= 0:
			// A tag not settled yet: wait for it.
			if !r.hold.active {
				r.channelText(text, max(hold, r.pos), false)
			}
			r.scan = i
			return false
		}
		if m == dialects.Think.Open || m == dialects.Think.Close {
			// Text of the channel: a tag inside a string, or one that
			// settles nothing.
			r.scan = i + len(m)
			continue
		}
		r.scan = i
		if m == channelClose && r.hold.active {
			r.rollback(text, i)
		} else {
			if m == r.d.open && !r.hold.active {
				r.begin()
			}
			if !r.channelText(text, i, m != "" || final) {
				return false
			}
		}
		if m == "" {
			return false
		}
		r.reasoning.cut(r)
		r.mark()
		switch m {
		case channelClose:
			r.pos = i + len(m)
			if r.tmpl {
				r.tmpl = false
				if r.thinkPending {
					r.mode = modeAfter
					return true
				}
			}
			r.enter(modeContent)
			return true
		case channelOpen:
			if r.hold.active {
				r.hold.opens = append(r.hold.opens, i)
			}
			r.pos, r.scan = i+len(m), i+len(m)
			r.labelled, r.labelK = true, 0
			continue
		}
		r.startBlock(i, modeChannel)
		return true
	}
}

// channelText writes the channel's text from pos to i, less the channel's
// name Gemma 4 writes first ("thought" and a line break), and reports
// whether it could: ended says the channel's text ends at i (a token or
// the end of the output); until then a name not complete is held.
func (r *reader) channelText(text string, i int, ended bool) bool {
	if r.labelled {
		p := text[r.pos:i]
		n := len(thoughtLabel)
		switch {
		case len(p) < n:
			if !ended && strings.HasPrefix(thoughtLabel, p) {
				return false
			}
		case strings.HasPrefix(p, thoughtLabel):
			k := max(r.labelK, n)
			for k < len(p) && (p[k] == ' ' || p[k] == '\t') {
				k++
			}
			r.labelK = k
			switch {
			case k == len(p) && !ended:
				return false
			case k == len(p):
				r.pos = i // the name alone: nothing of it is kept
			case p[k] == '\n' || p[k] == '\r':
				r.pos += k
			}
		}
		r.labelled = false
	}
	r.reasoning.write(r, text[r.pos:i])
	r.pos = i
	return true
}

// thinkStep reads a <think> block. A closed block is reasoning, whatever
// it holds: a call block inside it is the model thinking, not calling (the
// rule of every dialect). In a block that never closes, the rest of the
// output is reasoning, and a call block there counts: from a block on,
// the <think> block is held (holdState).
func (r *reader) thinkStep(text string, final bool) bool {
	for {
		i, m := find(text, r.scan, r.d.inThink, final)
		r.scan = i
		at, tag := i, m
		c, cs := r.thinkEnd.Find(text[r.thinkFrom:], dialects.Think.Close, final)
		c += r.thinkFrom
		switch {
		case cs == strictjson.TagNone && !final && textlayer.CutLiteral(text, r.pos, dialects.Think.Close) < i:
			// The text's end may begin the closing tag.
			at, tag = textlayer.CutLiteral(text, r.pos, dialects.Think.Close), ""
		case cs == strictjson.TagNone || c >= i:
			switch r.markup(text, i, m, final) {
			case strictjson.TagNone:
				r.scan = i + len(m) // shown, or inside a string: text
				continue
			case strictjson.TagPending:
				at, tag = i, ""
			}
		case cs == strictjson.TagPending:
			// A value the block writes may hold the tag in a string:
			// the text from it waits.
			at, tag = c, ""
		case r.shown.ShownAt(text, c):
			r.thinkFrom = c + len(dialects.Think.Close)
			r.thinkEnd.Reset()
			continue
		default:
			at, tag = c, dialects.Think.Close
		}
		if tag == dialects.Think.Close && r.hold.active {
			r.rollback(text, at)
		} else {
			if tag == r.d.open && !r.hold.active {
				r.begin()
			}
			r.reasoning.write(r, text[r.pos:at])
			r.pos = at
		}
		if tag == "" {
			return false
		}
		r.reasoning.cut(r)
		if tag == dialects.Think.Close {
			r.pos = at + len(tag)
			r.enter(modeContent)
			return true
		}
		r.mark()
		r.startBlock(at, modeThink)
		return true
	}
}

// begin starts holding what the reader decides: a call block opens in
// reasoning that may yet close.
func (r *reader) begin() {
	h := &r.hold
	h.active, h.pos, h.labelled, h.marked, h.calls = true, r.pos, r.labelled, r.marked, r.calls
	h.reasoning = r.reasoning
	h.reasoning.held = bytes.Clone(r.reasoning.held)
	h.opens, h.pend = h.opens[:0], h.pend[:0]
}

// rollback ends the hold at c, where the reasoning closes: what was held
// is dropped, and the reasoning's text from the hold's start to c is
// written as it stands, call blocks included, starting anew after each
// channel token read since.
func (r *reader) rollback(text string, c int) {
	h := &r.hold
	h.active = false
	r.reasoning, r.labelled, r.labelK, r.marked, r.calls = h.reasoning, h.labelled, 0, h.marked, h.calls
	r.pos = h.pos
	for _, o := range h.opens {
		r.channelText(text, o, true)
		r.reasoning.cut(r)
		r.pos, r.labelled, r.labelK = o+len(channelOpen), true, 0
	}
	if r.mode == modeChannel || r.labelled {
		r.channelText(text, c, true)
	} else {
		r.reasoning.write(r, text[r.pos:c])
		r.pos = c
	}
	h.opens, h.pend = h.opens[:0], h.pend[:0]
}

// startBlock begins the call block whose opening token is at i, in mode
// resume.
func (r *reader) startBlock(i int, resume mode) {
	from := i + len(r.d.open)
	r.blk = blockState{start: i, from: from, scan: from, end: -1, resume: resume, call: from, head: from, announced: resume != modeContent,
		next: from, cand: from, strs: r.blk.strs[:0]}
	r.mode = modeCall
}

// callStep reads a call block until its end is decided, then returns its
// calls. The block ends at the first of its closing token, the next
// block's opening token and (gemma4) a channel token. When that is a
// closing token where a string of the arguments is still open, a later
// closing token (of the next maxInnerCloses, with no other token between)
// that ends the block with every string closed ends it instead: the
// first was string text ("end it with <tool_call|>").
func (r *reader) callStep(text string, final bool) bool {
	b := &r.blk
	markers := r.d.inBlock
	if b.resume == modeThink {
		markers = r.d.inThinkBlock
	}
	decided := false
	for !decided {
		i, m := find(text, b.scan, markers, final)
		if m == "" {
			b.scan = i
			break
		}
		b.scan = i + len(m)
		if k := indexOf(r.d.delims, m); k >= 0 {
			was := b.par[0] || b.par[1]
			b.par[k] = !b.par[k]
			switch open := b.par[0] || b.par[1]; {
			case open && !was:
				b.strs = append(b.strs, i)
			case was && !open:
				b.strs = append(b.strs, i+len(m))
			}
			continue
		}
		if m == dialects.Think.Close {
			// The <think> block the call stands in closes here: it was
			// all reasoning.
			r.rollback(text, i)
			r.reasoning.cut(r)
			r.pos = i + len(m)
			r.enter(modeContent)
			return true
		}
		open := b.par[0] || b.par[1]
		switch {
		case b.end < 0:
			b.end, b.m, b.openAt, b.cur = i, m, open, i
			decided = m != r.d.close || !open
		case m != r.d.close:
			decided = true
		case !open:
			b.cur, decided = i, true
		default:
			b.tries++
			decided = b.tries == maxInnerCloses
		}
	}
	if !decided && !final {
		limit := b.scan
		if b.end >= 0 {
			limit = b.end
		}
		for {
			if !b.announced {
				// The block goes on past this text: its call is
				// announced (a block whose end came with it goes out
				// whole at once).
				r.announce(text)
			}
			if !r.take(text, limit) {
				break
			}
		}
		return false
	}
	limit := len(text)
	if b.end >= 0 {
		limit = b.end
	} else if k := strings.LastIndexByte(text[b.from:], '<'); k >= 0 && cutoff.Marker(text[b.from+k:], r.d.close) {
		limit = b.from + k // the output ends inside the close token
	}
	for r.take(text, limit) {
	}
	r.endBlock(text)
	return true
}

// take returns the first call of a block in content not returned yet, and
// reports whether it did, when another call follows it in the block before
// limit, which no token that may end the block precedes: such a call is
// read as the block's reading at its end will read it, whatever that end
// turns out to be (the next call's prefix ends it, after separators only),
// so it goes out before the next call's name is written. The call is tried
// where "call:" follows a '}' and separators outside the strings the block
// reads (strs); a try that reads no call is made again only once the
// call's text has doubled, so the work stays linear. A call larger than the size limit stops the taking: the block's
// end reads the rest.
func (r *reader) take(text string, limit int) bool {
	b := &r.blk
	if b.resume != modeContent || b.noTake {
		return false
	}
	for {
		k := strings.Index(text[b.cand:limit], callPrefix)
		if k < 0 {
			b.cand = max(b.cand, limit-len(callPrefix)+1)
			return false
		}
		c := b.cand + k
		b.cand = c + 1
		for len(b.strs) >= 2 && b.strs[1] <= c {
			b.strs = b.strs[2:] // a string that closed before c
		}
		if len(b.strs) > 0 && b.strs[0] < c {
			// c stands in a string: the search goes on after it.
			b.cand = limit
			if len(b.strs) > 1 {
				b.cand = min(limit, b.strs[1])
			}
			continue
		}
		j := c
		for j > b.next && strings.IndexByte(" \t\r\n,;", text[j-1]) >= 0 {
			j--
		}
		if j == b.next || text[j-1] != '}' || c-b.next < 2*b.failed {
			continue
		}
		maxSize := r.opts.Lenient.MaxSize
		if maxSize <= 0 {
			maxSize = lenient.DefaultMaxSize
		}
		if c-b.next > maxSize {
			b.noTake = true
			return false
		}
		p := &blockParser{d: r.d, text: text, opts: r.opts, prose: func(string) {}}
		at := skipSpace(text, b.next, c)
		callAt := at
		if b.taken == 0 {
			callAt = b.start
		}
		next, more := p.call(callAt, at, c+len(callPrefix))
		if !more || len(p.calls) != 1 || p.calls[0].Err != nil {
			b.failed = c - b.next
			continue
		}
		rc := &p.calls[0]
		rc.Text = text[b.start:next]
		r.emit(dialects.Piece{Kind: dialects.PieceCall, Index: r.calls, Call: rc})
		r.calls++
		b.next, b.taken, b.failed = next, b.taken+1, 0
		b.cand = next + len(callPrefix)
		b.call, b.head, b.announced = next, next, false // the next call may be announced
		return true
	}
}

// announce returns PieceCallStart for the first call of a block that
// stands in content and has not ended with the text so far, as soon as its
// name is read: the block's open token
// there already makes it calls (it is not shown, and no reasoning can
// close over it), so the call is one, or a failed one, whatever follows.
// The name is read as blockParser.call reads it, and is complete once the
// '{' after it has come with no '<' before it, which is where any token
// that could end the block would begin. A token that stands in a sentence
// with a blank after it (inprose.InSentence, the shape of a mentioned
// marker) is not announced, nor is a head that does not read as
// call:NAME{: that call goes out whole when its block ends.
func (r *reader) announce(text string) {
	b := &r.blk
	k := strings.IndexAny(text[b.head:], "{<")
	if k < 0 {
		b.head = len(text)
		return
	}
	b.head += k
	b.announced = true
	if text[b.head] != '{' || inprose.InSentence(text, b.start, b.from) {
		return
	}
	p := skipSpace(text, b.call, b.head)
	if strings.HasPrefix(text[p:b.head], callPrefix) {
		p += len(callPrefix)
	}
	name := strings.TrimSpace(text[p:b.head])
	if !validName(name) {
		return
	}
	name, _ = resolveName(name, r.opts.Tools)
	r.emit(dialects.Piece{Kind: dialects.PieceCallStart, Index: r.calls, Name: name})
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// endBlock reads the calls of the block whose end is decided, returns
// them, and goes back to the mode the block stands in.
func (r *reader) endBlock(text string) {
	b := &r.blk
	inReasoning := b.resume != modeContent
	p := &blockParser{d: r.d, text: text, opts: r.opts, unclosed: b.end < 0, taken: b.taken > 0}
	p.prose = func(s string) {
		j := &r.content
		if inReasoning {
			j = &r.reasoning
		}
		j.cut(r)
		j.write(r, s)
		j.cut(r)
	}
	end := b.cur
	if p.unclosed {
		end = len(text)
	}
	blockEnd := end
	if k := strings.LastIndexByte(text[b.from:end], '<'); p.unclosed && k >= 0 && cutoff.Marker(text[b.from+k:end], r.d.close) {
		blockEnd = b.from + k // the output ends inside the close token
	}
	p.block(b.start, b.next, blockEnd)
	if k := len(p.calls) - 1; b.m != "" && b.m != r.d.close && k >= 0 && p.calls[k].Err == nil && b.openAt {
		// The block lost its close where a string of its arguments is
		// still open: the model broke off mid-string, and what it meant
		// to write is lost. Cut off, never a call.
		last := &p.calls[k]
		e := cutoff.Error("inside a string of the " + r.d.name + " call's arguments, where " + b.m + " stands")
		e.Offset, e.Raw, e.Tool = last.Offset, text[b.start:end], last.Name
		*last = dialects.RawCall{Name: last.Name, Offset: last.Offset, Err: e}
	}
	r.pos = end
	if b.m == r.d.close {
		r.pos += len(b.m)
	}
	rawcall.KeepText(p.calls, text[b.start:r.pos])
	r.shown.Call(b.start, r.pos)
	for i := range p.calls {
		r.emit(dialects.Piece{Kind: dialects.PieceCall, Index: r.calls, Call: &p.calls[i]})
		r.calls++
	}
	r.enter(b.resume)
}

// joiner returns the pieces of text left between removed markup, as they
// arrive. Each piece loses the whitespace that touched the markup; two
// kept pieces are joined by a newline if that whitespace held one, by a
// space if it held other whitespace, and by nothing when the markup
// touched both. The text of a <think> block (thought) is joined to the
// text before it with nothing between. Trailing whitespace is held until
// more text of its piece comes.
type joiner struct {
	kind dialects.PieceKind
	any  bool // text was returned
	// gap is the whitespace since the last kept text: 0 none, 1 blank,
	// 2 newline.
	gap     int
	lead    bool // the piece has no text yet
	thought bool
	held    []byte // the piece's trailing whitespace
	part    string // an incomplete rune at the end of what was written
}

// write adds s to the piece.
func (j *joiner) write(r *reader, s string) {
	if j.part != "" {
		s = j.part + s
		j.part = ""
	}
	if k := textlayer.IncompleteTail(s); k > 0 {
		j.part, s = s[len(s)-k:], s[:len(s)-k]
	}
	j.add(r, s)
}

func (j *joiner) add(r *reader, s string) {
	if s == "" {
		return
	}
	if j.lead {
		t := textlayer.TrimLeft(s)
		if !j.thought {
			j.gap = max(j.gap, gapKind(s[:len(s)-len(t)]))
		}
		if t == "" {
			return
		}
		if j.thought {
			j.gap = 0
		}
		if j.any {
			switch j.gap {
			case 1:
				r.emit(dialects.Piece{Kind: j.kind, Text: " "})
			case 2:
				r.emit(dialects.Piece{Kind: j.kind, Text: "\n"})
			}
		}
		j.lead, s = false, t
	}
	body := textlayer.TrimRight(s)
	if body == "" {
		j.held = append(j.held, s...)
		return
	}
	if len(j.held) > 0 {
		r.emit(dialects.Piece{Kind: j.kind, Text: string(j.held)})
		j.held = j.held[:0]
	}
	r.emit(dialects.Piece{Kind: j.kind, Text: body})
	j.any = true
	j.held = append(j.held, s[len(body):]...)
}

// cut ends the piece: markup was taken out here.
func (j *joiner) cut(r *reader) {
	if j.part != "" {
		s := j.part
		j.part = ""
		j.add(r, s)
	}
	if !j.lead {
		j.gap = 0
		if !j.thought {
			j.gap = gapKind(string(j.held))
		}
	}
	j.held, j.lead, j.thought = j.held[:0], true, false
}

func gapKind(ws string) int {
	switch {
	case ws == "":
		return 0
	case strings.ContainsAny(ws, "\r\n"):
		return 2
	}
	return 1
}
