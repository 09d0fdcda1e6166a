package registry_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/stream"
)

// edgeTexts put the content's edges to the test: the one space set
// (textlayer.IsSpace) around characters other sets call spaces (U+00A0,
// '\f', '\v', U+3000), which are text.
var edgeTexts = []string{
	" \n\t hello world \r\n ",
	"\u00a0hello\u00a0",
	"\fhello\v",
	" \u00a0 hello \u3000 ",
	"\n\v\nhello\n\f\n",
}

// TestContentEdgesAcrossFamilies holds every dialect, named and detected,
// one-shot and streamed, to the one rule of the content's edges
// (textlayer.Edges): the spaces that begin and end the content are not
// content, and every other character is, whatever the family.
func TestContentEdgesAcrossFamilies(t *testing.T) {
	for _, name := range append(registry.Names(), "") {
		if d, ok := registry.Lookup(name); ok && dialects.SyntaxOf(d).Body {
			continue // a response body, not a model's text
		}
		for _, text := range edgeTexts {
			o := &registry.Options{Dialect: name}
			res := registry.Parse(text, o)
			if want := textlayer.TrimSpace(text); res.Content != want {
				t.Errorf("%q %q: content %q, want %q", name, text, res.Content, want)
			}
			if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(o) }, text, nil, false); err != nil {
				t.Errorf("%q %q streamed: %v", name, text, err)
			}
		}
	}
}

// TestContentEdgesAroundCalls: with a call in each family's own syntax
// after it, answer text keeps its characters that are not in the space
// set, at its edges too.
func TestContentEdgesAroundCalls(t *testing.T) {
	for _, w := range tableWriters {
		for _, name := range []string{w.dialect, ""} {
			text := "\n\u00a0Sure.\u00a0\n\n" + w.write() + "\n"
			o := &registry.Options{Dialect: name}
			res := registry.Parse(text, o)
			if len(res.Calls) != 1 || res.Content != "\u00a0Sure.\u00a0" {
				t.Errorf("%q as %q: %d calls, content %q", w.dialect, name, len(res.Calls), res.Content)
			}
			if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(o) }, text, nil, true); err != nil {
				t.Errorf("%q as %q streamed: %v", w.dialect, name, err)
			}
		}
	}
}

// TestLeadingBlanksAcrossFamilies: blanks before a call that opens the
// output, and before answer text that precedes a call, are not content, in
// every dialect (the Hermes and Qwen3-Coder engines kept them, the
// markers, pythonic and JSON engines dropped them), named and detected,
// one-shot and streamed.
func TestLeadingBlanksAcrossFamilies(t *testing.T) {
	call := toolcall.Call{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok || name == "ollama" {
			continue // ollama reads a server's response body
		}
		made := r.Calls([]toolcall.Call{call})
		for _, tc := range []struct{ text, content string }{
			{" \n\t " + made, ""},
			{"\n \n" + made + "\n \t", ""},
			{" \n Sure.\n" + made, "Sure."},
		} {
			if name == "xlam" && tc.content != "" {
				continue // xLAM reads no unframed value after prose without tools
			}
			for _, dialect := range []string{name, ""} {
				o := &registry.Options{Dialect: dialect}
				res := registry.Parse(tc.text, o)
				if len(res.Calls) != 1 || len(res.Errors) > 0 || res.Content != tc.content {
					t.Errorf("%s as %q: calls %v, errors %v, content %q; want one call and content %q\ntext: %q", name, dialect, res.Calls, res.Errors, res.Content, tc.content, tc.text)
					continue
				}
				if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(o) }, tc.text, nil, true); err != nil {
					t.Errorf("%s as %q streamed: %v", name, dialect, err)
				}
			}
		}
	}
}
