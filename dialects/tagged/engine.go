package tagged

import (
	"fmt"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/inprose"
	"github.com/dialectkit/toolcall/dialects/internal/rawcall"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/lenient"
)

// maxTagLen bounds the search for the end of an opening tag or a name, so a
// marker repeated without its end costs constant work per occurrence.
const maxTagLen = 256

// maxDepth bounds the nesting of ChildParams elements.
const maxDepth = 64

// finder finds the next occurrence of one literal. Parsing moves forward,
// so an occurrence found once answers every later search that starts
// before it: each literal is scanned once over the text, not once per call.
type finder struct {
	lit  string
	from int // where the search that found at started; -1 before any
	at   int // next occurrence at or after from; -1 when none
}

func (f *finder) next(text string, from int) int {
	if f.lit == "" || from > len(text) {
		return -1
	}
	if f.from >= 0 && from >= f.from && (f.at < 0 || f.at >= from) {
		return f.at
	}
	f.from = from
	if i := strings.Index(text[from:], f.lit); i >= 0 {
		f.at = from + i
	} else {
		f.at = -1
	}
	return f.at
}

func newFinder(lit string) finder { return finder{lit: lit, from: -1, at: -1} }

// span is a region of the text taken by a call or a section.
type span struct{ start, end int }

// callLits are the literals around one call: the dialect's own, or a loose
// wrapper's.
type callLits struct {
	start, end string
	endFind    *finder
	loose      bool
}

// parser reads the calls of one text. It is used once.
type parser struct {
	t    *Dialect
	d    *Descriptor
	text string
	base int // offset of text in the whole output
	opts *dialects.Options
	// prior is the number of calls read before text, for the call cap.
	prior int
	// cont says text starts inside a section whose calls before it were
	// read (a Reader's stretch ended after one of them).
	cont bool
	// scopeOpen says the last span is a section the text ended before
	// its end; lastEscaped that the last span took the escaped gap after
	// it (absorbGapAfter).
	scopeOpen, lastEscaped bool

	find       [litCount]finder
	looseStart []finder
	looseEnd   []finder

	calls   []dialects.RawCall
	spans   []span
	native  bool              // a call was read in the dialect's own syntax
	repairs []toolcall.Repair // leniency applied to the call being read

	// toolStart and keyStart are the last searches of nextToolStart and
	// nextKeyStart.
	toolStart, keyStart found

	// cdataOpenEnd is a position after which the text holds no CDATA
	// close, so that unclosed sections are not searched again; -1 unknown.
	cdataOpenEnd int

	// scopeLeftOpen says the section read last was not closed.
	scopeLeftOpen bool

	// shown decides whether an opener is shown rather than made (nil:
	// none is), in src, the output so far, where text[i] stands at
	// off+i, or at off+back[i] when text is the output rewritten.
	shown *shownState
	src   string
	off   int
	back  []int

	// escaped says the markup being read (a section, or a call outside
	// one) writes line breaks between its tags as the two characters \n
	// (see skipGap): the line breaks that frame its values are then
	// written so too. noEscapes says the markup is read with no escape
	// standing for whitespace (see standsAlone).
	escaped, noEscapes bool

	// marks decides whether an opener found between spans stands inside
	// a string of a JSON value the text writes there, from marksFrom on
	// (strictjson.TagFinder.At, the rule of strictjson.IndexTag): it is
	// then text. bounded says no value open at the end of text reads on
	// past it (the text is the output's end, a message, or a reasoning
	// block that a closing tag outside any string ends); otherwise an
	// opener such a value may yet hold stops the reading, and pending
	// says so: what the text holds is not known yet.
	marks            strictjson.TagFinder
	marksFrom        int
	bounded, pending bool
}

// init readies p to read text; a parser value can stay on the stack.
func (p *parser) init(t *Dialect, text string, base int, opts *dialects.Options) {
	*p = parser{t: t, d: &t.desc, text: text, base: base, opts: opts, cdataOpenEnd: -1,
		toolStart: found{from: -1}, keyStart: found{from: -1}}
	for i, lit := range t.lits {
		p.find[i] = newFinder(lit)
	}
	for _, w := range p.d.LooseWrappers {
		p.looseStart = append(p.looseStart, newFinder(w.Start))
		p.looseEnd = append(p.looseEnd, newFinder(w.End))
	}
}

// run finds every section and call in the text.
func (p *parser) run() {
	pos := 0
	limit := rawcall.Limit(p.opts)
	if p.cont {
		end, closed := p.scopeBody(0, 0, true)
		p.spans = append(p.spans, span{0, end})
		p.tellCall(0, end)
		p.scopeOpen = !closed
		pos = end
		p.marksFrom = end
	}
	for pos < len(p.text) {
		if limit >= 0 && p.prior+len(p.calls) > limit {
			// Past the call cap the rest is not read (Finish drops the
			// calls past it): a million markers cost no million calls.
			p.calls = append(p.calls, rawcall.NotRead(p.base+pos, p.text[pos:]))
			p.spans = append(p.spans, span{pos, len(p.text)})
			p.scopeOpen, p.lastEscaped = false, false
			return
		}
		at, kind, w := p.nextOpener(pos)
		if at < 0 {
			break
		}
		if p.isShown(at) {
			// Inline code, a quotation or an example fence opened before
			// it: the markup is shown, not made.
			pos = at + p.openerLen(kind, w)
			continue
		}
		switch p.marks.At(p.text[p.marksFrom:], at-p.marksFrom, p.bounded) {
		case strictjson.TagNone:
			// Inside a string of a JSON value written before it
			// ({"x": "<tool_call>…"}): text of the value.
			pos = at + p.openerLen(kind, w)
			continue
		case strictjson.TagPending:
			p.pending = true
			p.absorbFrames()
			return
		}
		before, native := len(p.calls), p.native
		p.escaped, p.noEscapes = false, false
		start, end, ok := p.read(at, kind, w, pos, before, native)
		escapedGap := false
		if ok && p.escaped {
			if p.standsAlone(start) {
				end = p.absorbGapAfter(end)
				escapedGap = true
			} else {
				// Escaped line breaks are read as line breaks only in
				// markup that begins a line: the same markup after other
				// text, as in a string literal ("<tool_call>\n<function=…"),
				// is text that quotes a call, and is read as written.
				p.calls, p.native = p.calls[:before], native
				p.escaped, p.noEscapes = false, true
				start, end, ok = p.read(at, kind, w, pos, before, native)
				p.noEscapes = false
			}
		}
		if !ok {
			pos = end
			continue
		}
		p.spans = append(p.spans, span{start, end})
		p.tellCall(start, end)
		p.scopeOpen = kind == openScope && p.scopeLeftOpen
		p.lastEscaped = escapedGap
		pos = end
		// A value written before the span holds no opener after it.
		p.marks.Reset()
		p.marksFrom = end
	}
	p.absorbFrames()
}

