// Package gemma holds the dialects of Google's Gemma models, which write a
// call as call:NAME{key:value,…} inside special tokens:
//
//	functiongemma  <start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>
//	gemma4         <|tool_call>call:get_weather{location:<|"|>London<|"|>}<tool_call|>
//
// The argument object is not JSON: keys are bare, strings are wrapped in a
// delimiter token (<escape> or <|"|>) and hold raw text, numbers, booleans
// and null are bare, objects and arrays nest. A small scanner turns it into
// a JSON object in the model's key order (see value.go). Gemma 4 also
// thinks in <|channel>thought\n…<channel|> blocks.
package gemma

import (
	"strings"
	"unicode"
	"unsafe"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/schema"
)

// The markers of the two dialects.
const (
	gemma4Open   = "<|tool_call>"
	gemma4Close  = "<tool_call|>"
	gemma4Quote  = `<|"|>`
	fgOpen       = "<start_function_call>"
	fgClose      = "<end_function_call>"
	fgEscape     = "<escape>"
	channelOpen  = "<|channel>"
	channelClose = "<channel|>"
	callPrefix   = "call:"
	thoughtLabel = "thought"
)

// Dialect is one Gemma tool-call dialect. Its values are safe for
// concurrent use.
type Dialect struct {
	name      string
	open      string
	close     string
	delims    []string // string delimiters, the dialect's own first
	reasoning bool     // <|channel>…<channel|> blocks are reasoning

	// The markers each scanner state looks for, set once by newDialect.
	inContent   []string
	inReasoning []string
	inOpenThink []string
	blockEnds   []string
	// start is the syntax an output's reasoning start is read from
	// (dialects.ImplicitReasoningIn).
	start dialects.Syntax
}

func newDialect(name, open, close string, delims []string, reasoning bool) *Dialect {
	d := &Dialect{name: name, open: open, close: close, delims: delims, reasoning: reasoning}
	// A <think> block is reasoning, as in every dialect (dialects.Think).
	d.inContent = []string{open, close, dialects.Think.Open}
	d.inReasoning = []string{channelClose, open, channelOpen}
	d.blockEnds = []string{close, open}
	d.inOpenThink = []string{open}
	if reasoning {
		d.inContent = append(d.inContent, channelOpen, channelClose)
		// A block that lost its close ends where reasoning starts or stops.
		d.blockEnds = append(d.blockEnds, channelOpen, channelClose)
	}
	d.start = d.Syntax()
	return d
}

// The Gemma dialects.
var (
	// FunctionGemma is Google FunctionGemma: <start_function_call> blocks,
	// strings in <escape>…<escape>. It has no reasoning syntax.
	FunctionGemma = newDialect("functiongemma", fgOpen, fgClose, []string{fgEscape, gemma4Quote}, false)
	// Gemma4 is Google Gemma 4: <|tool_call> blocks, strings in
	// <|"|>…<|"|>, thinking in <|channel>thought\n…<channel|>.
	Gemma4 = newDialect("gemma4", gemma4Open, gemma4Close, []string{gemma4Quote, fgEscape}, true)
)

var (
	_ dialects.Dialect = (*Dialect)(nil)
	_ dialects.Marked  = (*Dialect)(nil)
)

// All returns every dialect of the package.
func All() []dialects.Dialect { return []dialects.Dialect{FunctionGemma, Gemma4} }

// Name is the dialect's catalogue name.
func (d *Dialect) Name() string { return d.name }

// Triggers are the literals every call and every marker the scanner
// reports starts with: Extract finds no call, no marker and no error in a
// text that holds none of them (dialects.Prefiltered).
func (d *Dialect) Triggers() []string {
	return []string{d.open, d.close, channelOpen, channelClose}
}

// Markers are the call tokens, then the string delimiter, then (Gemma 4)
// the reasoning channel tokens.
func (d *Dialect) Markers() []string {
	m := []string{d.open, d.close, d.delims[0]}
	if d.reasoning {
		m = append(m, channelOpen, channelClose)
	}
	return m
}

