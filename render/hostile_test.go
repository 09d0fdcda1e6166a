package render_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/render"
)

// Input a caller should not send still renders without a panic, and the
// output is valid UTF-8: bad arguments, bad schemas, deep and huge values.
func TestHostileInput(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 2000) + "1" + strings.Repeat("}", 2000)
	huge := `{"note":"` + strings.Repeat("</tool_call>[TOOL_CALLS]<|\"|>", 4000) + `"}`
	calls := [][]toolcall.Call{
		{call("get_weather", ``)},
		{call("get_weather", `null`)},
		{call("get_weather", `[1,2]`)},
		{call("get_weather", `"text"`)},
		{call("get_weather", `{city: 'Paris',}`)}, // almost-JSON: repaired
		{call("get_weather", `{"a":`)},            // cut short: repaired
		{call("get_weather", `}}}{{{`)},
		{call("get_weather", "{\"city\":\"\xff\xfe\x00bad\"}")},
		{call("get_weather", deep)},
		{call("get_weather", huge)},
		{call("", `{}`)},
		{call("name with spaces\n\"quotes\"", `{"k y":1}`)},
	}
	tools := []toolcall.Tool{
		{Name: "no_schema"},
		{Name: "bad_schema", Parameters: json.RawMessage(`{"type":`)},
		{Name: "deep_schema", Parameters: json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"#"}},"required":["a"]}`)},
	}
	for _, name := range render.Names() {
		r, _ := render.For(name)
		for i, cs := range calls {
			out := r.Calls(cs)
			if !utf8.ValidString(out) {
				t.Errorf("%s: calls %d: invalid UTF-8", name, i)
			}
			_ = r.Result(cs[0], "\xff\x00"+huge)
		}
		if out := r.Tools(tools); !utf8.ValidString(out) || !strings.Contains(out, "deep_schema") {
			t.Errorf("%s: tools output broken", name)
		}
		if r.Calls(nil) != "" {
			t.Errorf("%s: Calls(nil) is not empty", name)
		}
	}
}

// Arguments that are not a JSON object are written as {}; almost-JSON is
// repaired first.
func TestArgumentsNormalised(t *testing.T) {
	r, _ := render.For("hermes")
	for args, want := range map[string]string{
		``:                    `{}`,
		`null`:                `{}`,
		`[1,2]`:               `{}`,
		`{city: 'Paris',}`:    `{"city": "Paris"}`,
		`{"a":{"b":[1,2.5]}}`: `{"a": {"b": [1, 2.5]}}`,
	} {
		got := r.Calls([]toolcall.Call{call("f", args)})
		if !strings.Contains(got, `"arguments": `+want+"}") {
			t.Errorf("%q: %s", args, got)
		}
	}
}

// Renderers are shared: many goroutines may use them at once (run with
// -race).
func TestConcurrentUse(t *testing.T) {
	done := make(chan string)
	for _, name := range []string{"hermes", "qwen3_coder", "gemma4", "pythonic", "kimi_k2"} {
		go func() {
			r, _ := render.For(name)
			var out string
			for range 50 {
				out = r.Calls(benchCalls) + r.Tools(testTools) + r.Result(benchCalls[0], "ok")
			}
			done <- out
		}()
	}
	for range 5 {
		if <-done == "" {
			t.Error("empty rendering")
		}
	}
}