// openerLen is the length of the opener of kind (and loose wrapper w).
func (p *parser) openerLen(kind openerKind, w int) int {
	switch kind {
	case openScope:
		return len(p.d.ScopeStart)
	case openTool:
		return len(p.d.ToolStart)
	}
	return len(p.d.LooseWrappers[w].Start)
}

// srcAt returns where text[i] stands in the output.
func (p *parser) srcAt(i int) int {
	if p.back != nil && i < len(p.back) {
		i = p.back[i]
	}
	return p.off + i
}

// isShown reports whether markup at text[at] is shown rather than made,
// by what precedes it in the output (shownState).
func (p *parser) isShown(at int) bool {
	return p.shown != nil && p.shown.at(p.src, p.srcAt(at))
}

// tellCall tells the shown scan that text[start:end] is read as a call
// or a section.
func (p *parser) tellCall(start, end int) {
	if p.shown != nil {
		p.shown.call(p.src, p.srcAt(start), p.srcAt(end))
	}
}

// read reads the section, call or loose call that opens at at, and
// returns the span it takes. When what opens there is not one (a mention
// of the literal, prose between tags, a loose wrapper holding no call), ok
// is false, the calls read are dropped and end is where reading goes on.
func (p *parser) read(at int, kind openerKind, w, pos, before int, native bool) (start, end int, ok bool) {
	switch kind {
	case openScope:
		var closed bool
		end, closed = p.scopeBody(at, at+len(p.d.ScopeStart), false)
		p.scopeLeftOpen = !closed
		if inprose.Mentioned(p.text, at, at+len(p.d.ScopeStart), p.calls[before:]) {
			p.calls, p.native = p.calls[:before], native
			return at, at + len(p.d.ScopeStart), false
		}
	case openTool:
		end = p.call(at, p.ownLits(), len(p.text), false)
		if inprose.Mentioned(p.text, at, at+len(p.d.ToolStart), p.calls[before:]) {
			p.calls, p.native = p.calls[:before], native
			return at, at + len(p.d.ToolStart), false
		}
		if p.proseBetweenTags(at, before) {
			// "Wrap it in <tool_call> and </tool_call> tags": a word
			// set apart by blanks between the two tags, with nothing
			// else, is prose about the tags, not a call to "and".
			p.calls, p.native = p.calls[:before], native
			return at, at + len(p.d.ToolStart), false
		}
		end = p.absorbAfter(end)
		at = p.absorbBefore(at, pos)
	case openLoose:
		var ok bool
		if end, ok = p.looseCall(at, w); !ok {
			return at, at + len(p.d.LooseWrappers[w].Start), false
		}
	}
	return at, end, true
}

// standsAlone reports whether the markup that starts at start begins a
// line of its own: a line break, the start of the output, the previous
// call or the close of a reasoning block stands before it, with nothing
// but a gap between (skipGap). Markup inside a line, after other text,
// may be inside a string literal that quotes it.
func (p *parser) standsAlone(start int) bool {
	floor := 0
	if len(p.spans) > 0 {
		floor = p.spans[len(p.spans)-1].end
	}
	lead := p.text[floor:start]
	t := trimGapRight(lead)
	alone := t == "" || strings.ContainsAny(lead[len(t):], "\n\r")
	for _, tags := range p.t.tags {
		alone = alone || strings.HasSuffix(t, tags.Close)
	}
	return alone
}

// absorbGapAfter widens a span that ends at end over the gap after it, up
// to its first line break: escapes there are markup, the line break
// separates content.
func (p *parser) absorbGapAfter(end int) int {
	n, _ := skipGap(p.text, end, len(p.text))
	if i := strings.IndexAny(p.text[end:n], "\n\r"); i >= 0 {
		return end + i
	}
	return n
}

// absorbFrames widens each run of calls that only whitespace separates to
// the frame around it (see frames), when the frame's opening tag stands
// right before the first call and its closing tag right after the last.
func (p *parser) absorbFrames() {
	if len(p.t.frames) == 0 || len(p.spans) == 0 {
		return
	}
	out := p.spans[:0] // written at or before the index read
	for i := 0; i < len(p.spans); {
		j := i + 1
		for j < len(p.spans) && p.skipGapOnly(p.spans[j-1].end, p.spans[j].start) == p.spans[j].start {
			j++
		}
		floor := 0
		if len(out) > 0 {
			floor = out[len(out)-1].end
		}
		start, end := p.spans[i].start, p.spans[j-1].end
		before := trimGapRight(p.text[floor:start])
		after := p.skipGapOnly(end, len(p.text))
		framed := false
		for _, f := range p.t.frames {
			if strings.HasSuffix(before, f.Start) && strings.HasPrefix(p.text[after:], f.End) {
				out = append(out, span{floor + len(before) - len(f.Start), after + len(f.End)})
				framed = true
				break
			}
		}
		if !framed {
			out = append(out, p.spans[i:j]...)
		}
		i = j
	}
	p.spans = out
}

type openerKind int

const (
	openScope openerKind = iota
	openTool
	openLoose
)

