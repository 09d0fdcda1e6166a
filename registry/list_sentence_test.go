package registry_test

import (
	"testing"

	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestPythonicListInAside: a call list written inside a sentence (in an
// aside, a quotation, or followed by the rest of the sentence after
// punctuation) or in a cell of a markdown table is shown, not made: named in each dialect that reads
// marker-less lists and detected, in one piece and streamed, the text
// stays content, whole, with no call and no error. The same list on its
// own line stays a call.
func TestPythonicListInAside(t *testing.T) {
	for _, tc := range []struct {
		text string
		call bool
	}{
		{`I would run it (see [get_weather(city="Paris")]) later.`, false},
		{`I checked it (see [get_weather(city="Paris")]).`, false},
		{`You can call [get_weather(city="Paris")], then read the result.`, false},
		{`I will call [get_weather(city="Paris")]. Then I will answer.`, false},
		{`He typed “[get_weather(city="Paris")]”.`, false},
		{"| Tool | Example |\n|---|---|\n| weather | [get_weather(city=\"Paris\")] |", false},
		{"I would run it:\n[get_weather(city=\"Paris\")]\nthen answer.", true},
		{`Let me check: [get_weather(city="Paris")]`, true},
	} {
		for _, dialect := range []string{"pythonic", "llama4_pythonic", ""} {
			res := registry.Parse(tc.text, &registry.Options{Dialect: dialect})
			if got := len(res.Calls) > 0; got != tc.call {
				t.Errorf("%q (dialect %q): call %v, want %v (content %q)", tc.text, dialect, got, tc.call, res.Content)
			}
			if !tc.call && (res.Content != tc.text || len(res.Errors) > 0) {
				t.Errorf("%q (dialect %q): content %q, errors %v; want the text whole, no error", tc.text, dialect, res.Content, res.Errors)
			}
			opts := registry.Options{Dialect: dialect}
			if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(&opts) }, tc.text, nil, true); err != nil {
				t.Errorf("%q (dialect %q): %v", tc.text, dialect, err)
			}
		}
	}
}
