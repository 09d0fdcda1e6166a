package ollama

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
)

// FuzzParseJSON checks that any input gives a well-formed result: no panic,
// a non-nil call list, compact JSON objects as arguments, every error coded,
// and calls indexed in order.
func FuzzParseJSON(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.*json"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"", "{", "[", "}", `{"message":`, `{"message":{"tool_calls":[{"function":{"name":"a","arguments":"{"}}]}}`,
		"{\"done\":true}\n{", `[[[{"message":{}}]]]`, "\x00\xff{\"\xff\":1}", `{"error":{}}`,
		`{"message":{"tool_calls":{"function":{"name":"x","arguments":"\"\\\"{}\\\"\""}}}}`,
	} {
		f.Add([]byte(s))
	}
	opts := &dialects.Options{}
	f.Fuzz(func(t *testing.T, data []byte) {
		res := ParseJSON(data, opts)
		if res.Calls == nil {
			t.Fatal("nil Calls")
		}
		last := -1
		for _, c := range res.Calls {
			if c.Index <= last {
				t.Fatalf("call indexes out of order: %+v", res.Calls)
			}
			last = c.Index
			if !json.Valid(c.Arguments) || len(c.Arguments) == 0 || c.Arguments[0] != '{' {
				t.Fatalf("arguments %q are not a JSON object", c.Arguments)
			}
			if c.Name == "" || c.ID == "" {
				t.Fatalf("call without name or id: %+v", c)
			}
		}
		for _, e := range res.Errors {
			if e == nil || e.Code.Summary() == "" {
				t.Fatalf("uncoded error %#v", e)
			}
		}
		// The dialect path must agree on the calls.
		viaDialect := dialects.Parse(Dialect{}, string(data), opts)
		if len(viaDialect.Calls) != len(res.Calls) || len(viaDialect.Errors) != len(res.Errors) {
			t.Fatalf("Extract and ParseJSON disagree: %d/%d calls, %d/%d errors",
				len(viaDialect.Calls), len(res.Calls), len(viaDialect.Errors), len(res.Errors))
		}
	})
}
