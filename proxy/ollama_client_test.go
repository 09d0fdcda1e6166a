package proxy_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// ollamaChat runs one chat with the ollama/api client and collects the
// calls and content it saw.
func ollamaChat(t *testing.T, c *api.Client, stream bool) (calls []api.ToolCall, content string) {
	t.Helper()
	var tool api.Tool
	if err := json.Unmarshal([]byte(weatherTool), &tool); err != nil {
		t.Fatal(err)
	}
	req := &api.ChatRequest{Model: "qwen3:8b", Messages: []api.Message{{Role: "user", Content: "Weather in Paris?"}},
		Tools: api.Tools{tool}, Stream: &stream}
	err := c.Chat(context.Background(), req, func(r api.ChatResponse) error {
		calls = append(calls, r.Message.ToolCalls...)
		content += r.Message.Content
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return calls, content
}

// TestOllamaClient drives the ollama/api client through the Handler and
// through the Transport: it sees the leaked call as a native call.
func TestOllamaClient(t *testing.T) {
	leaked := fakeserver.Script{{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", ChunkSize: 4}}
	for _, stream := range []bool{false, true} {
		for _, via := range []string{"handler", "transport"} {
			t.Run(via+map[bool]string{false: "/whole", true: "/stream"}[stream], func(t *testing.T) {
				up := fakeserver.NewServer(leaked, nil)
				defer up.Close()
				var c *api.Client
				if via == "handler" {
					_, srv := setupOn(t, up, proxy.Ollama)
					u, _ := url.Parse(srv)
					c = api.NewClient(u, http.DefaultClient)
				} else {
					tr, err := proxy.NewTransport(proxy.Options{API: proxy.Ollama, Logger: quiet})
					if err != nil {
						t.Fatal(err)
					}
					u, _ := url.Parse(up.URL)
					c = api.NewClient(u, &http.Client{Transport: tr})
				}
				calls, content := ollamaChat(t, c, stream)
				if len(calls) != 1 || calls[0].Function.Name != "get_weather" || calls[0].ID == "" {
					t.Fatalf("calls = %+v", calls)
				}
				if city, _ := calls[0].Function.Arguments.Get("city"); city != "Paris" {
					t.Errorf("arguments = %v", calls[0].Function.Arguments.String())
				}
				if content != "" {
					t.Errorf("content = %q", content)
				}
			})
		}
	}
}

// setupOn puts a Handler in front of an existing upstream.
func setupOn(t *testing.T, up *fakeserver.Server, api proxy.API) (*proxy.Handler, string) {
	t.Helper()
	h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: api, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, h)
	return h, srv
}