// nextOpener returns the earliest section, call or loose wrapper start at
// or after pos.
func (p *parser) nextOpener(pos int) (at int, kind openerKind, wrapper int) {
	at = -1
	consider := func(i int, k openerKind, w int) {
		if i >= 0 && (at < 0 || i < at) {
			at, kind, wrapper = i, k, w
		}
	}
	if p.d.ScopeStart != "" {
		consider(p.find[litScopeStart].next(p.text, pos), openScope, 0)
	}
	if p.d.ScopeStart == "" || p.d.ScopeOptional {
		consider(p.nextToolStart(pos), openTool, 0)
	}
	for i := range p.looseStart {
		consider(p.looseStart[i].next(p.text, pos), openLoose, i)
	}
	return at, kind, wrapper
}

func (p *parser) ownLits() callLits {
	return callLits{start: p.d.ToolStart, end: p.d.ToolEnd, endFind: &p.find[litToolEnd]}
}

// nextToolStart returns the next ToolStart that really opens a call.
func (p *parser) nextToolStart(from int) int {
	if at, ok := p.toolStart.known(from); ok {
		return at
	}
	start := from
	for {
		i := p.find[litToolStart].next(p.text, from)
		if i < 0 || p.boundary(i+len(p.d.ToolStart), p.d.ToolName) {
			p.toolStart = found{from: start, at: i}
			return i
		}
		from = i + 1
	}
}

// nextKeyStart returns the next KeyStart that really opens a parameter.
func (p *parser) nextKeyStart(from int) int {
	if at, ok := p.keyStart.known(from); ok {
		return at
	}
	start := from
	for {
		i := p.find[litKeyStart].next(p.text, from)
		if i < 0 || p.d.Params != ElementParams || p.boundary(i+len(p.d.KeyStart), p.d.Key) {
			p.keyStart = found{from: start, at: i}
			return i
		}
		from = i + 1
	}
}

// found remembers a search for the next literal that really opens
// something (nextToolStart, nextKeyStart): the first found at or after
// from is at, or none when at < 0. The literals passed over on the way
// ("<function" in "<function_call>") are not passed over again: without
// it, a text of n of them and none that opens cost n²/2 steps.
type found struct{ from, at int }

// known returns the answer for a search from from, when the search
// remembered holds it.
func (f found) known(from int) (int, bool) {
	if f.from >= 0 && from >= f.from && (f.at < 0 || f.at >= from) {
		return f.at, true
	}
	return 0, false
}

// boundary reports whether the text at i can follow an opening literal
// whose name is written as mode says: "<function" opens a call in
// "<function=x>" but not in "<functions>".
func (p *parser) boundary(i int, mode string) bool {
	if mode == NameText || i >= len(p.text) {
		return true
	}
	if strings.HasPrefix(p.text[i:], p.d.TagEnd) {
		return true
	}
	switch c := p.text[i]; c {
	case ' ', '\t', '\n', '\r':
		return true
	case '=':
		return mode == NameShorthand
	}
	return false
}

// scopeBody reads a section that opens at at, its body at bodyStart, and
// the calls in it, and returns where it ends and whether its end literal
// closed it. A section left open ends where the next one starts, or with
// the text. read says calls of the section were read before the text.
func (p *parser) scopeBody(at, bodyStart int, read bool) (int, bool) {
	d := p.d
	bodyEnd, end, closed := len(p.text), len(p.text), false
	e := p.find[litScopeEnd].next(p.text, bodyStart)
	n := p.find[litScopeStart].next(p.text, bodyStart)
	for {
		k := e
		if e < 0 || n >= 0 && n < e {
			k = n
		}
		if k < 0 {
			break
		}
		ve, ok := p.inCallJSON(bodyStart, k)
		if !ok {
			ve, ok = p.inOpenValue(bodyStart, k, len(p.text))
		}
		if !ok {
			break
		}
		// The literal lies inside a string of a call's JSON arguments
		// ("wrap it in </tool_call>"): argument text. Look past the value.
		if e >= 0 && e < ve {
			e = p.find[litScopeEnd].next(p.text, ve)
		}
		if n >= 0 && n < ve {
			n = p.find[litScopeStart].next(p.text, ve)
		}
	}
	switch {
	case e >= 0 && (n < 0 || e < n):
		bodyEnd, end, closed = e, e+len(d.ScopeEnd), true
	case n >= 0:
		bodyEnd, end = n, n
	}
	pos := bodyStart
	before := len(p.calls)
	if read {
		before = -1
	}
	for {
		pos = p.skipFiller(pos, bodyEnd)
		if pos >= bodyEnd {
			if !closed && end == len(p.text) && len(p.calls) == before {
				// The output ends in a section it opened and wrote no
				// call in: cut off inside the envelope, never nothing.
				p.failErr(at, end, "", cutoff.Error("inside a tool-call section, before its first call"))
			}
			return end, closed
		}
		if p.isToolStart(pos) {
			pos = p.call(pos, p.ownLits(), bodyEnd, closed)
			continue
		}
		next := p.nextToolStart(pos + 1)
		if next < 0 || next > bodyEnd {
			next = bodyEnd
		}
		if next == len(p.text) && !closed && p.cutInLiteral(pos) {
			// The output ends inside a literal of the section: after
			// whole calls, a closing one, or an opening one that cuts
			// the next call.
			if len(p.calls) == before || p.cutInOpener(pos) {
				p.failErr(pos, next, "", cutoff.Error("inside a tool-call section, inside a call's opening tag"))
			}
			return end, closed
		}
		p.fail(pos, next, "", toolcall.CodeMalformedCall, "text in the tool-call section is not a call")
		pos = next
	}
}

