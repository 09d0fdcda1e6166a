package clienttest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// ollamaChat runs one chat with the ollama/api client against base and
// returns what it saw.
func ollamaChat(t *testing.T, base string, hc *http.Client, stream bool) Got {
	t.Helper()
	return ollamaChatPrompt(t, base, hc, stream, Prompt)
}

// ollamaChatPrompt is ollamaChat with the user message given.
func ollamaChatPrompt(t *testing.T, base string, hc *http.Client, stream bool, prompt string) Got {
	t.Helper()
	var tool api.Tool
	if err := json.Unmarshal([]byte(WeatherTool), &tool); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	c := api.NewClient(u, hc)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := &api.ChatRequest{Model: Model, Messages: []api.Message{{Role: "user", Content: prompt}},
		Tools: api.Tools{tool}, Stream: &stream}
	var g Got
	done := false
	err = c.Chat(ctx, req, func(r api.ChatResponse) error {
		for _, tc := range r.Message.ToolCalls {
			g.Calls = append(g.Calls, GotCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments.String()})
		}
		g.Content += r.Message.Content
		g.Reasoning += r.Message.Thinking
		if r.Done {
			done = true
			g.Finish = r.DoneReason
		}
		return nil
	})
	var se api.StatusError
	switch {
	case errors.As(err, &se):
		g.Status, g.Error = se.StatusCode, se.Error()
	case err != nil:
		g.Status, g.Error = -1, err.Error()
	case !done:
		g.Status, g.Error = -1, "the answer ended without done"
	}
	return g
}

// TestOllamaGoClient drives ollama/api through the proxy Handler and
// through the Transport, streaming and not, in every scenario.
func TestOllamaGoClient(t *testing.T) {
	for _, sc := range Scenarios {
		for _, stream := range []bool{false, true} {
			for _, via := range []string{"handler", "transport"} {
				name := sc.Name + "/" + map[bool]string{false: "whole", true: "stream"}[stream] + "/" + via
				t.Run(name, func(t *testing.T) {
					got := runOllama(t, sc.Script, stream, via)
					if d := sc.Want.Check(proxy.Ollama, got); d != "" {
						t.Errorf("%s\ngot %+v", d, got)
					}
				})
			}
		}
	}
}

// runOllama runs one ollama/api chat through the proxy, as a Handler or a
// Transport, in front of a fake upstream answering with script.
func runOllama(t *testing.T, script fakeserver.Script, stream bool, via string) Got {
	t.Helper()
	if via == "handler" {
		s, err := NewStack(proxy.Ollama, script)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return ollamaChat(t, s.Proxy.URL, http.DefaultClient, stream)
	}
	up := fakeserver.NewServer(script, nil)
	defer up.Close()
	tr, err := proxy.NewTransport(Options(proxy.Ollama, ""))
	if err != nil {
		t.Fatal(err)
	}
	return ollamaChat(t, up.URL, &http.Client{Transport: tr}, stream)
}

// TestOllamaGoClientDirect checks the harness against the upstream alone:
// native calls read as the scenario says, and a leaked call does not read
// as a call, so the proxy is what makes the other scenarios pass.
func TestOllamaGoClientDirect(t *testing.T) {
	for _, stream := range []bool{false, true} {
		for _, sc := range Named("native", "hermes") {
			t.Run(sc.Name+"/"+map[bool]string{false: "whole", true: "stream"}[stream], func(t *testing.T) {
				up := fakeserver.NewServer(sc.Script, nil)
				defer up.Close()
				got := ollamaChat(t, up.URL, http.DefaultClient, stream)
				d := sc.Want.Check(proxy.Ollama, got)
				switch {
				case sc.Name == "native" && d != "":
					t.Errorf("%s\ngot %+v", d, got)
				case sc.Name != "native" && d == "":
					t.Errorf("the leaked call reads as a native call without the proxy: %+v", got)
				}
			})
		}
	}
}
