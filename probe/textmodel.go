package probe

import (
	"context"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
)

// Renderer writes one dialect's syntax; package render provides one for
// every registered dialect (render.For), which is what the probe uses
// unless Options.Renderer says otherwise.
type Renderer interface {
	// Dialect is the dialect's name.
	Dialect() string
	// Tools is system-prompt text presenting the tools in the dialect,
	// with an example call.
	Tools(tools []toolcall.Tool) string
	// Calls writes calls as a model of the dialect writes them.
	Calls(calls []toolcall.Call) string
	// Result writes a tool result as the conversation carries it back.
	Result(call toolcall.Call, content string) string
}

// TextDialect is a client.Model that drives a model through a text dialect
// instead of native tools. The tool definitions go into the system prompt
// in the dialect's syntax, and the conversation's tool calls and tool
// results are written as text in the same syntax, so that a model (or a
// server) without native tool support sees one consistent conversation:
// no tools field, no tool_calls, no tool role.
//
// Wrap a model with it and give the retry.Loop the same dialect to parse
// with (Loop.Parse.Dialect); the loop's reflections then reach the model as
// tool results in its own syntax.
type TextDialect struct {
	// Model answers the rewritten requests.
	Model client.Model
	// Renderer writes the dialect.
	Renderer Renderer
}

// Chat sends req with its tools and tool traffic written as text.
func (t *TextDialect) Chat(ctx context.Context, req *client.Request) (*client.Response, error) {
	if req == nil {
		return t.Model.Chat(ctx, nil)
	}
	text := *req
	text.Tools = nil
	text.Messages = t.Messages(req.Messages, req.Tools)
	return t.Model.Chat(ctx, &text)
}

// SystemPrompt is the system message TextDialect sends: system, a blank
// line, and the tools presented in the dialect.
func (t *TextDialect) SystemPrompt(system string, tools []toolcall.Tool) string {
	presented := t.Renderer.Tools(tools)
	switch {
	case presented == "":
		return system
	case system == "":
		return presented
	}
	return system + "\n\n" + presented
}

// Messages rewrites a conversation: the tools join the first system
// message (or a new one), an assistant's calls are appended to its text in
// the dialect's syntax, and tool results become one user message per run
// of results, each written as the dialect carries results back.
func (t *TextDialect) Messages(msgs []client.Message, tools []toolcall.Tool) []client.Message {
	out := make([]client.Message, 0, len(msgs)+1)
	calls := map[string]toolcall.Call{} // call id → the call, for results
	rest := msgs
	if len(msgs) > 0 && msgs[0].Role == "system" {
		out = append(out, client.Message{Role: "system", Content: t.SystemPrompt(msgs[0].Content, tools)})
		rest = msgs[1:]
	} else if prompt := t.SystemPrompt("", tools); prompt != "" {
		out = append(out, client.Message{Role: "system", Content: prompt})
	}
	var results []string
	flush := func() {
		if len(results) > 0 {
			out = append(out, client.Message{Role: "user", Content: strings.Join(results, "\n")})
			results = nil
		}
	}
	for _, m := range rest {
		switch {
		case m.Role == "tool":
			c, ok := calls[m.ToolCallID]
			if !ok {
				c = toolcall.Call{ID: m.ToolCallID, Name: m.ToolName, Arguments: []byte("{}")}
			}
			results = append(results, t.Renderer.Result(c, m.Content))
			continue
		case m.Role == "assistant" && len(m.ToolCalls) > 0:
			flush()
			for _, c := range m.ToolCalls {
				calls[c.ID] = c
			}
			text := t.Renderer.Calls(m.ToolCalls)
			if content := strings.TrimSpace(m.Content); content != "" {
				text = content + "\n" + text
			}
			out = append(out, client.Message{Role: "assistant", Content: text, Reasoning: m.Reasoning})
			continue
		}
		flush()
		out = append(out, client.Message{Role: m.Role, Content: m.Content, Reasoning: m.Reasoning})
	}
	flush()
	return out
}
