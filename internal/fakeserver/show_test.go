package fakeserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/fakeserver"
)

func TestShowAndProps(t *testing.T) {
	srv := fakeserver.NewServer(fakeserver.Script{}, &fakeserver.Options{
		Models: []string{"qwen3:8b", "bare"},
		Info: map[string]fakeserver.ModelInfo{"qwen3:8b": {Template: "{{ .Prompt }}<tool_call>", Capabilities: []string{"completion", "tools"},
			Family: "qwen3", Parameters: "num_ctx 8192", Parser: "qwen3"}},
	})
	defer srv.Close()
	show := func(body string) (int, map[string]any) {
		resp, err := http.Post(srv.URL+"/api/show", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		data, _ := io.ReadAll(resp.Body)
		_ = json.Unmarshal(data, &m)
		return resp.StatusCode, m
	}
	tests := []struct {
		name, body string
		status     int
		check      func(m map[string]any) bool
	}{
		{"described model", `{"model": "qwen3:8b"}`, 200, func(m map[string]any) bool {
			return m["template"] == "{{ .Prompt }}<tool_call>" && m["parser"] == "qwen3" && m["parameters"] == "num_ctx 8192" &&
				m["details"].(map[string]any)["family"] == "qwen3" && len(m["capabilities"].([]any)) == 2
		}},
		{"deprecated name field", `{"name": "qwen3:8b"}`, 200, func(m map[string]any) bool { return m["parser"] == "qwen3" }},
		{"served model without a description", `{"model": "bare"}`, 200, func(m map[string]any) bool {
			caps := m["capabilities"].([]any)
			return len(caps) == 2 && caps[1] == "tools" && m["template"] == ""
		}},
		{"missing model", `{"model": "llama3"}`, 404, func(m map[string]any) bool { return m["error"] == "model 'llama3' not found" }},
		{"no model", `{}`, 400, func(m map[string]any) bool { return m["error"] == "model is required" }},
		{"not json", `{`, 400, func(m map[string]any) bool { return m["error"] != nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, m := show(tt.body)
			if status != tt.status || !tt.check(m) {
				t.Errorf("status %d, body %v", status, m)
			}
		})
	}
	resp, err := http.Get(srv.URL + "/props")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var props struct {
		ChatTemplate string `json:"chat_template"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&props); err != nil || props.ChatTemplate != "{{ .Prompt }}<tool_call>" {
		t.Errorf("props: %+v, %v", props, err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d chat requests recorded for /api/show and /props", n)
	}
}
