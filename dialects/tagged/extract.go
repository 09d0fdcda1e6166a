package tagged

import (
	"slices"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/rawcall"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/coded"
)

// frameFunc is a hook that splits an output, or a stretch of it that ends
// with a message, into messages before calls are read; it returns the
// whole extraction in ext. s says how the stretch is read.
type frameFunc func(t *Dialect, text string, opts *dialects.Options, s stretch, ext *dialects.Extraction) (pending bool)

// Extract finds the calls in text, and the content and reasoning around
// them: it is a Reader (NewReader) fed text whole.
//
// Calls inside a finished reasoning block (written with both tags, or
// opened by the template and closed in the output) are the model thinking
// about a call: they stay reasoning. In reasoning never closed, calls are
// read (models emit a call before closing their reasoning; Ollama and
// llama.cpp accept it).
// What is left once calls and sections are taken out is split into
// reasoning and content; whitespace between content and a call is dropped.
// Markup shown rather than made is not read: what precedes it opens
// inline code, a quotation, or a fence labelled with a programming
// language or that the prose before it presents as an example
// (shown.ShownScan.ShownAt).
func (t *Dialect) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.Read(t.NewReader(opts), text)
}

// stretch says how one stretch of the output, from where the last one
// ended, is read, and carries what joins it to the next.
type stretch struct {
	// startsOpen and implicit are the reasoning split's flags for the
	// stretch (dialects.ReasoningSplit).
	startsOpen, implicit bool
	// prior is the number of calls read before the stretch.
	prior int
	// final says the stretch ends the output; trailing that a trailing
	// JSON call may be read in it (no call came before).
	final, trailing bool
	// bounded says the stretch ends where no JSON value of it reads on:
	// the block the template opened ends there, with a closing tag no
	// string holds. pending (set by reading it) says an opener in it may
	// yet turn out inside a string of a value that reads on past the
	// stretch: the stretch cannot end there.
	bounded, pending bool
	// cont says the stretch starts inside a section whose calls before
	// it were read; scopeOpen (set by reading it) that it ends inside
	// one, and lastEscaped that its last call took the escaped gap after
	// it.
	cont, scopeOpen, lastEscaped bool
	// tagFree says the stretch, and the output before it, hold no
	// reasoning tag: there is no reasoning to split off or hide.
	tagFree bool
	// normalized says a stretch before was read rewritten (MiniCPM 5's
	// tokenizer artefacts): the output shows them, so this one is too.
	normalized bool
	join       joinState
	// shown decides what the output shows rather than makes (nil: it
	// shows nothing); src is the output so far and base where the
	// stretch starts in it.
	shown *shownState
	src   string
	base  int
	// spans is the array the stretch's spans are read into (nil: a new
	// one), and keeps it for the next stretch.
	spans []span
}

// joinState is what joins the content of one stretch to the next: pieces
// of content on either side of a call are joined by the widest
// separator the whitespace around the call stands for (see rest).
type joinState struct {
	// wrote says text was written to the rest before; gap is the
	// separator owed before the next text.
	wrote bool
	gap   string
	// afterSpan says the stretch starts right after a call or section
	// and the gap after it: its leading whitespace is the gap.
	afterSpan bool
	// trimLead says a reasoning block the split removed ended the last
	// stretch: the whitespace after it is dropped, as SplitReasoning
	// drops it.
	trimLead bool
	// content says content was returned before.
	content bool
}

// sentinel marks the end of a stretch that is not the output's end while
// its reasoning is split, to learn whether a removed block ended it.
const sentinel = " \x00"

// readStretch reads text, a stretch of the output starting at base, as s
// says, into ext, and updates s's join state.
func (t *Dialect) readStretch(text string, base int, opts *dialects.Options, s *stretch, ext *dialects.Extraction) {
	s.base = base
	text, after := cutAtEndOfTurn(text, t.desc.EndOfTurn)
	if t.desc.frame != nil {
		s.pending = t.desc.frame(t, text, opts, *s, ext)
	} else {
		t.extract(text, 0, opts, s, ext)
	}
	if after = strings.TrimSpace(after); after != "" {
		// What follows the end of the turn is not read for calls, but it
		// is not dropped either: it is content.
		if ext.Content != "" || s.join.content {
			ext.Content += "\n"
		}
		ext.Content += after
	}
	s.join.content = s.join.content || ext.Content != ""
	if base != 0 {
		shiftOffsets(ext, base)
	}
}

// shiftOffsets moves the offsets of ext, read from a stretch, by base.
func shiftOffsets(ext *dialects.Extraction, base int) {
	shiftErr := func(e *toolcall.Error) {
		if e != nil && e.Offset >= 0 {
			e.Offset += base
		}
	}
	for i := range ext.Calls {
		rc := &ext.Calls[i]
		rc.Offset += base
		shiftErr(coded.As(rc.Err))
		for j := range rc.Repairs {
			if rc.Repairs[j].Offset >= 0 {
				rc.Repairs[j].Offset += base
			}
		}
	}
	for _, e := range ext.Errors {
		shiftErr(e)
	}
}

