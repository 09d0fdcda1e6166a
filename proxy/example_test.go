package proxy_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// A model that writes its call as Hermes text: through the Handler, the
// client gets it as a native tool call.
func Example() {
	upstream := fakeserver.NewServer(fakeserver.Script{{
		Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
	}}, nil)
	defer upstream.Close()

	h, err := proxy.NewHandler(proxy.Options{
		Upstream: upstream.URL,
		API:      proxy.Ollama,
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/api/chat", "application/json", strings.NewReader(`{
		"model": "qwen3:8b", "stream": false,
		"messages": [{"role": "user", "content": "Weather in Paris?"}],
		"tools": [{"type": "function", "function": {"name": "get_weather",
			"parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var answer struct {
		Message struct {
			Content   string `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
	}
	json.NewDecoder(resp.Body).Decode(&answer)
	for _, c := range answer.Message.ToolCalls {
		fmt.Println(c.Function.Name, string(c.Function.Arguments))
	}
	fmt.Printf("content: %q\n", answer.Message.Content)
	// Output:
	// get_weather {"city":"Paris"}
	// content: ""
}

// The Transport fixes calls in process: any client given an http.Client
// with it gets the leaked call as a native one.
func ExampleNewTransport() {
	upstream := fakeserver.NewServer(fakeserver.Script{{
		Content: "[get_weather(city=\"Paris\")]",
	}}, nil)
	defer upstream.Close()

	tr, err := proxy.NewTransport(proxy.Options{
		API:    proxy.OpenAI,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		panic(err)
	}
	client := &http.Client{Transport: tr}
	resp, err := client.Post(upstream.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{
		"model": "llama3.2", "messages": [{"role": "user", "content": "Weather in Paris?"}],
		"tools": [{"type": "function", "function": {"name": "get_weather",
			"parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var completion struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					Function struct{ Name, Arguments string } `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	json.NewDecoder(resp.Body).Decode(&completion)
	choice := completion.Choices[0]
	for _, c := range choice.Message.ToolCalls {
		fmt.Println(c.Function.Name, c.Function.Arguments)
	}
	fmt.Println(choice.FinishReason)
	// Output:
	// get_weather {"city":"Paris"}
	// tool_calls
}
