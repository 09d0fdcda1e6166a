package registry_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestJSONValueInSentence: a bare JSON call object or list written inside
// a sentence (the sentence runs up to it and goes on after it to its end,
// or holds it in an aside or a quotation) is shown, not made: named in each
// dialect that reads bare JSON without a marker and detected, in one piece
// and streamed at every cut, the text stays content, whole, with no call
// and no error. The same value alone on its line, opening the output,
// after a colon, ending its sentence, or in a run of calls stays a call.
func TestJSONValueInSentence(t *testing.T) {
	const call = `{"name": "get_weather", "arguments": {"city": "Paris"}}`
	for _, tc := range []struct {
		text string
		call bool
	}{
		{`You can call ` + call + ` to see the weather.`, false},
		{`I would run it (see ` + call + `) later.`, false},
		{`I checked it (see ` + call + `).`, false},
		{`You can call [` + call + `] to see the weather.`, false},
		{`You can call ` + call + `, then read the result.`, false},
		{`He typed “` + call + `” into the box.`, false},
		{`He typed "` + call + `" into the box.`, false},
		{"Note:\nI would run it (see " + call + ") later.\nDone.", false},
		{"I would run it:\n" + call + "\nthen answer.", true},
		{`Let me check: ` + call, true},
		{`Sure: ` + call + ` coming up.`, true},
		{`I will check the weather ` + call + `.`, false},
		{`I will check the weather ` + call, true},
		{call + ` is on its way.`, true},
		{`Here are the results: ` + call + `; ` + call + ` Would you like more?`, true},
	} {
		dialects := []string{"json", "hermes", "llama3_json", "generic_json", "xlam", ""}
		if tc.call {
			// The markers engine reads a value after prose only where a
			// sentence ended: the rows that stay calls are the json and
			// hermes readings'.
			dialects = []string{"json", "hermes", ""}
		}
		for _, dialect := range dialects {
			res := registry.Parse(tc.text, &registry.Options{Dialect: dialect})
			if got := len(res.Calls) > 0; got != tc.call || tc.call && len(res.Calls) != strings.Count(tc.text, `"name"`) {
				t.Errorf("%q (dialect %q): call %v, want %v (content %q)", tc.text, dialect, got, tc.call, res.Content)
			}
			if !tc.call && (res.Content != tc.text || len(res.Errors) > 0) {
				t.Errorf("%q (dialect %q): content %q, errors %v; want the text whole, no error", tc.text, dialect, res.Content, res.Errors)
			}
			opts := registry.Options{Dialect: dialect}
			if err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(&opts) }, tc.text, nil, false); err != nil {
				t.Errorf("%q (dialect %q): %v", tc.text, dialect, err)
			}
		}
	}
}