// extract runs the engine on text, which starts at base in the output,
// and writes what it read to ext.
func (t *Dialect) extract(text string, base int, opts *dialects.Options, s *stretch, ext *dialects.Extraction) {
	var p parser
	if t.desc.normalize != nil {
		if norm, back, ok := t.desc.normalize(text, s.normalized); ok {
			s.normalized = true
			// Calls are read in the rewritten text; content stays as
			// written, so spans and offsets are taken back to it.
			p.init(t, norm, base, opts)
			p.prior, p.cont = s.prior, s.cont
			p.view(s, back)
			p.run()
			p.restore(text, back)
		} else {
			p.init(t, text, base, opts)
			p.prior, p.cont = s.prior, s.cont
			p.view(s, nil)
			p.run()
		}
	} else {
		p.init(t, text, base, opts)
		p.prior, p.cont = s.prior, s.cont
		p.view(s, nil)
		p.run()
	}
	s.scopeOpen, s.lastEscaped, s.pending = p.scopeOpen, p.lastEscaped, p.pending
	p.keepText(text)
	if !s.tagFree {
		p.hideReasoning(s.startsOpen, s.implicit)
	}
	*ext = dialects.Extraction{Calls: p.calls}
	s.spans = p.spans[:0]
	rest := p.rest(&s.join)
	tags := t.tags
	if pre := t.desc.ChildPrefix; pre != "" && strings.Contains(rest, pre) {
		// The namespace marker may precede the reasoning tags too.
		for _, tg := range tags {
			rest = strings.ReplaceAll(rest, pre+tg.Close, tg.Close)
			rest = strings.ReplaceAll(rest, pre+tg.Open, tg.Open)
		}
	}
	if !s.final {
		rest += sentinel
	}
	if s.tagFree && !s.startsOpen {
		// What SplitReasoning returns for a text with no tag.
		ext.Reasoning, ext.Content = "", rest
	} else {
		ext.Reasoning, ext.Content = dialects.SplitReasoning(rest, dialects.ReasoningSplit{Tags: tags, StartsOpen: s.startsOpen, Implicit: s.implicit})
	}
	if s.join.trimLead {
		ext.Content = strings.TrimLeft(ext.Content, " \t\r\n")
	}
	if !s.final {
		switch {
		case strings.HasSuffix(ext.Content, sentinel):
			ext.Content = ext.Content[:len(ext.Content)-len(sentinel)]
			s.join.trimLead = s.join.trimLead && ext.Content == ""
		case strings.HasSuffix(ext.Content, sentinel[1:]):
			ext.Content = ext.Content[:len(ext.Content)-len(sentinel)+1]
			s.join.trimLead = true
		}
	}
	ext.Content = stripLiterals(ext.Content, t.desc.Strip)
	if len(p.calls) == 0 && t.desc.TrailingJSONCall && s.trailing {
		if rc, content, ok := trailingJSONCall(ext.Content, opts); ok {
			i := strings.LastIndex(text, strings.TrimSpace(ext.Content[len(content):]))
			if i >= 0 {
				rc.Offset = base + i
			}
			if i < 0 || s.shown == nil || !s.shown.at(s.src, s.base+base+i) {
				ext.Calls = append(ext.Calls, rc)
				ext.Content = content
			}
		}
	}
	ext.Marked = p.native || containsAny(text, t.desc.Evidence)
}

// view gives p the output it reads a stretch of, as s says, to decide
// what it shows; back maps a rewritten text's offsets to the text's.
func (p *parser) view(s *stretch, back []int) {
	p.shown, p.src, p.off, p.back = s.shown, s.src, s.base+p.base, back
	p.bounded = s.final || s.bounded
	p.spans = s.spans[:0]
}

// keepText gives the calls of each span the span's whole text, as written
// (rawcall.KeepText): a call that fails keeps its markers and the text
// between them. The spans and the calls' offsets are in order.
func (p *parser) keepText(text string) {
	k := 0
	for _, sp := range p.spans {
		for k < len(p.calls) && p.calls[k].Offset >= 0 && p.calls[k].Offset-p.base < sp.start {
			k++
		}
		j := k
		for j < len(p.calls) && p.calls[j].Offset-p.base < sp.end {
			j++
		}
		if sp.start >= 0 && sp.start <= sp.end && sp.end <= len(text) {
			rawcall.KeepText(p.calls[k:j], text[sp.start:sp.end])
		}
		k = j
	}
}