// Extract finds the call blocks, the reasoning channels and the content
// around them. A block holds one call, or several written one after the
// other; a block whose closing token is missing ends at the next block or
// at the end of the output. A closed <think> block is reasoning, call
// blocks inside it included, as in every dialect.
// A call shown in inline code or in a fence presented as an example is
// not read (dialects.ExtractShown).
func (d *Dialect) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	implicit := dialects.ImplicitReasoningIn(text, &d.start, opts)
	return dialects.ExtractShown(text, func(text string) *dialects.Extraction { return d.extract(text, opts, implicit) })
}

// extract is Extract on text whose shown parts are held out; implicit
// says whether a closing channel token with no opening one ends a
// reasoning block the template opened.
func (d *Dialect) extract(text string, opts *dialects.Options, implicit bool) *dialects.Extraction {
	if opts == nil {
		opts = &dialects.Options{}
	}
	s := &scanner{d: d, text: text, opts: opts, implicit: implicit, ext: &dialects.Extraction{}}
	if n := strings.Count(text, callPrefix); n > 0 {
		// Room for every call up front: many calls cost their own memory,
		// not a growing slice's copies.
		s.ext.Calls = make([]dialects.RawCall, 0, n)
	}
	s.run()
	s.ext.Content = s.content.String()
	s.ext.Reasoning = s.reasoning.String()
	return s.ext
}

// stateFn is one state of the scanner; it returns the next state, or nil
// at the end of the text.
type stateFn func(*scanner) stateFn

// scanner walks the output once, as state functions in the style of
// text/template's lexer: in content, in a reasoning channel, in a call.
type scanner struct {
	d         *Dialect
	text      string
	pos       int
	opts      *dialects.Options
	implicit  bool // a close before any open ends a block the template opened
	ext       *dialects.Extraction
	content   joiner
	reasoning joiner
	// resume is the state to return to after a call block: a call can
	// stand in content or inside reasoning.
	resume stateFn
	// labelled is set at the start of a channel block, where the channel
	// name ("thought\n") may stand.
	labelled bool
	// unclosed is set while reading a call block that the output ends
	// inside: no closing marker follows it.
	unclosed bool
	// inReasoning is set while reading a call block that stands inside
	// reasoning.
	inReasoning bool
	// nextClose is one past the offset of the next <channel|> found by
	// channelCloses; 0 before any search, -1 when there is none after.
	nextClose int
	// thinkClosed finds the </think> tags: the last search, where it
	// started and what it found (-1: none after).
	thinkClosed struct {
		from, at int
		valid    bool
	}
}

// hasWord reports whether s holds an ASCII letter or digit.
func hasWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			return true
		}
	}
	return false
}

func (s *scanner) run() {
	state := lexContent
	switch end := dialects.TemplateBlockEnd(s.text, []dialects.ReasoningTags{dialects.Think}, false, s.implicit); {
	case !s.d.reasoning && s.opts.ReasoningOpen:
		// The template opened a <think> block, FunctionGemma's only
		// reasoning wrapper: the output starts in it.
		state = s.think(0)
	case end > 0:
		// A </think> before any <think>: it ends a block the template
		// opened, and all before it is reasoning, call blocks included
		// (dialects.TemplateBlockEnd).
		s.addThought(s.text[:end-len(dialects.Think.Close)])
		s.pos = end
	}
	if s.d.reasoning {
		// A close before any open means the template opened the channel.
		rest := s.text[s.pos:]
		c := strings.Index(rest, channelClose)
		o := strings.Index(rest, channelOpen)
		if s.opts.ReasoningOpen || (s.implicit && c >= 0 && (o < 0 || c < o)) {
			state, s.labelled = lexReasoning, true
		}
	}
	for state != nil {
		state = state(s)
	}
}

