package ollamawire

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
)

// FuzzParseJSON fuzzes the native response parser on raw bytes (one
// response, an NDJSON stream, an array of responses, or anything else), in
// every option mode of the shared harness. Every result must have the
// properties of fuzzcheck.CheckResult (coded errors, compact JSON object
// arguments, declared tools and the depth limit honoured), be the same on
// a second parse, and agree with the Dialect path; a body that decodes
// into api.ChatResponse must give a well-formed result through
// ParseResponse too.
func FuzzParseJSON(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.*json"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data, uint8(0))
			f.Add(data, uint8(fuzzcheck.ModeTools|fuzzcheck.ModeCoerce))
		}
	}
	for _, s := range []string{
		"", "{", "[", "}", `{"message":`, `{"message":{"tool_calls":[{"function":{"name":"a","arguments":"{"}}]}}`,
		"{\"done\":true}\n{", `[[[{"message":{}}]]]`, "\x00\xff{\"\xff\":1}", `{"error":{}}`,
		`{"message":{"tool_calls":{"function":{"name":"x","arguments":"\"\\\"{}\\\"\""}}}}`,
		`{"message":{"role":"assistant","tool_calls":[{"function":{"index":1,"name":"get_weather","arguments":{"city":"Paris"}}},{"function":{"index":0,"name":"get_time","arguments":{}}}]},"done":true}`,
		`{"message":{"tool_calls":[{"function":{"name":"get_weather","arguments":{"a":[[[[[[1]]]]]]}}}]},"done":true}`,
		`{"message":{"tool_calls":[{"function":{"name":"get_weather","arguments":"{\"city\": 'Paris',}"}}]},"done":true}`,
		`{"error":"model 'x' not found"}`,
		`{"message":{"content":"<tool_call>{\"name\": \"get_weather\"}</tool_call>"},"done":false}`,
	} {
		f.Add([]byte(s), uint8(0))
	}
	tools := fuzzcheck.CorpusTools(f)
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		opts := fuzzcheck.Options(mode, tools)
		res := ParseJSON(data, opts)
		if err := fuzzcheck.CheckResult(res, string(data), opts); err != nil {
			t.Fatalf("ParseJSON: %v", err)
		}
		if err := fuzzcheck.SameResult(res, ParseJSON(data, opts)); err != nil {
			t.Fatalf("ParseJSON is not deterministic: %v", err)
		}
		viaDialect := dialects.Parse(Dialect{}, string(data), opts)
		viaDialect.Dialect = res.Dialect
		if err := fuzzcheck.SameResult(res, viaDialect); err != nil {
			t.Fatalf("Extract and ParseJSON disagree: %v", err)
		}
		var resp api.ChatResponse
		if json.Unmarshal(data, &resp) == nil {
			// The content comes from the decoded body, which is never longer.
			if err := fuzzcheck.CheckResult(ParseResponse(fromAPI(t, resp), opts), string(data), opts); err != nil {
				t.Fatalf("ParseResponse: %v", err)
			}
		}
	})
}
