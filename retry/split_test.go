package retry_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/retry"
	"github.com/dialectkit/toolcall/schema"
)

// splitModel answers as a server that split the model's reasoning off
// itself (Ollama's thinking, reasoning_content): the content is what
// followed the block.
type splitModel struct{ reasoning, content string }

func (m *splitModel) Chat(context.Context, *client.Request) (*client.Response, error) {
	return &client.Response{Reasoning: m.reasoning, Content: m.content, Done: true, DoneReason: "stop"}, nil
}

// TestServerSplitReasoning: after reasoning the server split off, the
// content starts outside reasoning even where the template opened a block
// (ReasoningOpen): its text stays content, the call in it is a call, and
// the server's reasoning is kept as it came. Whatever the caller said of
// the start, ReasoningClosed included, survives the configuration.
func TestServerSplitReasoning(t *testing.T) {
	tools, err := schema.NewSet(toolcall.Tool{
		Name:       "get_weather",
		Parameters: json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	call := `<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>`
	for _, tc := range []struct {
		name          string
		open, closed  bool
		reasoning     string
		content       string
		wantContent   string
		wantReasoning string
	}{
		{"template opened a block, server split it", true, false, "Thought it over.", "Sure.\n" + call, "Sure.", "Thought it over."},
		{"start unknown, server split it", false, false, "Thought it over.", "Sure.\n" + call, "Sure.", "Thought it over."},
		{"template opened a block, nothing split", true, false, "", "Thought it over.</think>\nSure.\n" + call, "Sure.", "Thought it over."},
		{"caller says closed, a stray closing tag is text", false, true, "", "Sure.</think>\n" + call, "Sure.</think>", ""},
	} {
		cfg := config.Default()
		cfg.RetryDelay = 0
		loop := &retry.Loop{Model: &splitModel{tc.reasoning, tc.content}, Tools: tools, Config: &cfg}
		loop.Parse.Dialect = "hermes"
		loop.Parse.ReasoningOpen, loop.Parse.ReasoningClosed = tc.open, tc.closed
		out, err := loop.Run(context.Background(), &client.Request{Model: "m", Messages: []client.Message{{Role: "user", Content: "Weather in Paris?"}}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		res := out.Result
		if len(res.Calls) != 1 || res.Calls[0].Name != "get_weather" || res.Content != tc.wantContent || res.Reasoning != tc.wantReasoning {
			t.Errorf("%s: calls %d, content %q (want %q), reasoning %q (want %q)", tc.name, len(res.Calls), res.Content, tc.wantContent, res.Reasoning, tc.wantReasoning)
		}
	}
}
