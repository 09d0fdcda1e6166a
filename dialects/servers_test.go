package dialects_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/schema"
)

func TestSplitName(t *testing.T) {
	tests := []struct{ name, server, tool string }{
		{"github___create_issue", "github", "create_issue"},
		{"my_server___search", "my_server", "search"},
		{"a___b___c", "a", "b___c"},
		{"create_issue", "", "create_issue"},
		{"___tool", "", "___tool"},
		{"server___", "", "server___"},
		{"a____b", "a", "_b"},
		{"", "", ""},
	}
	for _, tt := range tests {
		s, tool := toolcall.SplitName(tt.name)
		if s != tt.server || tool != tt.tool {
			t.Errorf("SplitName(%q) = %q, %q; want %q, %q", tt.name, s, tool, tt.server, tt.tool)
		}
		if tt.server != "" && toolcall.JoinName(s, tool) != tt.name {
			t.Errorf("JoinName(%q, %q) = %q", s, tool, toolcall.JoinName(s, tool))
		}
	}
}

func serverSet(t *testing.T, names ...string) *schema.Set {
	t.Helper()
	var tools []toolcall.Tool
	for _, n := range names {
		tools = append(tools, toolcall.Tool{Name: n, Parameters: json.RawMessage(`{"type": "object", "properties": {"q": {"type": "string"}}}`)})
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestServerNames(t *testing.T) {
	tests := []struct {
		name     string
		declared []string
		called   string
		want     string // the declared name matched, "" for an error
		server   string
		code     toolcall.Code
		known    []string
		repaired bool
	}{
		{name: "exact combined", declared: []string{"github___search", "gitlab___search"}, called: "github___search", want: "github___search", server: "github"},
		{name: "only tool, one server", declared: []string{"github___create_issue", "gitlab___search"}, called: "create_issue", want: "github___create_issue", server: "github", repaired: true},
		{name: "only tool, several servers", declared: []string{"github___search", "gitlab___search", "fs___read"}, called: "search",
			code: toolcall.CodeUnknownTool, known: []string{"github___search", "gitlab___search"}},
		{name: "combined for a tool without server", declared: []string{"search", "fs___read"}, called: "web___search", want: "search", server: "", repaired: true},
		{name: "exact plain wins over servers", declared: []string{"search", "github___search"}, called: "search", want: "search"},
		{name: "wrong server", declared: []string{"github___search"}, called: "gitlab___search", code: toolcall.CodeUnknownTool},
		{name: "unknown tool part", declared: []string{"github___search"}, called: "github___read", code: toolcall.CodeUnknownTool},
		{name: "no tools declared", called: "github___search", want: "github___search", server: "github"},
		{name: "plain name", declared: []string{"search"}, called: "search", want: "search"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var set *schema.Set
			if tt.declared != nil {
				set = serverSet(t, tt.declared...)
			}
			ext := &dialects.Extraction{Calls: []dialects.RawCall{{Name: tt.called, Arguments: `{"q": "x"}`, Offset: 0}}}
			res := dialects.Finish("test", ext, &dialects.Options{Tools: set})
			if tt.want == "" {
				if len(res.Errors) != 1 || res.Errors[0].Code != tt.code {
					t.Fatalf("errors %v, want %s", res.Errors, tt.code)
				}
				if tt.known != nil && !slices.Equal(res.Errors[0].Known, tt.known) {
					t.Errorf("known %v, want %v", res.Errors[0].Known, tt.known)
				}
				return
			}
			if len(res.Calls) != 1 {
				t.Fatalf("calls %v errors %v", res.Calls, res.Errors)
			}
			c := res.Calls[0]
			if c.Name != tt.want || c.Server != tt.server {
				t.Errorf("call %q server %q, want %q server %q", c.Name, c.Server, tt.want, tt.server)
			}
			renamed := slices.ContainsFunc(res.Repairs, func(r toolcall.Repair) bool { return r.Kind == toolcall.RepairNameNormalized })
			if renamed != tt.repaired {
				t.Errorf("name repair %v, want %v (%v)", renamed, tt.repaired, res.Repairs)
			}
		})
	}
}