// next finds the first of the markers at or after from; it returns
// len(text) and "" when none is there.
func (s *scanner) next(from int, markers []string) (int, string) {
	for from < len(s.text) {
		j := strings.IndexByte(s.text[from:], '<')
		if j < 0 {
			break
		}
		i := from + j
		for _, m := range markers {
			if strings.HasPrefix(s.text[i:], m) {
				// A <think> tag is every dialect's, no evidence of this one.
				s.ext.Marked = s.ext.Marked || m != dialects.Think.Open
				return i, m
			}
		}
		from = i + 1
	}
	return len(s.text), ""
}

// lexContent reads content up to the next call or reasoning block.
func lexContent(s *scanner) stateFn {
	i, m := s.next(s.pos, s.d.inContent)
	s.content.add(s.text[s.pos:i])
	switch m {
	case "":
		return nil
	case s.d.open:
		s.pos, s.resume, s.inReasoning = i, lexContent, false
		return lexCall
	case channelOpen:
		s.pos, s.labelled = i+len(m), true
		return lexReasoning
	case dialects.Think.Open:
		return s.think(i + len(m))
	}
	// A stray closing token closes nothing; the token is markup.
	s.pos = i + len(m)
	return lexContent
}

// think reads a <think> block whose text starts at from. A closed block is
// reasoning, whatever it holds: a call block inside it is the model
// thinking, not calling (the rule of every dialect; Gemma 4's own thought
// channel, a syntax of its own, is read as Ollama reads it). Its text is
// trimmed and joined to the reasoning before it as a split at <think>
// joins it (dialects.SplitReasoning); the content around the block is
// joined as around any markup (joiner). In a block that never closes, the rest of the output is
// reasoning, and a call block there still counts.
func (s *scanner) think(from int) stateFn {
	if !s.thinkClosed.valid || s.thinkClosed.from > from || s.thinkClosed.at >= 0 && s.thinkClosed.at < from {
		s.thinkClosed.from, s.thinkClosed.valid = from, true
		if s.thinkClosed.at = strings.Index(s.text[from:], dialects.Think.Close); s.thinkClosed.at >= 0 {
			s.thinkClosed.at += from
		}
	}
	c := s.thinkClosed.at
	if c < 0 {
		s.pos, s.labelled = from, false
		return lexOpenThink
	}
	s.addThought(s.text[from:c])
	s.pos = c + len(dialects.Think.Close)
	return lexContent
}

// addThought adds the text of a <think> block to the reasoning, trimmed
// and with nothing between it and the reasoning before it.
func (s *scanner) addThought(text string) {
	if t := strings.TrimSpace(text); t != "" {
		s.reasoning.gap = 0
		s.reasoning.add(t)
	}
}

// lexOpenThink reads a <think> block that never closes: reasoning, with
// the call blocks in it read as calls.
func lexOpenThink(s *scanner) stateFn {
	i, m := s.next(s.pos, s.d.inOpenThink)
	s.addThought(s.text[s.pos:i])
	if m == "" {
		return nil
	}
	s.pos, s.resume, s.inReasoning = i, lexOpenThink, true
	return lexCall
}

// lexReasoning reads a reasoning channel up to its close. In a channel
// that closes, a call block is the model thinking, not calling, as in a
// closed <think> block: its text stays in the reasoning. Only in a channel
// that never closes does a call block count (the model forgot to close it).
func lexReasoning(s *scanner) stateFn {
	markers := s.d.inReasoning
	if s.channelCloses(s.pos) {
		markers = channelTokens
	}
	i, m := s.next(s.pos, markers)
	piece := s.text[s.pos:i]
	if s.labelled {
		piece = stripLabel(piece)
	}
	s.reasoning.add(piece)
	s.labelled = false
	switch m {
	case "":
		return nil
	case channelClose:
		s.pos = i + len(m)
		return lexContent
	case channelOpen:
		s.pos, s.labelled = i+len(m), true
		return lexReasoning
	}
	s.pos, s.resume, s.inReasoning = i, lexReasoning, true
	return lexCall
}