// hideReasoning gives the calls found inside finished reasoning blocks
// back to the text, where they stay reasoning: blocks written with both
// tags, and the one the template opened, up to its first closing tag
// (textcall.ReasoningBlocks, under the flags the reasoning is split with).
func (p *parser) hideReasoning(reasoningOpen, implicit bool) {
	hidden := textcall.ReasoningBlocks(p.text, reasoningOpen, implicit, p.t.tags...)
	if len(hidden) == 0 {
		return
	}
	p.spans = slices.DeleteFunc(p.spans, func(s span) bool { return textcall.Inside(hidden, s.start) })
	p.calls = slices.DeleteFunc(p.calls, func(rc dialects.RawCall) bool {
		return rc.Offset >= p.base && textcall.Inside(hidden, rc.Offset-p.base)
	})
}

// restore takes a parse of a rewritten text back to the text as written:
// back maps each byte of the rewritten text to its source.
func (p *parser) restore(text string, back []int) {
	at := func(off int) int {
		if i := off - p.base; i >= 0 && i < len(back) {
			return p.base + back[i]
		}
		return off
	}
	for i := range p.spans {
		p.spans[i] = span{back[p.spans[i].start], back[p.spans[i].end]}
	}
	for i := range p.calls {
		rc := &p.calls[i]
		rc.Offset = at(rc.Offset)
		if e := coded.As(rc.Err); e != nil && e.Offset >= 0 {
			e.Offset = at(e.Offset)
		}
		for j := range rc.Repairs {
			if rc.Repairs[j].Offset >= 0 {
				rc.Repairs[j].Offset = at(rc.Repairs[j].Offset)
			}
		}
	}
	p.text = text
}

// rest is the text outside calls and sections. The whitespace that
// separated content from a call goes with the call; two pieces of content
// on either side of a call are joined by a newline if a newline separated
// them from it, else by a space if any whitespace did. j carries the join
// from the stretch before and to the next.
func (p *parser) rest(j *joinState) string {
	if len(p.spans) == 0 && !j.afterSpan && !j.wrote {
		if p.text != "" {
			j.wrote = true
		}
		return p.text
	}
	var b strings.Builder
	prev := 0
	for i := 0; i <= len(p.spans); i++ {
		end := len(p.text)
		if i < len(p.spans) {
			end = p.spans[i].start
		}
		core, lead, trail := p.text[prev:end], "", ""
		if i > 0 || j.afterSpan {
			t := strings.TrimLeft(core, " \t\r\n")
			core, lead = t, core[:len(core)-len(t)]
		}
		if i < len(p.spans) {
			t := strings.TrimRight(core, " \t\r\n")
			core, trail = t, core[len(t):]
			prev = p.spans[i].end
		}
		if n, _ := skipGap(core, 0, len(core)); core != "" && n == len(core) {
			// Nothing but escaped line breaks between calls (skipGap):
			// markup, as whitespace would be.
			core, trail = "", trail+"\n"
		}
		j.gap = widerSep(j.gap, separator(lead))
		if i == len(p.spans) {
			j.afterSpan = len(p.spans) > 0 && core == ""
		}
		if core != "" {
			if j.wrote {
				b.WriteString(j.gap)
			}
			b.WriteString(core)
			j.wrote, j.gap = true, ""
		}
		j.gap = widerSep(j.gap, separator(trail))
	}
	return b.String()
}

// separator is the separator a run of whitespace stands for.
func separator(ws string) string {
	switch {
	case strings.ContainsAny(ws, "\n\r"):
		return "\n"
	case ws != "":
		return " "
	}
	return ""
}

func widerSep(a, b string) string {
	if a == "\n" || b == "\n" {
		return "\n"
	}
	if a == " " || b == " " {
		return " "
	}
	return ""
}

// stripLiterals deletes the literals of strip from content, and nothing
// else: whether the content keeps its outer whitespace never depends on a
// literal further on.
func stripLiterals(content string, strip []string) string {
	for _, s := range strip {
		if strings.Contains(content, s) {
			content = strings.ReplaceAll(content, s, "")
		}
	}
	return content
}

// cutAtEndOfTurn splits text at the first end-of-turn literal: the model's
// turn is over there, and what follows (an imagined tool result, the next
// user turn) is never read for calls. It is returned, without the literal,
// for the content: no text the model wrote vanishes.
func cutAtEndOfTurn(text string, ends []string) (string, string) {
	rest := ""
	for _, e := range ends {
		if i := strings.Index(text, e); i >= 0 {
			rest = text[i+len(e):] + rest
			text = text[:i]
		}
	}
	return text, rest
}

func containsAny(text string, lits []string) bool {
	for _, l := range lits {
		if l != "" && strings.Contains(text, l) {
			return true
		}
	}
	return false
}