// inOpenValue reports whether offset at, in a call body that starts at
// from, lies inside a parameter value opened in text[from:at] and not yet
// closed there, whose closing literal follows at before limit with no
// call or parameter opened in between: a literal at at is then text of
// the value, which a raw value cannot escape. It returns where the value's
// closing literal ends.
func (p *parser) inOpenValue(from, at, limit int) (int, bool) {
	d := p.d
	open := d.KeyStart
	switch d.Params {
	case PairParams:
		open = d.ValStart
	case ChildParams:
		return 0, false
	}
	if open == "" || d.ValEnd == "" || at >= limit {
		return 0, false
	}
	k := strings.LastIndex(p.text[from:at], open)
	if k < 0 || strings.Contains(p.text[from+k:at], d.ValEnd) {
		return 0, false
	}
	ve := strings.Index(p.text[at:limit], d.ValEnd)
	if ve < 0 {
		return 0, false
	}
	between := p.text[at : at+ve]
	if strings.Contains(between, d.ToolStart) || d.KeyStart != "" && strings.Contains(between, d.KeyStart) {
		return 0, false
	}
	return at + ve + len(d.ValEnd), true
}

// inCallJSON reports whether offset at, in a section whose body starts at
// from, lies inside a string of the JSON arguments of the last call that
// opens before it, and that value reads on past at as strict JSON
// (jsonPast); it returns where the value ends.
func (p *parser) inCallJSON(from, at int) (int, bool) {
	d := p.d
	i := strings.LastIndex(p.text[from:at], d.ToolStart)
	if i < 0 {
		return 0, false
	}
	pos := from + i + len(d.ToolStart)
	if d.ToolName != NameText {
		te := p.tagEnd(pos, at)
		if te < 0 {
			return 0, false
		}
		pos = te + len(d.TagEnd)
	}
	return p.jsonPast(pos, at, len(p.text))
}

func (p *parser) isToolStart(pos int) bool {
	return strings.HasPrefix(p.text[pos:], p.d.ToolStart) && p.boundary(pos+len(p.d.ToolStart), p.d.ToolName)
}

// cutInLiteral reports whether the output ends, past blanks at pos,
// inside one of the literals a section holds besides calls: its end, a
// filler, an end of turn, or a call's start.
func (p *parser) cutInLiteral(pos int) bool {
	rest := p.text[pos:]
	return cutoff.Marker(rest, p.d.ScopeEnd, p.d.ToolEnd) || cutoff.Marker(rest, p.d.Filler...) ||
		cutoff.Marker(rest, p.d.EndOfTurn...) || p.cutInOpener(pos)
}

// cutInOpener reports whether the output ends, past blanks at pos, inside
// a call's start literal and no literal that closes.
func (p *parser) cutInOpener(pos int) bool {
	rest := p.text[pos:]
	return cutoff.Marker(rest, p.d.ToolStart) && !cutoff.Marker(rest, p.d.ScopeEnd, p.d.ToolEnd) && !cutoff.Marker(rest, p.d.EndOfTurn...)
}

// skipFiller skips gaps (skipGap) and filler literals.
func (p *parser) skipFiller(pos, end int) int {
	for {
		pos = p.gap(pos, end)
		moved := false
		for _, f := range p.d.Filler {
			if f != "" && pos+len(f) <= end && strings.HasPrefix(p.text[pos:], f) {
				pos += len(f)
				moved = true
			}
		}
		if !moved {
			return pos
		}
	}
}

// absorbAfter takes the filler and the section end that stand right after
// a call written without its section start, so that they do not end up in
// content.
func (p *parser) absorbAfter(end int) int {
	i := p.skipFiller(end, len(p.text))
	if p.d.ScopeEnd != "" && strings.HasPrefix(p.text[i:], p.d.ScopeEnd) {
		return i + len(p.d.ScopeEnd)
	}
	if i > end && len(p.d.Filler) > 0 && strings.TrimSpace(p.text[end:i]) != "" {
		return i
	}
	return end
}

// absorbBefore takes the filler that stands right before a call written
// without its section (step3's <｜tool_call_begin｜>function<｜tool_sep｜>),
// looking back no further than floor.
func (p *parser) absorbBefore(at, floor int) int {
	start := at
	for {
		i := len(strings.TrimRight(p.text[floor:start], " \t\r\n")) + floor
		moved := false
		for _, f := range p.d.Filler {
			if f != "" && strings.HasSuffix(p.text[floor:i], f) {
				start, moved = i-len(f), true
				break
			}
		}
		if !moved {
			return start
		}
	}
}

// proseBetweenTags reports whether the call just read from at (the only
// one since before) is a NameText name with no arguments that a blank
// sets apart from the opening tag on the tag's own line: models write the
// name right after the tag (<tool_call>get_time</tool_call>) or on a line
// of its own, prose puts words between tags.
func (p *parser) proseBetweenTags(at, before int) bool {
	if p.d.ToolName != NameText || len(p.calls) != before+1 {
		return false
	}
	rc := p.calls[before]
	if rc.Err != nil || len(rc.Params) > 0 || rc.Arguments != "" {
		return false
	}
	i := at + len(p.d.ToolStart)
	if i >= len(p.text) || (p.text[i] != ' ' && p.text[i] != '\t') {
		return false
	}
	for i < len(p.text) && (p.text[i] == ' ' || p.text[i] == '\t') {
		i++
	}
	// Blanks that run to a line break are layout: the name stands on a
	// line of its own.
	return i >= len(p.text) || (p.text[i] != '\n' && p.text[i] != '\r')
}

// looseCall reads a call in a loose wrapper; ok is false when the wrapper
// does not hold a call, so that it stays content.
func (p *parser) looseCall(at, w int) (end int, ok bool) {
	lits := callLits{start: p.d.LooseWrappers[w].Start, end: p.d.LooseWrappers[w].End, endFind: &p.looseEnd[w], loose: true}
	before := len(p.calls)
	native := p.native
	end = p.call(at, lits, len(p.text), false)
	if len(p.calls) == before+1 && p.calls[before].Err == nil {
		return end, true
	}
	p.calls, p.native = p.calls[:before], native
	return 0, false
}

// regionStatus is how a call's region ended.
type regionStatus int

