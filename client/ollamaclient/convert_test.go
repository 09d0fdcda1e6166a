package ollamaclient

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	dialect "github.com/dialectkit/toolcall/dialects/ollamawire"
)

// chatLine is a final /api/chat response holding message.
func chatLine(message string) string {
	return `{"model":"qwen3:8b","created_at":"2026-02-27T10:00:00Z","message":` + message + `,"done":true,"done_reason":"stop"}`
}

// For arguments the api types can decode, the raw path and the api path
// agree.
func TestRawAndAPIAgree(t *testing.T) {
	inputs := []string{
		chatLine(`{"role":"assistant","content":"x","tool_calls":[{"id":"call_a","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris","days":3}}},{"id":"call_b","function":{"index":1,"name":"f","arguments":{"z":true,"a":null,"q":"é"}}}]}`),
		chatLine(`{"role":"assistant","content":"","tool_calls":[{"id":"call_c","function":{"index":0,"name":"now","arguments":{}}}]}`),
		chatLine(`{"role":"assistant","content":"just text"}`),
	}
	for _, in := range inputs {
		var r api.ChatResponse
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			t.Fatal(err)
		}
		raw, typed := dialect.ParseJSON([]byte(in), nil), ParseResponse(r, nil)
		a, _ := json.Marshal(raw)
		b, _ := json.Marshal(typed)
		if string(a) != string(b) {
			t.Errorf("raw   %s\ntyped %s", a, b)
		}
	}
}

func TestToolsFromAPI(t *testing.T) {
	props := api.NewToolPropertiesMap()
	props.Set("city", api.ToolProperty{Type: api.PropertyType{"string"}, Description: "City <name>"})
	props.Set("days", api.ToolProperty{Type: api.PropertyType{"integer"}})
	tools := api.Tools{
		{Type: "function", Function: api.ToolFunction{Name: "get_weather", Description: "Weather",
			Parameters: api.ToolFunctionParameters{Type: "object", Required: []string{"city"}, Properties: props}}},
		{Type: "function", Function: api.ToolFunction{Name: "now", Description: "Time"}},
		{Type: "function", Function: api.ToolFunction{Name: "ping", Parameters: api.ToolFunctionParameters{Type: "object"}}},
	}
	got, err := ToolsFromAPI(tools)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ name, params string }{
		{"get_weather", `{"type":"object","required":["city"],"properties":{"city":{"type":"string","description":"City \u003cname\u003e"},"days":{"type":"integer"}}}`},
		{"now", ""},
		{"ping", `{"type":"object"}`},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d tools", len(got))
	}
	for i, w := range want {
		if got[i].Name != w.name || string(got[i].Parameters) != w.params {
			t.Errorf("tool %d = %s %s, want %s %s", i, got[i].Name, got[i].Parameters, w.name, w.params)
		}
	}
	set, err := NewToolSet(tools)
	if err != nil {
		t.Fatal(err)
	}
	res := dialect.ParseJSON([]byte(chatLine(`{"role":"assistant","content":"","tool_calls":[`+
		`{"id":"call_a","function":{"name":"get_weather","arguments":{"days":2}}},`+
		`{"id":"call_b","function":{"name":"now","arguments":{}}},`+
		`{"id":"call_c","function":{"name":"ping","arguments":{}}}]}`)), &dialects.Options{Tools: set})
	if len(res.Calls) != 2 || res.Calls[0].Name != "now" || res.Calls[1].Name != "ping" ||
		len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeSchema {
		t.Errorf("result = %+v", res)
	}

	_, err = ToolsFromAPI(api.Tools{{Function: api.ToolFunction{Name: "bad", Parameters: api.ToolFunctionParameters{Type: "object", Items: make(chan int)}}}})
	if !errors.Is(err, toolcall.ErrInvalidTool) || !strings.Contains(err.Error(), "tool 0") {
		t.Errorf("err = %v", err)
	}
	_, err = ToolFromAPI(api.Tool{Type: "function"})
	if !errors.Is(err, toolcall.ErrInvalidTool) {
		t.Errorf("nameless tool: err = %v", err)
	}
}

// A whole stream of api values parses as its NDJSON body does (but for the
// byte offsets only the body has): the calls in arrival order, the content
// joined, and a stream that no response marks done reported as cut
// (TLP-014).
func TestParseResponses(t *testing.T) {
	chunk := func(content, calls string, done bool) string {
		msg := `{"role":"assistant","content":` + strconvQuote(content)
		if calls != "" {
			msg += `,"tool_calls":[` + calls + `]`
		}
		msg += `}`
		if done {
			return `{"model":"m","created_at":"2026-02-27T10:00:00Z","message":` + msg + `,"done":true,"done_reason":"stop"}`
		}
		return `{"model":"m","created_at":"2026-02-27T10:00:00Z","message":` + msg + `,"done":false}`
	}
	tests := []struct {
		name  string
		lines []string
		calls []string
		cut   bool
	}{
		{"done", []string{
			chunk("Let me ", "", false),
			chunk("check.", `{"id":"call_a","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}`, false),
			chunk("", `{"id":"call_b","function":{"index":1,"name":"now","arguments":{}}}`, false),
			chunk("", "", true),
		}, []string{`get_weather {"city":"Paris"}`, `now {}`}, false},
		{"dropped", []string{
			chunk("", `{"id":"call_a","function":{"index":0,"name":"now","arguments":{}}}`, false),
		}, []string{`now {}`}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resps := make([]api.ChatResponse, len(tt.lines))
			for i, l := range tt.lines {
				if err := json.Unmarshal([]byte(l), &resps[i]); err != nil {
					t.Fatal(err)
				}
			}
			got := ParseResponses(resps, nil)
			raw := dialect.ParseJSON([]byte(strings.Join(tt.lines, "\n")), nil)
			// The body has byte offsets where the api values have none.
			a, _ := json.Marshal(got.Calls)
			b, _ := json.Marshal(raw.Calls)
			if string(a) != string(b) || got.Content != raw.Content || len(got.Errors) != len(raw.Errors) {
				t.Errorf("typed %+v\nraw   %+v", got, raw)
			}
			var calls []string
			for _, c := range got.Calls {
				calls = append(calls, c.Name+" "+string(c.Arguments))
			}
			if strings.Join(calls, "|") != strings.Join(tt.calls, "|") {
				t.Errorf("calls = %q, want %q", calls, tt.calls)
			}
			cut := len(got.Errors) == 1 && got.Errors[0].Code == toolcall.CodeTruncated
			if cut != tt.cut || !tt.cut && len(got.Errors) != 0 {
				t.Errorf("errors = %v, want cut %v", got.Errors, tt.cut)
			}
		})
	}
}

// strconvQuote is a JSON string literal of s.
func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
