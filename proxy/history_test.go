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

// TestHistoryHygieneItems: the Responses and Messages APIs' histories get
// the same hygiene as the chat APIs' in their own shapes: a past
// function_call item's arguments that are not JSON are repaired, calls
// leaked into a past assistant message's text become function_call items
// or tool_use blocks; every other item goes byte for byte.
func TestHistoryHygieneItems(t *testing.T) {
	const (
		hermesRome = `Also Rome.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\n</tool_call>`
		onlyCall   = `<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\n</tool_call>`
		unknown    = `<tool_call>\n{\"name\": \"delete_all\", \"arguments\": {}}\n</tool_call>`
		user       = `{"role":"user",  "content":"Weather in Paris?"}`
	)
	type item = map[string]any
	rows := []struct {
		name     string
		api      proxy.API
		history  []string // the past items or messages, after user
		same     []int    // indexes of history that go byte for byte
		repaired int
		leaked   int
		// check reads the items or messages sent upstream (user first).
		check func(t *testing.T, sent []item)
	}{
		{
			name: "responses/arguments repaired", api: proxy.Responses,
			history: []string{
				`{"type":"function_call","call_id":"call_1","name":"get_weather","arguments":"{\"city\": \"Paris\",}"}`,
				`{"type":"function_call_output","call_id":"call_1","output":"sunny"}`,
			},
			same: []int{1}, repaired: 1,
			check: func(t *testing.T, sent []item) {
				if len(sent) != 3 || sent[1]["arguments"] != `{"city":"Paris"}` || sent[1]["call_id"] != "call_1" {
					t.Errorf("sent %v", sent)
				}
			},
		},
		{
			name: "responses/leaked in output_text", api: proxy.Responses,
			history: []string{
				`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"` + hermesRome + `","annotations":[]}]}`,
				`{"role":"user","content":"And?"}`,
			},
			same: []int{1}, leaked: 1,
			check: func(t *testing.T, sent []item) {
				if len(sent) != 4 {
					t.Fatalf("sent %v", sent)
				}
				parts, _ := sent[1]["content"].([]any)
				if len(parts) != 1 || strings.TrimSpace(parts[0].(map[string]any)["text"].(string)) != "Also Rome." {
					t.Errorf("message sent as %v", sent[1])
				}
				if c := sent[2]; c["type"] != "function_call" || c["name"] != "get_weather" || c["arguments"] != `{"city":"Rome"}` || c["call_id"] == "" {
					t.Errorf("call sent as %v", c)
				}
			},
		},
		{
			name: "responses/a message that is only a call", api: proxy.Responses,
			history: []string{`{"role":"assistant","content":"` + onlyCall + `"}`},
			leaked:  1,
			check: func(t *testing.T, sent []item) {
				if len(sent) != 2 || sent[1]["type"] != "function_call" || sent[1]["name"] != "get_weather" {
					t.Errorf("sent %v", sent)
				}
			},
		},
		{
			name: "responses/a message with calls keeps its text", api: proxy.Responses,
			history: []string{
				`{"role":"assistant","content":"` + hermesRome + `"}`,
				`{"type":"function_call","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Paris\"}"}`,
			},
			same: []int{0, 1},
		},
		{
			name: "responses/a call to an undeclared tool stays text", api: proxy.Responses,
			history: []string{`{"role":"assistant","content":"` + unknown + `"}`},
			same:    []int{0},
		},
		{
			name: "anthropic/leaked in string content", api: proxy.Anthropic,
			history: []string{`{"role":"assistant","content":"` + hermesRome + `"}`, user},
			same:    []int{1}, leaked: 1,
			check: func(t *testing.T, sent []item) {
				blocks, _ := sent[1]["content"].([]any)
				if len(blocks) != 2 {
					t.Fatalf("sent %v", sent[1])
				}
				text, use := blocks[0].(map[string]any), blocks[1].(map[string]any)
				if text["type"] != "text" || strings.TrimSpace(text["text"].(string)) != "Also Rome." {
					t.Errorf("text block %v", text)
				}
				in, _ := use["input"].(map[string]any)
				if use["type"] != "tool_use" || use["name"] != "get_weather" || use["id"] == "" || in["city"] != "Rome" {
					t.Errorf("tool_use block %v", use)
				}
			},
		},
		{
			name: "anthropic/only a call in a text block", api: proxy.Anthropic,
			history: []string{`{"role":"assistant","content":[{"type":"text","text":"` + onlyCall + `"}]}`},
			leaked:  1,
			check: func(t *testing.T, sent []item) {
				blocks, _ := sent[1]["content"].([]any)
				if len(blocks) != 1 || blocks[0].(map[string]any)["type"] != "tool_use" {
					t.Errorf("sent %v (no empty text block)", sent[1])
				}
			},
		},
		{
			name: "anthropic/string input repaired", api: proxy.Anthropic,
			history:  []string{`{"role":"assistant","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_1","name":"get_weather","input":"{'city': 'Paris'}"}]}`},
			repaired: 1,
			check: func(t *testing.T, sent []item) {
				blocks, _ := sent[1]["content"].([]any)
				if len(blocks) != 2 || blocks[0].(map[string]any)["text"] != "Checking." {
					t.Fatalf("sent %v", sent[1])
				}
				in, _ := blocks[1].(map[string]any)["input"].(map[string]any)
				if in["city"] != "Paris" || blocks[1].(map[string]any)["id"] != "toolu_1" {
					t.Errorf("tool_use sent as %v", blocks[1])
				}
			},
		},
		{
			name: "anthropic/native tool_use and undeclared leaks pass", api: proxy.Anthropic,
			history: []string{
				`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}]}`,
				`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny"}]}`,
				`{"role":"assistant","content":"` + unknown + `"}`,
			},
			same: []int{0, 1, 2},
		},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			list := strings.Join(append([]string{user}, r.history...), ",")
			body := `{"model":"qwen3:8b","stream":false,"messages":[` + list + `],"tools":[` + weatherToolAnthropic + `],"max_tokens":64}`
			if r.api == proxy.Responses {
				body = `{"model":"qwen3:8b","stream":false,"input":[` + list + `],"tools":[` + weatherToolFlat + `]}`
			}
			obs := &observed{}
			up, srv := setup(t, r.api, fakeserver.Script{{Content: "Done."}}, func(o *proxy.Options) { o.Observer = obs })
			if a := post(t, nil, srv.URL+chatPath(r.api), r.api, body, nil); a.Status != 200 {
				t.Fatalf("%d %s", a.Status, a.Raw)
			}
			reqs := up.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d upstream requests", len(reqs))
			}
			sent := string(reqs[0].Body)
			if r.repaired+r.leaked == 0 && sent != body {
				t.Errorf("changed a history with nothing to tidy:\n%s\n%s", body, sent)
			}
			for _, i := range append(r.same, -1) {
				same := user
				if i >= 0 {
					same = r.history[i]
				}
				if !strings.Contains(sent, same) {
					t.Errorf("not passed byte for byte: %s\nin %s", same, sent)
				}
			}
			var v struct {
				Messages []item `json:"messages"`
				Input    []item `json:"input"`
			}
			if err := json.Unmarshal(reqs[0].Body, &v); err != nil {
				t.Fatalf("%v: %s", err, sent)
			}
			if r.check != nil {
				r.check(t, append(v.Messages, v.Input...))
			}
			st := obs.last(t)
			if st.Fixed["history_repaired"] != r.repaired || st.Fixed["history_leaked"] != r.leaked {
				t.Errorf("fixed = %v", st.Fixed)
			}
		})
	}
}