const (
	closedByTag     regionStatus = iota // its own end literal
	closedByScope                       // the end of its section
	interruptedCall                     // another call began first
	truncatedCall                       // the text ended
)

// region finds the end of the call whose body starts at from: its end
// literal, or whatever comes first of the next call, a section boundary, or
// limit.
func (p *parser) region(from, limit int, limitCloses bool, lits callLits) (bodyEnd, end int, status regionStatus) {
	search := from
	for {
		bodyEnd, end, status = p.regionFrom(search, limit, limitCloses, lits)
		if e, ok := p.jsonPast(from, bodyEnd, limit); ok && status != truncatedCall && status != closedByScope {
			// The literal lies inside a string of the call's JSON
			// arguments ("wrap it in </function>"): argument text.
			search = e
			continue
		}
		if e, ok := p.inOpenValue(from, bodyEnd, limit); ok && status != truncatedCall {
			// The literal lies inside a parameter value whose own closing
			// tag comes after it ("end it with </function>"): value text.
			search = e
			continue
		}
		if !p.d.CDATA {
			return bodyEnd, end, status
		}
		// A literal inside a CDATA section is text: look again after it.
		c := strings.Index(p.text[search:bodyEnd], cdataOpen)
		if c < 0 {
			return bodyEnd, end, status
		}
		c += search + len(cdataOpen)
		if p.cdataOpenEnd >= 0 && c >= p.cdataOpenEnd {
			return bodyEnd, end, status // known: no close after here
		}
		e := strings.Index(p.text[c:limit], cdataClose)
		if e < 0 {
			if limit == len(p.text) {
				p.cdataOpenEnd = c
			}
			return bodyEnd, end, status
		}
		search = c + e + len(cdataClose)
	}
}

// jsonPast reports whether the call whose body starts at from holds JSON
// (arguments, or a call object, where the dialect accepts them) that opens
// the body, holds at inside one of its strings, and reads on past it as
// strict JSON; it returns where that value ends (strictjson.RunsPast).
func (p *parser) jsonPast(from, at, limit int) (int, bool) {
	d := p.d
	if !d.JSONArguments && !d.JSONEnvelope || at >= limit {
		return 0, false
	}
	pos := p.skipGapOnly(from, at)
	if d.ToolName == NameText && pos < at && p.text[pos] != '{' {
		end := nameEnd(p.text, pos, at)
		if end < 0 {
			return 0, false
		}
		pos = p.skipGapOnly(end, at)
	}
	if pos >= at || p.text[pos] != '{' {
		return 0, false
	}
	return strictjson.RunsPast(p.text, pos, at, limit, p.opts.Lenient.MaxDepth)
}

// regionFrom is region with the search for literals starting at from.
func (p *parser) regionFrom(from, limit int, limitCloses bool, lits callLits) (bodyEnd, end int, status regionStatus) {
	bodyEnd, status = limit, truncatedCall
	if limitCloses {
		status = closedByScope
	} else if limit < len(p.text) {
		status = interruptedCall
	}
	end = limit
	consider := func(i int, s regionStatus, after int) {
		if i >= 0 && i < bodyEnd {
			bodyEnd, end, status = i, i+after, s
		}
	}
	consider(lits.endFind.next(p.text, from), closedByTag, len(lits.end))
	consider(p.nextToolStart(from), interruptedCall, 0)
	if p.d.ScopeStart != "" {
		consider(p.find[litScopeStart].next(p.text, from), interruptedCall, 0)
		consider(p.find[litScopeEnd].next(p.text, from), closedByScope, len(p.d.ScopeEnd))
	}
	for i := range p.looseStart {
		consider(p.looseStart[i].next(p.text, from), interruptedCall, 0)
	}
	return bodyEnd, end, status
}

// call reads the call that starts at at and returns where it ends.
func (p *parser) call(at int, lits callLits, limit int, limitCloses bool) int {
	d := p.d
	pos := at + len(lits.start)
	name := ""
	var attrs string
	if d.ToolName != NameText {
		te := p.tagEnd(pos, limit)
		if te < 0 {
			_, end, status := p.region(pos, limit, limitCloses, lits)
			if status == truncatedCall {
				p.failErr(at, end, "", cutoff.Error("inside a call's opening tag"))
			} else {
				p.fail(at, end, "", toolcall.CodeMalformedCall, "the call's opening tag is not closed")
			}
			return end
		}
		attrs = p.text[pos:te]
		var names int
		name, names = attrValues(attrs, d.ToolName)
		pos = te + len(d.TagEnd)
		if names > 1 {
			// Two names in one tag: which tool is meant cannot be known.
			_, end, _ := p.region(pos, limit, limitCloses, lits)
			p.fail(at, end, name, toolcall.CodeMalformedCall, "the call's opening tag names its tool twice: which tool is meant cannot be known")
			return end
		}
	}
	bodyEnd, end, status := p.region(pos, limit, limitCloses, lits)
	if name == "" && d.ToolName == NameText && d.NameChild == "" && (status == truncatedCall || status == interruptedCall) {
		name = p.peekName(pos, bodyEnd) // for the error's sake
	}
	switch status {
	case truncatedCall:
		p.failErr(at, end, name, cutoff.Error("inside a call"))
		return end
	case interruptedCall:
		p.fail(at, end, name, toolcall.CodeMalformedCall, "a call is not closed before the next one begins")
		return end
	}
	rc := dialects.RawCall{Name: name, Offset: p.base + at}
	p.repairs = p.repairs[:0]
	if status == closedByScope {
		p.unclosed(bodyEnd, "call")
	}
	native := true
	var err *toolcall.Error
	if d.Params == ChildParams {
		err = p.childBody(&rc, pos, bodyEnd)
	} else {
		native, err = p.body(&rc, pos, bodyEnd, lits.loose)
	}
	if err != nil {
		p.failErr(at, end, rc.Name, err)
		return end
	}
	if err := p.checkSize(&rc); err != nil {
		p.failErr(at, end, rc.Name, err)
		return end
	}
	if d.ResolveAliases {
		resolveAlias(&rc, p.opts.Tools)
	}
	if len(p.repairs) > 0 {
		rc.Repairs = append(rc.Repairs, p.repairs...)
	}
	p.native = p.native || native
	p.calls = append(p.calls, rc)
	return end
}