// openString reports whether text[from:end] leaves a string open: it holds
// an odd number of one of the dialect's string delimiters.
func (s *scanner) openString(from, end int) bool {
	for _, q := range s.d.delims {
		if strings.Count(s.text[from:end], q)%2 == 1 {
			return true
		}
	}
	return false
}

// maxInnerCloses is how many close tokens inside a string of a block's
// arguments are read as text before the block is taken to end at the
// first: it keeps the scan linear.
const maxInnerCloses = 4

// channelTokens are the markers of a channel that closes.
var channelTokens = []string{channelClose, channelOpen}

// channelCloses reports whether a <channel|> stands at or after from. The
// last one found is kept, so that the search stays linear over the text.
func (s *scanner) channelCloses(from int) bool {
	if s.nextClose == 0 || s.nextClose > 0 && s.nextClose-1 < from {
		s.nextClose = -1
		if j := strings.Index(s.text[from:], channelClose); j >= 0 {
			s.nextClose = from + j + 1
		}
	}
	return s.nextClose > 0
}

// stripLabel removes the channel name Gemma 4 writes first: "thought\n".
func stripLabel(piece string) string {
	rest, ok := strings.CutPrefix(piece, thoughtLabel)
	if !ok {
		return piece
	}
	after := strings.TrimLeft(rest, " \t")
	if after == "" || after[0] == '\n' || after[0] == '\r' {
		return after
	}
	return piece
}

// lexCall reads one call block, which starts at s.pos.
func lexCall(s *scanner) stateFn {
	start := s.pos
	from := start + len(s.d.open)
	end, m := s.next(from, s.d.blockEnds)
	if m == s.d.close && s.openString(from, end) {
		// The close token stands inside a string of the arguments: when
		// a later close token ends the block with every string closed,
		// and no block or channel opens before it, the token is string
		// text ("end it with <tool_call|>"). A few close tokens are tried.
		at := end
		for range maxInnerCloses {
			e2, m2 := s.next(at+len(m), s.d.blockEnds)
			if m2 != s.d.close {
				break
			}
			if !s.openString(from, e2) {
				end = e2
				break
			}
			at = e2
		}
	}
	s.unclosed = m == ""
	blockEnd := end
	if k := strings.LastIndexByte(s.text[from:end], '<'); s.unclosed && k >= 0 && cutoff.Marker(s.text[from+k:end], s.d.close) {
		blockEnd = from + k // the output ends inside the close token
	}
	n := len(s.ext.Calls)
	s.block(start, from, blockEnd)
	if k := len(s.ext.Calls) - 1; m != "" && m != s.d.close && k >= n && s.ext.Calls[k].Err == nil && s.openString(from, end) {
		// The block lost its close where a string of its arguments is
		// still open: the model broke off mid-string, and what it meant
		// to write is lost. Cut off, never a call.
		last := &s.ext.Calls[k]
		e := cutoff.Error("inside a string of the " + s.d.name + " call's arguments, where " + m + " stands")
		e.Offset, e.Raw, e.Tool = last.Offset, s.text[start:end], last.Name
		*last = dialects.RawCall{Name: last.Name, Offset: last.Offset, Err: e}
	}
	s.unclosed = false
	s.pos = end
	if m == s.d.close {
		s.pos += len(m)
	}
	dialects.KeepText(s.ext.Calls[n:], s.text[start:s.pos])
	return s.resume
}

// block extracts the calls of one block: text[from:end], opened at start.
func (s *scanner) block(start, from, end int) {
	maxSize := s.opts.Lenient.MaxSize
	if maxSize <= 0 {
		maxSize = lenient.DefaultMaxSize
	}
	if end-from > maxSize {
		e := toolcall.NewError(toolcall.CodeTooLarge, s.d.name+" call block is larger than the size limit")
		e.Offset, e.Raw = start, s.text[start:end]
		s.ext.Calls = append(s.ext.Calls, dialects.RawCall{Offset: start, Err: e})
		return
	}
	p := from
	for n := 0; ; n++ {
		p = skipSpace(s.text, p, end)
		if p >= end {
			if n == 0 && s.unclosed {
				s.cut(start, end, "inside a "+s.d.name+" call block, before its call")
			} else if n == 0 {
				s.malformed(start, end, p, "call block is empty")
			}
			return
		}
		callAt := p
		if n == 0 {
			callAt = start
		}
		next, ok := s.call(callAt, p, end)
		if !ok {
			return
		}
		p = next
	}
}

