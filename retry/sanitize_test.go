package retry_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/retry"
)

// SanitizeHistory decodes arguments held as a JSON string of an object,
// turns any other arguments that are not an object into {}, repairs
// nothing, and leaves the messages it was given as they were.
func TestSanitizeHistory(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{`{"city": "Paris"}`, `{"city": "Paris"}`}, // an object is kept as written
		{`"{\"city\": \"Paris\"}"`, `{"city":"Paris"}`},
		{`"\"{\\\"a\\\": 1}\""`, `{"a":1}`},   // encoded twice
		{`"{\"a\": 1, \"a\": 2}"`, `{"a":2}`}, // a repeated key keeps its last value
		{`"{'city': 'Paris'}"`, `{}`},         // not JSON: nothing is repaired
		{`"{\"a\": 1,}"`, `{}`},
		{`"Paris"`, `{}`},
		{`[1, 2]`, `{}`},
		{`42`, `{}`},
		{`null`, `{}`},
		{`""`, `{}`},
		{`{"a": 1,`, `{}`},
	} {
		in := []client.Message{{Role: "assistant", ToolCalls: []toolcall.Call{{Name: "f", Arguments: json.RawMessage(tc.args)}}}}
		out := retry.SanitizeHistory(in)
		if got := string(out[0].ToolCalls[0].Arguments); got != tc.want {
			t.Errorf("%s: arguments %s, want %s", tc.args, got, tc.want)
		}
		if string(in[0].ToolCalls[0].Arguments) != tc.args {
			t.Errorf("%s: the message given was changed", tc.args)
		}
	}
}
