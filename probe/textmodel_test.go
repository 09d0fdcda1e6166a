package probe_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/probe"
)

// tagRenderer is a renderer with visible, easy to check output.
type tagRenderer struct{}

func (tagRenderer) Dialect() string { return "tags" }
func (tagRenderer) Tools(tools []toolcall.Tool) string {
	if len(tools) == 0 {
		return ""
	}
	return "TOOLS " + tools[0].Name
}
func (tagRenderer) Calls(calls []toolcall.Call) string {
	var parts []string
	for _, c := range calls {
		parts = append(parts, "<call "+c.Name+" "+string(c.Arguments)+">")
	}
	return strings.Join(parts, "")
}
func (tagRenderer) Result(c toolcall.Call, content string) string {
	return "<result " + c.Name + ">" + content + "</result>"
}

// captureModel records the request it was sent.
type captureModel struct{ req *client.Request }

func (m *captureModel) Chat(_ context.Context, req *client.Request) (*client.Response, error) {
	m.req = req
	return &client.Response{Content: "ok", Done: true, DoneReason: "stop"}, nil
}

func TestTextDialectWithoutTools(t *testing.T) {
	inner := &captureModel{}
	td := &probe.TextDialect{Model: inner, Renderer: tagRenderer{}}
	if _, err := td.Chat(context.Background(), &client.Request{Messages: []client.Message{{Role: "user", Content: "hi"}}}); err != nil {
		t.Fatal(err)
	}
	if len(inner.req.Messages) != 1 || inner.req.Messages[0].Role != "user" {
		t.Errorf("no tools, yet the messages changed: %+v", inner.req.Messages)
	}
}

func TestTextDialect(t *testing.T) {
	tools := []toolcall.Tool{{Name: "f", Parameters: json.RawMessage(`{"type":"object"}`)}}
	args := json.RawMessage(`{"a":1}`)
	tests := []struct {
		name string
		in   []client.Message
		want []client.Message
	}{
		{
			name: "tools join the system message",
			in:   []client.Message{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "hi"}},
			want: []client.Message{{Role: "system", Content: "Be brief.\n\nTOOLS f"}, {Role: "user", Content: "hi"}},
		},
		{
			name: "a system message is added",
			in:   []client.Message{{Role: "user", Content: "hi"}},
			want: []client.Message{{Role: "system", Content: "TOOLS f"}, {Role: "user", Content: "hi"}},
		},
		{
			name: "calls and results are written as text",
			in: []client.Message{
				{Role: "user", Content: "go"},
				{Role: "assistant", Content: "Sure.", Reasoning: "think", ToolCalls: []toolcall.Call{{ID: "c1", Name: "f", Arguments: args}, {ID: "c2", Name: "g", Arguments: args}}},
				{Role: "tool", ToolCallID: "c1", Content: "one"},
				{Role: "tool", ToolCallID: "c2", Content: "two"},
				{Role: "tool", ToolCallID: "c9", ToolName: "h", Content: "orphan"},
				{Role: "user", Content: "again"},
				{Role: "assistant", ToolCalls: []toolcall.Call{{ID: "c3", Name: "f", Arguments: args}}},
				{Role: "tool", ToolCallID: "c3", Content: "three"},
			},
			want: []client.Message{
				{Role: "system", Content: "TOOLS f"},
				{Role: "user", Content: "go"},
				{Role: "assistant", Content: "Sure.\n<call f {\"a\":1}><call g {\"a\":1}>", Reasoning: "think"},
				{Role: "user", Content: "<result f>one</result>\n<result g>two</result>\n<result h>orphan</result>"},
				{Role: "user", Content: "again"},
				{Role: "assistant", Content: "<call f {\"a\":1}>"},
				{Role: "user", Content: "<result f>three</result>"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inner := &captureModel{}
			td := &probe.TextDialect{Model: inner, Renderer: tagRenderer{}}
			if _, err := td.Chat(context.Background(), &client.Request{Model: "m", Messages: tt.in, Tools: tools}); err != nil {
				t.Fatal(err)
			}
			if inner.req.Tools != nil {
				t.Error("tools were still sent natively")
			}
			got := inner.req.Messages
			if len(got) != len(tt.want) {
				t.Fatalf("got %d messages, want %d: %+v", len(got), len(tt.want), got)
			}
			for i := range got {
				if got[i].Role != tt.want[i].Role || got[i].Content != tt.want[i].Content || got[i].Reasoning != tt.want[i].Reasoning ||
					len(got[i].ToolCalls) != 0 || got[i].ToolCallID != "" {
					t.Errorf("message %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
			if len(tt.in) > 0 && tt.in[0].Content != "" && strings.HasPrefix(tt.in[0].Content, "TOOLS") {
				t.Error("the caller's messages were changed")
			}
		})
	}
}
