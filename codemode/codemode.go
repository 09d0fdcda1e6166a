// Package codemode finds the Python programs in a model's answer, for agents
// that let a model answer with code to be run instead of tool calls ("Code
// Mode").
//
// [DetectCode] reports each block of Python in a text: fenced ```python and
// ```py blocks, unlabelled fences whose body is Python, and runs of bare
// lines that are Python statements, each with its byte offsets and a
// confidence. Whether text is Python is decided by a recogniser of Python's
// statement grammar working on Python's own tokens (indentation, logical
// lines, strings, brackets), not by looking for keywords, so that prose that
// mentions code is not taken for code.
//
// A block that is nothing but calls of declared tools, such as
// [get_weather(city="Paris")], is a pythonic tool call and not code: the
// pythonic dialect reads it, and DetectCode leaves it out.
//
// Nothing is ever executed: the package reads text and nothing else.
// docs/codemode.md describes the rules and their limits.
package codemode

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/textlayer"
)

// Block is one block of Python code found in a text.
type Block struct {
	// Start and End are the byte offsets of the code in the text: the
	// fence's body for a fenced block (without the fence lines), the
	// statements themselves for bare code.
	Start int `json:"start"`
	End   int `json:"end"`
	// Code is text[Start:End].
	Code string `json:"code"`
	// Fenced reports a block inside a Markdown code fence, and Language
	// the fence's language tag as written ("python", "py", or "" for an
	// unlabelled fence and for bare code).
	Fenced   bool   `json:"fenced"`
	Language string `json:"language,omitempty"`
	// Confidence, from 0 to 1, is how sure the detector is that the block
	// is a Python program: a labelled fence that parses is near 1, bare
	// text that parses but holds little beyond expressions is lower.
	Confidence float64 `json:"confidence"`
	// Statements is the number of statements recognised (nested ones
	// included).
	Statements int `json:"statements"`
	// SyntaxError is the byte offset, in the text, of the first token
	// the grammar refused, for a labelled block that is not valid Python
	// (a truncated program, Python 2); -1 when the block parsed.
	SyntaxError int `json:"syntax_error"`
}

// Options configure detection.
type Options struct {
	// Tools are the names of the declared tools. A block whose statements
	// are all calls of these tools, or a list of such calls, is a pythonic
	// tool call and is not reported. Without declared tools, a block that
	// is a single list of calls ([f(a=1), g()]) is taken for a call.
	Tools []string
	// MinConfidence drops blocks below it. Zero keeps every block the
	// detector reports.
	MinConfidence float64
	// MaxWork bounds the bytes the tokenizer examines, in multiples of
	// the text's length (default 8). Bare-text detection stops when it is
	// spent; fenced blocks are always read.
	MaxWork int
}

// DetectCode returns the Python code blocks in text, in order, with the
// default options (no declared tools).
func DetectCode(text string) []Block { return Detect(text, nil) }

// Detect returns the Python code blocks in text, in order.
func Detect(text string, opts *Options) []Block {
	if opts == nil {
		opts = &Options{}
	}
	d := &detector{text: text, opts: opts, tools: map[string]bool{}}
	for _, t := range opts.Tools {
		d.tools[t] = true
	}
	work := opts.MaxWork
	if work <= 0 {
		work = 8
	}
	d.budget = work*len(text) + 4096
	return d.run()
}

type detector struct {
	text   string
	opts   *Options
	tools  map[string]bool
	budget int
	out    []Block
}

// region is a span of text with its kind.
type region struct {
	start, end int // the body
	fenced     bool
	lang       string
	skip       bool // a fence of another language, or reasoning
	// indent is the fence's indentation, which its body lines share
	// (a fence inside a list item) and which is not Python's.
	indent int
}

// maxFenceIndent is the deepest indentation a fence is recognised at.
const maxFenceIndent = 8

func (d *detector) run() []Block {
	prev := 0
	for _, r := range d.regions() {
		if r.start > prev {
			d.bare(prev, r.start)
		}
		if r.fenced && !r.skip {
			d.fence(r)
		}
		prev = r.end
		if r.fenced {
			// Past the closing fence line.
			prev = lineEnd(d.text, r.end)
		}
	}
	if prev < len(d.text) {
		d.bare(prev, len(d.text))
	}
	return d.out
}