// call reads "call:NAME{…}" at text[p:end] and returns where the next call
// may start. ok is false when the rest of the block was used up, by an
// error or by trailing text.
func (s *scanner) call(callAt, p, end int) (next int, ok bool) {
	prefixed := strings.HasPrefix(s.text[p:end], callPrefix)
	if prefixed {
		p += len(callPrefix)
	}
	brace := strings.IndexByte(s.text[p:end], '{')
	nameEnd := end
	if brace >= 0 {
		nameEnd = p + brace
	}
	name := strings.TrimSpace(s.text[p:nameEnd])
	if s.unclosed && brace < 0 && (name == "" || !prefixed && cutoff.Marker(s.text[p:end], callPrefix)) {
		s.cut(callAt, end, "inside a "+s.d.name+" call block, before its call")
		return end, false
	}
	if name == "" || strings.ContainsAny(name, " \t\r\n<>()[]") || (brace < 0 && !prefixed) {
		s.malformed(callAt, end, p, "call block does not start with call:NAME{")
		return end, false
	}
	name, repairs := resolveName(name, s.opts.Tools)
	rc := dialects.RawCall{Name: name, Offset: callAt, Repairs: repairs, AtEnd: s.unclosed}
	if brace < 0 {
		if s.unclosed {
			// The output ends after the name: the name may be cut, and
			// the arguments were never written.
			e := cutoff.Error("after the " + s.d.name + " call's name, before its arguments")
			e.Offset, e.Raw = callAt, s.text[callAt:end]
			rc.Err = e
		}
		s.ext.Calls = append(s.ext.Calls, rc) // call:NAME alone: no arguments
		return end, false
	}
	vp := newValueParser(s.text, nameEnd, end, s.d.name, s.d.delims, s.opts, lookupTool(s.opts.Tools, name))
	args, err := vp.arguments()
	if err != nil {
		if s.unclosed && skipSpace(s.text, vp.pos, end) >= end {
			err = cutoff.Convert(err) // the parser ran into the end of the output
		}
		err.Raw = s.text[callAt:end]
		rc.Err = err
		s.ext.Calls = append(s.ext.Calls, rc)
		return end, false
	}
	// The parser's buffer is the call's own and is never written again:
	// the arguments are a view of it, not a copy (one large argument
	// would otherwise be held twice).
	rc.Arguments = unsafe.String(unsafe.SliceData(args), len(args))
	rc.Repairs = append(rc.Repairs, vp.repairs...)
	next, more := s.afterCall(vp.pos, end, &rc)
	s.ext.Calls = append(s.ext.Calls, rc)
	return next, more
}

// afterCall looks at what follows a call's object inside its block:
// another call, separators, stray closing brackets or other text.
func (s *scanner) afterCall(p, end int, rc *dialects.RawCall) (int, bool) {
	for p < end {
		switch s.text[p] {
		case ' ', '\t', '\r', '\n', ',', ';':
			p++
			continue
		}
		break
	}
	if p >= end {
		return end, false
	}
	if strings.HasPrefix(s.text[p:end], callPrefix) {
		return p, true
	}
	rest := strings.TrimSpace(s.text[p:end])
	kind, detail := toolcall.RepairSurroundingText, "text after the argument object inside the call block dropped"
	switch {
	case strings.Trim(rest, "}]") == "":
		kind = toolcall.RepairExtraClosing
	case hasWord(rest):
		// Prose the model wrote after the call: nothing disappears, it
		// is kept where the block stands (content or reasoning).
		detail = "text after the argument object inside the call block kept as text"
		if s.inReasoning {
			s.reasoning.add(rest)
		} else {
			s.content.add(rest)
		}
	}
	rc.Repairs = append(rc.Repairs, toolcall.Repair{Kind: kind, Offset: p, CallIndex: -1, Detail: detail})
	return end, false
}

