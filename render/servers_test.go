package render_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/schema"
)

// TestServerNamesEveryDialect checks that every dialect's name grammar
// carries MCP combined names "server___tool": what each renderer writes,
// the dialect reads back to the same declared name and its server part,
// with the tools declared and without, and a call naming only the tool
// part matches the one server's tool.
func TestServerNamesEveryDialect(t *testing.T) {
	params := json.RawMessage(`{"type": "object", "properties": {"title": {"type": "string"}, "n": {"type": "integer"}}}`)
	set, err := schema.NewSet(
		toolcall.Tool{Name: "github___create_issue", Parameters: params},
		toolcall.Tool{Name: "my-fs___read.file", Parameters: params},
	)
	if err != nil {
		t.Fatal(err)
	}
	calls := []toolcall.Call{
		{Name: "github___create_issue", Arguments: json.RawMessage(`{"title":"Bug","n":2}`)},
		{Name: "my-fs___read.file", Arguments: json.RawMessage(`{"title":"a/b"}`)},
	}
	for _, name := range render.Names() {
		r, _ := render.For(name)
		t.Run(name, func(t *testing.T) {
			d, ok := registry.Default().Lookup(parserOf(name))
			if !ok {
				t.Fatalf("no dialect %s", parserOf(name))
			}
			text := r.Calls(calls)
			for _, tools := range []*schema.Set{set, nil} {
				res := dialects.Parse(d, text, &dialects.Options{Tools: tools})
				if len(res.Errors) > 0 || len(res.Calls) != len(calls) {
					t.Fatalf("tools %v: calls %v errors %v\n%s", tools != nil, res.Calls, res.Errors, text)
				}
				for i, c := range res.Calls {
					server, _ := toolcall.SplitName(calls[i].Name)
					if c.Name != calls[i].Name || c.Server != server {
						t.Errorf("tools %v: call %d named %q server %q, want %q server %q\n%s", tools != nil, i, c.Name, c.Server, calls[i].Name, server, text)
					}
				}
			}
			// The model names the tool without its server.
			short := r.Calls([]toolcall.Call{{Name: "create_issue", Arguments: json.RawMessage(`{"title":"Bug"}`)}})
			res := dialects.Parse(d, short, &dialects.Options{Tools: set})
			if len(res.Calls) != 1 || res.Calls[0].Name != "github___create_issue" || res.Calls[0].Server != "github" {
				t.Errorf("short name: calls %v errors %v\n%s", res.Calls, res.Errors, short)
			}
		})
	}
}
