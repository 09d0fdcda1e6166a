package stream_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestReadIsWriteAndClose: Read gives the result the same Parser gives
// written the output and closed, however the output was cut, for a
// dialect named, a fallback chain and a detecting stream (which is how a
// one-shot parse under detection reads its output); Read after Writes
// reads the rest of the output.
func TestReadIsWriteAndClose(t *testing.T) {
	outputs := []string{
		"",
		"Just an answer, no call.",
		"Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
		"<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>\n<tool_call>\n{\"name\": \"b\", \"arguments\": {\"x\": 1}}\n</tool_call> done",
		"<think>maybe <tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call></think>\n<tool_call>\n{\"name\": \"b\", \"arguments\": {}}\n</tool_call>",
		"<tool_call>\n{\"name\": \"broken\", \"arguments\": {\"x\": </tool_call>",
		`[TOOL_CALLS]get_weather[ARGS]{"city": "Rome"}`,
		`[get_weather(city='Paris', days=3)]`,
		"Here it is: {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}",
	}
	opts := dialects.Options{ReasoningClosed: true}
	parsers := []struct {
		name string
		new  func() *stream.Parser
	}{
		{"named", func() *stream.Parser { return stream.NewParser(hermes.Dialect, &stream.Options{Parse: opts}) }},
		{"fallback", func() *stream.Parser {
			mistral, _ := registry.Lookup("mistral")
			return stream.NewParser(hermes.Dialect, &stream.Options{Parse: opts, Fallback: []dialects.Dialect{mistral}})
		}},
		{"detecting", func() *stream.Parser { return registry.Stream(&registry.Options{ReasoningClosed: true}) }},
	}
	for _, pp := range parsers {
		for _, text := range outputs {
			want := streamtest.Feed(pp.new(), []string{text})
			wantRes := want[len(want)-1].Result
			for _, cut := range []int{0, len(text) / 3, len(text)} {
				p := pp.new()
				p.Write(text[:cut])
				got := p.Read(text[cut:])
				if err := streamtest.SameResult(wantRes, got); err != nil {
					t.Errorf("%s, %q read after %d bytes written: %v", pp.name, text, cut, err)
				}
				if got != p.Result() {
					t.Errorf("%s, %q: Read returned another result than Result", pp.name, text)
				}
				if p.Text() != text {
					t.Errorf("%s, %q read after %d bytes written: Text() = %q", pp.name, text, cut, p.Text())
				}
				if evs := p.Close(); evs != nil {
					t.Errorf("%s, %q: Close after Read returned %d events", pp.name, text, len(evs))
				}
			}
		}
	}
}

// TestTextIsTheOutputSoFar: Text is the output written so far after every
// Write, before and after the dialect is decided, and after Close.
func TestTextIsTheOutputSoFar(t *testing.T) {
	texts := []string{
		"Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call> and more text after it",
		`[TOOL_CALLS]get_weather[ARGS]{"city": "Rome"} then text`,
		"Just an answer, no call, written in many deltas.",
	}
	for _, text := range texts {
		for _, n := range []int{1, 7, 16} {
			p := registry.Stream(&registry.Options{ReasoningClosed: true})
			at := 0
			for _, c := range split(text, n) {
				p.Write(c)
				at += len(c)
				if p.Text() != text[:at] {
					t.Fatalf("%q in %d-byte deltas: Text() after %d bytes = %q", text, n, at, p.Text())
				}
			}
			p.Close()
			if p.Text() != text {
				t.Fatalf("%q in %d-byte deltas: Text() after Close = %q", text, n, p.Text())
			}
		}
	}
}
