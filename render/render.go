// Package render writes a conversation in the syntax of any registered
// dialect: the tool definitions of the system prompt, tool calls exactly as
// a model of that dialect writes them, and tool results as the family's
// chat template carries them back.
//
// It is the inverse of the dialects: for every dialect the registry knows,
// what Calls writes, the dialect's own parser reads back to the same names
// and arguments (the package tests check it for every dialect, with nested
// values, unicode, quotes, newlines and the dialect's own markers inside
// strings). Where a dialect's syntax cannot carry a value — a raw-text
// parameter that contains the tag that ends it — docs/render.md says so.
//
// Uses: the reflection retry loop shows a correct example call in the
// model's own dialect (retry.FormatCall delegates here), and dialect-probe
// presents tools in each candidate dialect when native tools are off, to
// measure which one a model follows.
//
// Argument values are data: they are written faithfully and escaped by the
// rules of each syntax. In JSON and Python strings, a character that would
// start a marker of the dialect (or of any registered dialect, so that
// detection is not misled) is written as an escape sequence; nothing else
// changes.
package render

import (
	"sort"
	"sync"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
)

// Native is the name of the native form: a plain JSON object
// {"name": …, "arguments": {…}} per call, as servers return tool_calls.
const Native = "native"

// Renderer writes one dialect's syntax. Implementations are safe for
// concurrent use.
type Renderer interface {
	// Dialect is the dialect's catalogue name.
	Dialect() string
	// Tools writes system-prompt text that presents the tools and tells the
	// model, in the dialect's own conventions (modelled on the family's
	// real chat template), how to call them, with one example call. It
	// returns "" when there are no tools.
	Tools(tools []toolcall.Tool) string
	// Calls writes calls exactly as a model of this dialect writes them:
	// all calls of one turn, with the dialect's section and separator
	// conventions. It returns "" for no calls.
	Calls(calls []toolcall.Call) string
	// Result writes the result of one call as the conversation carries it
	// back: for text-only chats, the text of a user or tool turn in the
	// dialect's convention (<tool_response>…</tool_response> for hermes).
	Result(call toolcall.Call, content string) string
}

// For returns the renderer of a dialect: any name registry.Names returns,
// and Native. Dialects with several syntaxes are written in their modern
// form (Mistral's v11 [TOOL_CALLS]NAME[ARGS]{…}); ForOutput picks the form a
// model actually used.
func For(dialect string) (Renderer, bool) {
	r, ok := catalogue().renderers[dialect]
	if !ok {
		return nil, false
	}
	return r, true
}

// ForOutput is For for the variant of the dialect that output was written
// in: given a model's own text, Mistral's JSON-array form, Granite 3.1's
// literal <tool_call> or GigaChat 3.1's message framing is kept rather than
// the modern form. Without a recognisable variant it is For.
func ForOutput(dialect, output string) (Renderer, bool) {
	c := catalogue()
	for _, v := range c.variants[dialect] {
		if v.matches(output) {
			return v.renderer, true
		}
	}
	return For(dialect)
}

// Names lists the dialects with a renderer, sorted.
func Names() []string {
	c := catalogue()
	names := make([]string, 0, len(c.renderers))
	for n := range c.renderers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// renderers is the immutable table of every renderer, built once.
type renderers struct {
	renderers map[string]*renderer
	variants  map[string][]variant
}

// variant is another form of a dialect, chosen when a model's output shows
// it.
type variant struct {
	matches  func(output string) bool
	renderer *renderer
}

var catalogue = sync.OnceValue(build)

// build makes every renderer. The guard of each one holds its own literals
// and the markers of every registered dialect, so a string value never
// carries text a parser or a detector would mistake for syntax.
func build() *renderers {
	shared := sharedMarkers()
	c := &renderers{renderers: map[string]*renderer{}, variants: map[string][]variant{}}
	for _, s := range specs() {
		c.renderers[s.name] = s.compile(shared)
	}
	for _, v := range variantSpecs() {
		c.variants[v.spec.name] = append(c.variants[v.spec.name], variant{matches: v.matches, renderer: v.spec.compile(shared)})
	}
	return c
}

// sharedMarkers are the markers of every dialect of the default registry.
// A marker that is a quoted JSON key ("tool_calls", "message") is escaped
// only where its quotes are part of the string's text; a key or string
// that equals the bare word still spells the marker, which docs/render.md
// lists.
func sharedMarkers() []string {
	var out []string
	reg := registry.Default()
	for _, name := range reg.Names() {
		d, _ := reg.Lookup(name)
		if m, ok := d.(dialects.Marked); ok {
			out = append(out, m.Markers()...)
		}
	}
	return out
}

// renderer is a compiled spec: it implements Renderer.
type renderer struct {
	name   string
	calls  callsFunc
	prompt *prompt
	result resultFunc
	guard  *guard
	// raw are the literals a raw-text value must not contain (tagged and
	// Gemma dialects), for the syntaxes that cannot escape them.
	raw *guard
	// quote is the quote of Python strings (0 for the default ').
	quote byte
}

// callsFunc writes every call of a turn.
type callsFunc func(w *writer, calls []toolcall.Call)

// resultFunc writes the result of one call.
type resultFunc func(w *writer, call toolcall.Call, content string)

func (r *renderer) Dialect() string { return r.name }

func (r *renderer) Calls(calls []toolcall.Call) string {
	if len(calls) == 0 {
		return ""
	}
	w := r.writer()
	size := 0
	for _, c := range calls {
		size += 2*len(c.Arguments) + len(c.Name) + 64
	}
	w.Grow(size)
	r.calls(w, calls)
	return w.String()
}

func (r *renderer) Result(call toolcall.Call, content string) string {
	w := r.writer()
	r.result(w, call, content)
	return w.String()
}

func (r *renderer) Tools(tools []toolcall.Tool) string {
	if len(tools) == 0 {
		return ""
	}
	w := r.writer()
	r.prompt.write(w, r, tools)
	return w.String()
}

func (r *renderer) writer() *writer {
	return &writer{guard: r.guard, raw: r.raw, quote: r.quote}
}
