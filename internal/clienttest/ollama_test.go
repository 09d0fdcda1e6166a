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
func TestOllamaGoClient(t *testing.T) { RunScenarios(t, proxy.Ollama, ollamaChat) }

// TestOllamaGoClientDirect checks the harness against the upstream alone
// (RunDirect).
func TestOllamaGoClientDirect(t *testing.T) { RunDirect(t, proxy.Ollama, ollamaChat) }