// regions finds the code fences and reasoning blocks of the text, in order.
func (d *detector) regions() []region {
	var out []region
	text := d.text
	for i := 0; i < len(text); {
		j := lineEnd(text, i)
		line := text[i:j]
		// A fence may be indented: by up to 3 spaces at the top level,
		// more inside a list item.
		if at, ch, n, lang, ok := textlayer.OpenLine(text, i, j, maxFenceIndent); ok {
			indent := at - i
			body := j
			end, next := len(text), len(text)
			for k := body; k < len(text); {
				e := lineEnd(text, k)
				l := text[k:e]
				if textlayer.ClosesFence(l, ch, n) && len(l)-len(strings.TrimLeft(l, " ")) <= indent+3 {
					end, next = k, e
					break
				}
				k = e
			}
			r := region{start: body, end: end, fenced: true, lang: lang, indent: indent}
			r.skip = lang != "" && !pythonTag(lang)
			out = append(out, r)
			i = next
			continue
		}
		if k := strings.Index(line, "<think>"); k >= 0 {
			start := i + k
			end := strings.Index(text[start:], "</think>")
			if end < 0 {
				end = len(text)
			} else {
				end = start + end + len("</think>")
			}
			out = append(out, region{start: start, end: end, skip: true})
			i = lineEnd(text, end)
			if end == len(text) || i < end {
				i = end
			}
			continue
		}
		i = j
	}
	return out
}

// pythonTag reports whether a fence's language tag names Python.
func pythonTag(lang string) bool {
	switch strings.ToLower(lang) {
	case "python", "py", "python3", "py3", "ipython", "python-repl-free", "sage":
		return true
	}
	return false
}

// lineEnd returns the offset just past the line break of the line at i, or
// the text's end.
func lineEnd(text string, i int) int {
	if i >= len(text) {
		return len(text)
	}
	k := strings.IndexByte(text[i:], '\n')
	if k < 0 {
		return len(text)
	}
	return i + k + 1
}

// fence reads one fenced block.
func (d *detector) fence(r region) {
	body := d.text[r.start:r.end]
	if strings.TrimSpace(body) == "" {
		return
	}
	budget := 16*len(body) + 4096
	p := newParser(body, &budget)
	p.lx.base = r.indent
	errAt := p.file()
	st := p.st
	b := Block{Start: r.start, End: r.end, Code: body, Fenced: true, Language: r.lang, Statements: st.statements, SyntaxError: -1}
	labelled := r.lang != ""
	switch {
	case errAt >= 0 && !labelled:
		return // an unlabelled fence that is not Python is another language
	case errAt >= 0:
		b.SyntaxError = r.start + errAt
		b.Confidence = 0.6
	case d.isCall(st):
		return
	case labelled:
		b.Confidence = 0.99
	default:
		s := score(st)
		if s < 1 {
			return // literals or names alone: data, not a program
		}
		b.Confidence = tenths(5 + min(s, 4))
	}
	d.emit(b)
}

// bare looks for Python statements in unfenced text between start and end.
// A block starts at the beginning of a line with no indentation and runs as
// long as statements parse.
func (d *detector) bare(start, end int) {
	for i := start; i < end; {
		if d.budget <= 0 {
			return
		}
		c := d.text[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '#' {
			i = min(lineEnd(d.text, i), end)
			continue
		}
		src := d.text[i:end]
		p := newParser(src, &d.budget)
		n := p.greedy()
		if n == 0 {
			i = min(lineEnd(d.text, i), end)
			continue
		}
		stop := i + p.lastEnd
		st := p.st
		b := Block{Start: i, End: stop, Code: d.text[i:stop], Statements: st.statements, SyntaxError: -1}
		if s := score(st); s >= 2 && !d.isCall(st) {
			b.Confidence = tenths(3 + min(s, 6))
			d.emit(b)
		}
		i = max(lineEnd(d.text, stop-1), i+1)
		if i > end {
			i = end
		}
	}
}

func (d *detector) emit(b Block) {
	if b.Confidence < d.opts.MinConfidence {
		return
	}
	d.out = append(d.out, b)
}

// isCall reports whether statements are a pythonic tool call rather than
// code: every top-level statement a call or a list of calls, all of
// declared tools; or, with no tools declared, one list of calls.
func (d *detector) isCall(st stats) bool {
	if !st.callShaped || len(st.callees) == 0 || st.statements != st.calls {
		return false
	}
	if len(d.tools) == 0 {
		return st.lists == 1 && st.calls == 1
	}
	for _, c := range st.callees {
		if !d.tools[c] {
			return false
		}
	}
	return true
}

// score weighs what a run of statements held: what only programs have
// (definitions, control flow, imports, assignments) weighs more than calls,
// and expressions that prose can also be read as weigh nothing.
func score(st stats) int {
	return 3*st.compound + 3*st.imports + 2*st.assigns + 2*st.control + st.calls + st.annotated
}

// tenths returns n/10 as the float nearest to it.
func tenths(n int) float64 { return float64(n) / 10 }

// IsPython reports whether code, as a whole, is a Python program by the
// statement grammar: every logical line is a statement that parses. Text
// that is not (a sentence, a call followed by prose, a program with a
// syntax error) is not code to hand to an interpreter.
func IsPython(code string) bool {
	if strings.TrimSpace(code) == "" {
		return false
	}
	budget := 16*len(code) + 4096
	return newParser(code, &budget).file() < 0
}