// cut records a call the output ends inside of (TLP-014).
func (s *scanner) cut(callAt, end int, where string) {
	e := cutoff.Error(where)
	e.Offset, e.Raw = callAt, s.text[callAt:end]
	s.ext.Calls = append(s.ext.Calls, dialects.RawCall{Offset: callAt, Err: e})
}

func (s *scanner) malformed(callAt, end, at int, msg string) {
	e := toolcall.NewError(toolcall.CodeMalformedCall, s.d.name+" "+msg)
	e.Offset, e.Raw = at, s.text[callAt:end]
	s.ext.Calls = append(s.ext.Calls, dialects.RawCall{Offset: callAt, Err: e})
}

// resolveName maps a name to a declared tool when it is not one but
// exactly one of its ':'-separated parts is: Gemma 4 sometimes writes
// "tool:execute_terminal" or "google:tool:shell:index:0". The mapping is
// recorded; without a unique match the name is left for the name check.
func resolveName(name string, tools *schema.Set) (string, []toolcall.Repair) {
	if tools == nil || tools.Len() == 0 || !strings.Contains(name, ":") {
		return name, nil
	}
	if _, ok := tools.Lookup(name); ok {
		return name, nil
	}
	if _, ok := tools.LookupFold(name); ok {
		return name, nil
	}
	found := ""
	for part := range strings.SplitSeq(name, ":") {
		if _, ok := tools.Lookup(part); !ok || part == found {
			continue
		}
		if found != "" {
			return name, nil
		}
		found = part
	}
	if found == "" {
		return name, nil
	}
	return found, []toolcall.Repair{{Kind: toolcall.RepairNameNormalized, Offset: -1, CallIndex: -1,
		Detail: "namespaced name reduced to the declared tool it contains"}}
}

// lookupTool finds the declared tool a call names, as the name check will.
func lookupTool(tools *schema.Set, name string) *schema.Tool {
	if tools == nil {
		return nil
	}
	if t, ok := tools.Lookup(name); ok {
		return t
	}
	if alt, ok := tools.LookupFold(name); ok {
		t, _ := tools.Lookup(alt)
		return t
	}
	return nil
}

func skipSpace(s string, p, end int) int {
	for p < end {
		switch s[p] {
		case ' ', '\t', '\r', '\n':
			p++
			continue
		}
		break
	}
	return p
}

// joiner concatenates the pieces of text left between removed markup. Each
// piece loses the whitespace that touched the markup; two kept pieces are
// joined by a newline if that whitespace held one, by a space if it held
// other whitespace, and by nothing when the markup touched both.
type joiner struct {
	b   strings.Builder
	gap int // the whitespace since the last kept piece: 0 none, 1 blank, 2 newline
}

func (j *joiner) add(piece string) {
	core := strings.TrimSpace(piece)
	if core == "" {
		j.gap = max(j.gap, gapKind(piece))
		return
	}
	lead := len(piece) - len(strings.TrimLeftFunc(piece, unicode.IsSpace))
	if j.b.Len() > 0 {
		switch max(j.gap, gapKind(piece[:lead])) {
		case 1:
			j.b.WriteByte(' ')
		case 2:
			j.b.WriteByte('\n')
		}
	}
	j.b.WriteString(core)
	j.gap = gapKind(piece[lead+len(core):])
}

func (j *joiner) String() string { return j.b.String() }

func gapKind(ws string) int {
	switch {
	case ws == "":
		return 0
	case strings.ContainsAny(ws, "\r\n"):
		return 2
	}
	return 1
}
