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

	// The markers the Reader looks for in each of its modes, set once by
	// newDialect.
	inContent   []string
	inReasoning []string
	// inThink is what a <think> block is read for besides its closing
	// tag, which the Reader finds as strictjson.IndexTag does.
	inThink []string
	// inTemplate is inReasoning with the <think> tags, for the channel
	// the template opened while they may end a block it opened too.
	inTemplate []string
	// inBlock and inThinkBlock are what a call block's end is looked for
	// among: the string delimiters, then the tokens that end a block
	// (blockEnds), and inside a <think> block its closing tag.
	inBlock      []string
	inThinkBlock []string
	blockEnds    []string
	// start is the syntax an output's reasoning start is read from
	// (dialects.ImplicitReasoning).
	start dialects.Syntax
}

func newDialect(name, open, close string, delims []string, reasoning bool) *Dialect {
	d := &Dialect{name: name, open: open, close: close, delims: delims, reasoning: reasoning}
	// A <think> block is reasoning, as in every dialect (dialects.Think).
	d.inContent = []string{open, close, dialects.Think.Open}
	d.inReasoning = []string{channelClose, open, channelOpen}
	d.inThink = []string{open}
	d.inTemplate = append(append([]string{}, d.inReasoning...), dialects.Think.Open, dialects.Think.Close)
	d.blockEnds = []string{close, open}
	if reasoning {
		d.inContent = append(d.inContent, channelOpen, channelClose)
		// A block that lost its close ends where reasoning starts or stops.
		d.blockEnds = append(d.blockEnds, channelOpen, channelClose)
	}
	d.inBlock = append(append([]string{}, delims...), d.blockEnds...)
	d.inThinkBlock = append(append([]string{}, d.inBlock...), dialects.Think.Close)
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
	_ dialects.Dialect     = (*Dialect)(nil)
	_ dialects.Marked      = (*Dialect)(nil)
	_ dialects.Incremental = (*Dialect)(nil)
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
// around them: it is the Reader fed the whole output (dialects.Read). A
// block holds one call, or several written one after the other; a block
// whose closing token is missing ends at the next block or at the end of
// the output. A closed <think> block is reasoning, call blocks inside it
// included, as in every dialect. A call shown in inline code, in a
// quotation or in a fence presented as an example is not read
// (shown.ShownScan).
func (d *Dialect) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.Read(d.NewReader(opts), text)
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

// maxInnerCloses is how many close tokens inside a string of a block's
// arguments are read as text before the block is taken to end at the
// first: it bounds how far a block's end looks ahead.
const maxInnerCloses = 4

// blockParser reads the calls of one call block, whose end is decided.
type blockParser struct {
	d    *Dialect
	text string // the output so far; offsets are into it
	opts *dialects.Options
	// unclosed says the output ends inside the block: no closing marker
	// follows it.
	unclosed bool
	// taken says the block's first calls were read before (the Reader's
	// take): the text read starts at the first call not read.
	taken bool
	calls []dialects.RawCall
	// prose takes the words the model wrote after a call's object inside
	// the block: they are kept where the block stands.
	prose func(string)
}

// block extracts the calls of one block: text[from:end], opened at start.
func (s *blockParser) block(start, from, end int) {
	maxSize := s.opts.Lenient.MaxSize
	if maxSize <= 0 {
		maxSize = lenient.DefaultMaxSize
	}
	if end-from > maxSize {
		e := toolcall.NewError(toolcall.CodeTooLarge, s.d.name+" call block is larger than the size limit")
		e.Offset, e.Raw = start, s.text[start:end]
		s.calls = append(s.calls, dialects.RawCall{Offset: start, Err: e})
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
		if n == 0 && !s.taken {
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
func (s *blockParser) call(callAt, p, end int) (next int, ok bool) {
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
	if !validName(name) || (brace < 0 && !prefixed) {
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
		s.calls = append(s.calls, rc) // call:NAME alone: no arguments
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
		s.calls = append(s.calls, rc)
		return end, false
	}
	// The parser's buffer is the call's own and is never written again:
	// the arguments are a view of it, not a copy (one large argument
	// would otherwise be held twice).
	rc.Arguments = unsafe.String(unsafe.SliceData(args), len(args))
	rc.Repairs = append(rc.Repairs, vp.repairs...)
	next, more := s.afterCall(vp.pos, end, &rc)
	s.calls = append(s.calls, rc)
	return next, more
}

// afterCall looks at what follows a call's object inside its block:
// another call, separators, stray closing brackets or other text.
func (s *blockParser) afterCall(p, end int, rc *dialects.RawCall) (int, bool) {
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
		s.prose(rest)
	}
	rc.Repairs = append(rc.Repairs, toolcall.Repair{Kind: kind, Offset: p, CallIndex: -1, Detail: detail})
	return end, false
}

// cut records a call the output ends inside of (TLP-014).
func (s *blockParser) cut(callAt, end int, where string) {
	e := cutoff.Error(where)
	e.Offset, e.Raw = callAt, s.text[callAt:end]
	s.calls = append(s.calls, dialects.RawCall{Offset: callAt, Err: e})
}

func (s *blockParser) malformed(callAt, end, at int, msg string) {
	e := toolcall.NewError(toolcall.CodeMalformedCall, s.d.name+" "+msg)
	e.Offset, e.Raw = at, s.text[callAt:end]
	s.calls = append(s.calls, dialects.RawCall{Offset: callAt, Err: e})
}

// validName reports whether name, read between call: and '{', can name a
// tool: it is not empty and holds no blank, angle bracket, parenthesis or
// square bracket.
func validName(name string) bool {
	return name != "" && !strings.ContainsAny(name, " \t\r\n<>()[]")
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