// pointer is the JSON Pointer of a top-level key.
func pointer(key string) string {
	return "/" + strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// unclosed records that what ends at pos lacked its closing tag; what is
// "call" or a parameter path.
func (p *parser) unclosed(pos int, what string) {
	p.repairs = append(p.repairs, toolcall.Repair{Kind: toolcall.RepairUnclosedTag, Offset: p.base + pos, CallIndex: -1,
		Detail: what + ": closing tag missing"})
}

// body reads the name (NameText) and the parameters of a call. native is
// false when the call was a JSON envelope rather than the dialect's syntax.
func (p *parser) body(rc *dialects.RawCall, from, to int, loose bool) (native bool, err *toolcall.Error) {
	d := p.d
	pos := p.gap(from, to)
	if d.ToolName == NameText {
		if pos < to && p.text[pos] == '{' && d.JSONEnvelope {
			if err := cutInString(p.text[pos:to]); err != nil {
				return false, err
			}
			return false, p.envelope(rc, pos, to)
		}
		end := nameEnd(p.text, pos, to)
		if end < 0 {
			return true, toolcall.NewError(toolcall.CodeMalformedCall, "the call's name does not end")
		}
		rc.Name = strings.TrimSpace(p.text[pos:end])
		pos = p.skipToolSep(end, to)
	}
	if d.JSONArguments && pos < to && p.text[pos] == '{' {
		rc.Arguments = strings.TrimSpace(p.text[pos:to])
		if p.escaped {
			rc.Arguments = trimGapRight(rc.Arguments)
		}
		return true, cutInString(rc.Arguments)
	}
	params := []dialects.Param{}
	for {
		pos = p.gap(pos, to)
		if pos >= to {
			break
		}
		var (
			prm dialects.Param
			err *toolcall.Error
		)
		at := pos
		if d.Params == PairParams {
			prm, pos, err = p.pairParam(pos, to)
		} else {
			prm, pos, err = p.elementParam(pos, to)
		}
		if err != nil {
			return true, err
		}
		params = p.addParam(params, prm, at)
	}
	if loose && len(params) == 0 {
		// A loose wrapper must prove it holds a call.
		return true, toolcall.NewError(toolcall.CodeMalformedCall, "loose wrapper holds no parameters")
	}
	rc.Params = params
	return true, nil
}

// cutInString reports a JSON body that ends inside one of its strings,
// unclosed: the call's end came where the model was still writing a
// string, and what it meant to write is lost. Cut off, never a call whose
// string repair closed.
func cutInString(body string) *toolcall.Error {
	if _, complete := jsonscan.ValueEnd(body, 0); complete || !jsonscan.EndsInString(body) {
		return nil
	}
	return cutoff.Error("inside a string of the call's JSON arguments")
}

// envelope reads a JSON call object written inside the call literals.
func (p *parser) envelope(rc *dialects.RawCall, from, to int) *toolcall.Error {
	obj, ok := callobject.Read(p.text[from:to], rc.Offset, p.opts)
	if !ok {
		return toolcall.NewError(toolcall.CodeMalformedCall, "the call holds JSON that is not a call object")
	}
	rc.Name, rc.Arguments, rc.ID, rc.Repairs = obj.Name, obj.Arguments, obj.ID, obj.Repairs
	if e := coded.As(obj.Err); e != nil {
		return e
	}
	if rc.Arguments == "" {
		rc.Arguments = "{}"
	}
	return nil
}

// peekName reads a NameText name for an error about its call.
func (p *parser) peekName(from, to int) string {
	from = p.skipGapOnly(from, to)
	if end := nameEnd(p.text, from, to); end >= 0 {
		return strings.TrimSpace(p.text[from:end])
	}
	return ""
}

// nameEnd finds the end of a NameText name: a newline (or its escape,
// see skipGap), a tag or a JSON object, or the end of the call; -1 when
// the name runs past maxTagLen.
func nameEnd(text string, from, to int) int {
	limit := min(to, from+maxTagLen)
	for i := from; i < limit; i++ {
		switch text[i] {
		case '\n', '\r', '<', '{':
			return i
		case '\\':
			if gapEscape(text, i, limit) {
				return i
			}
		}
	}
	if limit == to {
		return to
	}
	return -1
}

func (p *parser) skipToolSep(pos, to int) int {
	for {
		pos = p.gap(pos, to)
		moved := false
		for _, s := range p.d.ToolSep {
			if s != "" && pos+len(s) <= to && strings.HasPrefix(p.text[pos:], s) {
				pos += len(s)
				moved = true
			}
		}
		if !moved {
			return pos
		}
	}
}

// elementParam reads <parameter=KEY>VALUE</parameter> and its variants.
func (p *parser) elementParam(pos, to int) (dialects.Param, int, *toolcall.Error) {
	d := p.d
	if !strings.HasPrefix(p.text[pos:], d.KeyStart) || !p.boundary(pos+len(d.KeyStart), d.Key) {
		return dialects.Param{}, pos, p.junk(pos)
	}
	ks := pos + len(d.KeyStart)
	te := p.tagEnd(ks, to)
	if te < 0 {
		return dialects.Param{}, pos, toolcall.NewError(toolcall.CodeMalformedCall, "a parameter's opening tag is not closed")
	}
	attrs := p.text[ks:te]
	key, keys := attrValues(attrs, d.Key)
	prm := dialects.Param{Key: key}
	if keys > 1 {
		return prm, pos, toolcall.NewError(toolcall.CodeMalformedCall, "a parameter's opening tag names it twice: which parameter is meant cannot be known")
	}
	if prm.Key == "" {
		return prm, pos, toolcall.NewError(toolcall.CodeMalformedCall, "a parameter has no name")
	}
	prm.IsString, prm.IsJSON = valueKind(attrs, d.StringAttr, d.TypeAttr)
	vs := te + len(d.TagEnd)
	if d.CDATA {
		if v, next, ok := p.cdata(vs, to); ok {
			prm.Value = v
			return prm, next, nil
		}
	}
	ve, closed := p.valueEnd(vs, to)
	prm.Value = trimValue(p.text[vs:ve], closed, p.escaped)
	if !closed {
		p.unclosed(ve, pointer(prm.Key))
		return prm, ve, nil
	}
	return prm, ve + len(d.ValEnd), nil
}

// cdataOpen and cdataClose wrap an XML CDATA section.
const (
	cdataOpen  = "<![CDATA["
	cdataClose = "]]>"
)

// cdata reads a value written as a CDATA section starting at from (after
// optional whitespace): the text inside is the value as is. next is where
// reading goes on: after the value's closing literal when it follows, else
// after the section. ok is false when the value is not a closed CDATA
// section.
func (p *parser) cdata(from, to int) (value string, next int, ok bool) {
	i := skipSpace(p.text, from, to)
	if !strings.HasPrefix(p.text[i:to], cdataOpen) {
		return "", 0, false
	}
	i += len(cdataOpen)
	j := strings.Index(p.text[i:to], cdataClose)
	if j < 0 {
		return "", 0, false
	}
	value, next = p.text[i:i+j], i+j+len(cdataClose)
	k := skipSpace(p.text, next, to)
	if strings.HasPrefix(p.text[k:to], p.d.ValEnd) {
		return value, k + len(p.d.ValEnd), true
	}
	p.unclosed(next, "CDATA value")
	return value, next, true
}

// pairParam reads <arg_key>KEY</arg_key><arg_value>VALUE</arg_value>.
func (p *parser) pairParam(pos, to int) (dialects.Param, int, *toolcall.Error) {
	d := p.d
	if !strings.HasPrefix(p.text[pos:], d.KeyStart) {
		return dialects.Param{}, pos, p.junk(pos)
	}
	ks := pos + len(d.KeyStart)
	limit := min(to, ks+maxTagLen)
	ke := strings.Index(p.text[ks:limit], d.KeyEnd)
	if ke < 0 {
		return dialects.Param{}, pos, toolcall.NewError(toolcall.CodeMalformedCall, "a parameter key is not closed")
	}
	prm := dialects.Param{Key: strings.TrimSpace(p.text[ks : ks+ke])}
	if prm.Key == "" {
		return prm, pos, toolcall.NewError(toolcall.CodeMalformedCall, "a parameter has no name")
	}
	vs := p.gap(ks+ke+len(d.KeyEnd), to)
	if !strings.HasPrefix(p.text[vs:to], d.ValStart) {
		return prm, pos, toolcall.NewError(toolcall.CodeMalformedCall, "a parameter key is not followed by its value")
	}
	vs += len(d.ValStart)
	ve, closed := p.valueEnd(vs, to)
	prm.Value = trimValue(p.text[vs:ve], closed, p.escaped)
	if !closed {
		p.unclosed(ve, pointer(prm.Key))
		return prm, ve, nil
	}
	return prm, ve + len(d.ValEnd), nil
}

// valueEnd finds where a value starting at from ends: its closing literal,
// or, when that is missing, the next parameter or the end of the call.
func (p *parser) valueEnd(from, to int) (end int, closed bool) {
	end = to
	if v := p.find[litValEnd].next(p.text, from); v >= 0 && v < end {
		end, closed = v, true
	}
	if k := p.nextKeyStart(from); k >= 0 && k < end {
		end, closed = k, false
	}
	return end, closed
}

// tagEnd finds the TagEnd of an opening tag whose attributes start at
// from, looking no further than maxTagLen; -1 when there is none.
func (p *parser) tagEnd(from, to int) int {
	limit := min(to, from+maxTagLen+len(p.d.TagEnd))
	if i := strings.Index(p.text[from:limit], p.d.TagEnd); i >= 0 {
		return from + i
	}
	return -1
}

func (p *parser) junk(pos int) *toolcall.Error {
	e := toolcall.NewError(toolcall.CodeMalformedCall, "text inside a call is not a parameter")
	e.Offset = p.base + pos
	return e
}

// checkSize rejects a call whose parameter values exceed the size limit:
// typed values never pass through the lenient pipeline that checks it.
func (p *parser) checkSize(rc *dialects.RawCall) *toolcall.Error {
	limit := p.opts.Lenient.MaxSize
	if limit <= 0 {
		limit = lenient.DefaultMaxSize
	}
	n := 0
	for _, prm := range rc.Params {
		n += len(prm.Key) + len(prm.Value)
	}
	if n > limit {
		return toolcall.NewError(toolcall.CodeTooLarge, fmt.Sprintf("arguments are %d bytes, the limit is %d", n, limit))
	}
	return nil
}

// fail records a call that was found but could not be read.
func (p *parser) fail(at, end int, name string, code toolcall.Code, msg string) {
	p.failErr(at, end, name, toolcall.NewError(code, msg))
}

func (p *parser) failErr(at, end int, name string, e *toolcall.Error) {
	if e.Offset < 0 {
		e.Offset = p.base + at
	}
	if e.Raw == "" {
		e.Raw = p.text[at:end]
	}
	p.calls = append(p.calls, dialects.RawCall{Name: name, Offset: p.base + at, Err: e})
}

// addParam appends prm, written at at, or replaces an earlier value of the
// same key: the last value wins, at the first one's place, recorded as
// duplicate_key, as when a JSON object repeats a key.
func (p *parser) addParam(params []dialects.Param, prm dialects.Param, at int) []dialects.Param {
	for i := range params {
		if params[i].Key == prm.Key {
			params[i] = prm
			p.repairs = append(p.repairs, toolcall.Repair{Kind: toolcall.RepairDuplicateKey, Offset: p.base + at, CallIndex: -1,
				Detail: "parameter written twice in one call: the last value is kept"})
			return params
		}
	}
	return append(params, prm)
}

// trimValue drops one leading and one trailing newline, the line breaks
// templates put inside the tags. A value whose closing tag is missing also
// loses the whitespace before whatever ended it. In markup that writes its
// line breaks escaped (escaped, see skipGap), a value's framing line break
// may be escaped too: with no newline there, one escaped newline is dropped
// at each end. Any other escape is the value's text.
func trimValue(v string, closed, escaped bool) string {
	if !closed {
		v = strings.TrimRight(v, " \t\r\n")
	}
	switch {
	case strings.HasPrefix(v, "\r\n"):
		v = v[2:]
	case strings.HasPrefix(v, "\n"):
		v = v[1:]
	case escaped && strings.HasPrefix(v, `\r\n`):
		v = v[4:]
	case escaped && strings.HasPrefix(v, `\n`):
		v = v[2:]
	}
	switch {
	case strings.HasSuffix(v, "\r\n"):
		v = v[:len(v)-2]
	case strings.HasSuffix(v, "\n"):
		v = v[:len(v)-1]
	case escaped && strings.HasSuffix(v, `\r\n`) && !jsonscan.Escaped(v, len(v)-4):
		v = v[:len(v)-4]
	case escaped && strings.HasSuffix(v, `\n`) && !jsonscan.Escaped(v, len(v)-2):
		v = v[:len(v)-2]
	}
	return v
}

// skipGap skips a gap between tags: whitespace, and the escapes \n, \r and
// \t written as two characters, a backslash and a letter. Markup allows
// nothing else between its tags, so the escape can only stand for the line
// break or blank it spells: models that learned their calls from escaped
// text, or a server that escaped them, write the template's line breaks so
// (<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>). A value
// is not a gap: an escape inside one is its text (see trimValue for the
// line breaks that frame it). escaped reports whether an escape was
// skipped.
func skipGap(s string, pos, end int) (next int, escaped bool) {
	for pos < end {
		switch s[pos] {
		case ' ', '\t', '\n', '\r':
			pos++
		case '\\':
			if !gapEscape(s, pos, end) {
				return pos, escaped
			}
			pos += 2
			escaped = true
		default:
			return pos, escaped
		}
	}
	return pos, escaped
}

// gapEscape reports whether s[i], a backslash, begins one of the escapes
// a gap may hold.
func gapEscape(s string, i, end int) bool {
	if i+1 >= end {
		return false
	}
	switch s[i+1] {
	case 'n', 'r', 't':
		return true
	}
	return false
}

// gap skips a gap (skipGap) and notes an escaped one.
func (p *parser) gap(pos, end int) int {
	if p.noEscapes {
		return skipSpace(p.text, pos, end)
	}
	next, esc := skipGap(p.text, pos, end)
	p.escaped = p.escaped || esc
	return next
}

// skipGapOnly skips a gap without noting anything, for searches that look
// ahead of the parse.
func (p *parser) skipGapOnly(pos, end int) int {
	if p.noEscapes {
		return skipSpace(p.text, pos, end)
	}
	next, _ := skipGap(p.text, pos, end)
	return next
}

// trimGapRight drops the gap (skipGap) that ends s.
func trimGapRight(s string) string {
	for {
		t := strings.TrimRight(s, " \t\r\n")
		if len(t) >= 2 && t[len(t)-2] == '\\' && gapEscape(t, len(t)-2, len(t)) && !jsonscan.Escaped(t, len(t)-2) {
			s = t[:len(t)-2]
			continue
		}
		return t
	}
}

func skipSpace(s string, pos, end int) int {
	for pos < end {
		switch s[pos] {
		case ' ', '\t', '\n', '\r':
			pos++
		default:
			return pos
		}
	}
	return pos
}

// valueKind reads the attributes that declare a value's kind.
func valueKind(attrs, stringAttr, typeAttr string) (isString, isJSON bool) {
	if stringAttr != "" {
		switch strings.ToLower(attrValue(attrs, stringAttr)) {
		case "true":
			return true, false
		case "false":
			return false, true
		}
	}
	if typeAttr != "" {
		switch t := strings.ToLower(attrValue(attrs, typeAttr)); t {
		case "":
		case "string", "str":
			return true, false
		default:
			return false, true
		}
	}
	return false, false
}

// attrValue returns the name written in an opening tag's attribute text:
// after "=" for NameShorthand, else the value of the attribute named want.
// Values may be double-quoted, single-quoted or bare.
// attrValue returns the value of the attribute want in attrs, "" when it
// has none (see attrValues).
func attrValue(attrs, want string) string {
	v, _ := attrValues(attrs, want)
	return v
}

// attrValues returns the value of the first attribute want in attrs and
// how many times attrs gives it.
func attrValues(attrs, want string) (first string, n int) {
	if want == NameShorthand {
		s := strings.TrimSpace(attrs)
		if !strings.HasPrefix(s, "=") {
			return "", 0
		}
		return unquote(strings.TrimSpace(s[1:])), 1
	}
	s := attrs
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			return first, n
		}
		i := strings.IndexAny(s, "= \t\r\n")
		if i < 0 {
			return first, n
		}
		key := s[:i]
		s = strings.TrimLeft(s[i:], " \t\r\n")
		if !strings.HasPrefix(s, "=") {
			continue // an attribute without a value
		}
		s = strings.TrimLeft(s[1:], " \t\r\n")
		var val string
		if s != "" && (s[0] == '"' || s[0] == '\'') {
			j := strings.IndexByte(s[1:], s[0])
			if j < 0 {
				val, s = s[1:], ""
			} else {
				val, s = s[1:1+j], s[2+j:]
			}
		} else {
			j := strings.IndexAny(s, " \t\r\n")
			if j < 0 {
				j = len(s)
			}
			val, s = s[:j], s[j:]
		}
		if key == want {
			if n == 0 {
				first = strings.TrimSpace(val)
			}
			n++
		}
	}
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}
