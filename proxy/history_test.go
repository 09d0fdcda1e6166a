package proxy_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// TestHistoryHygiene: past assistant calls whose arguments are not JSON
// reach the upstream repaired, a past assistant message whose calls leaked
// into its text reaches it with them as calls, and every other message
// goes byte for byte; the fixes are counted.
func TestHistoryHygiene(t *testing.T) {
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI} {
		t.Run(string(api), func(t *testing.T) {
			broken := `{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\": \"Paris\",}"}}`
			if api == proxy.Ollama {
				// Ollama's shape: an object, or a string holding the text.
				broken = `{"function":{"name":"get_weather","arguments":"{'city': 'Paris'}"}}`
			}
			user := `{"role":"user",  "content":"Weather in Paris?"}`
			tool := `{"role":"tool","tool_call_id":"call_1","content":"sunny"}`
			leaked := `{"role":"assistant","content":"Also Rome.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\n</tool_call>"}`
			plain := `{"role":"assistant", "content":"It is sunny."}`
			body := `{"model":"qwen3:8b","stream":false,"messages":[` + user + `,{"role":"assistant","content":"","tool_calls":[` + broken + `]},` + tool + `,` + leaked + `,` + plain + `,` + user + `],"tools":[` + weatherTool + `]}`
			obs := &observed{}
			up, srv := setup(t, api, fakeserver.Script{{Content: "Done."}}, func(o *proxy.Options) { o.Observer = obs })
			a := post(t, nil, srv.URL+chatPath(api), api, body, nil)
			if a.Status != 200 {
				t.Fatalf("%d %s", a.Status, a.Raw)
			}
			reqs := up.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d upstream requests", len(reqs))
			}
			sent := string(reqs[0].Body)
			for _, same := range []string{user, tool, plain, `"tools":[` + weatherTool + `]`} {
				if !strings.Contains(sent, same) {
					t.Errorf("not passed byte for byte: %s\nin %s", same, sent)
				}
			}
			var v struct {
				Messages []struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						ID       string `json:"id"`
						Function struct {
							Name      string          `json:"name"`
							Arguments json.RawMessage `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(reqs[0].Body, &v); err != nil || len(v.Messages) != 6 {
				t.Fatalf("the request sent upstream: %v\n%s", err, sent)
			}
			args := func(raw json.RawMessage) string {
				var s string
				if json.Unmarshal(raw, &s) == nil {
					return s
				}
				return string(raw)
			}
			if c := v.Messages[1].ToolCalls; len(c) != 1 || args(c[0].Function.Arguments) != `{"city":"Paris"}` {
				t.Errorf("the broken arguments went upstream as %s", sent)
			}
			if c := v.Messages[3].ToolCalls; len(c) != 1 || c[0].Function.Name != "get_weather" || !json.Valid([]byte(args(c[0].Function.Arguments))) ||
				strings.Contains(v.Messages[3].Content, "tool_call") || strings.TrimSpace(v.Messages[3].Content) != "Also Rome." {
				t.Errorf("the leaked past call went upstream as %+v", v.Messages[3])
			}
			st := obs.last(t)
			if st.Fixed["history_repaired"] != 1 || st.Fixed["history_leaked"] != 1 {
				t.Errorf("fixed = %v", st.Fixed)
			}
		})
	}
}
