package probe_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/probe"
)

func TestDefaultBattery(t *testing.T) {
	b := probe.DefaultBattery()
	ids := []string{"single", "parallel", "nested", "no_call", "long_string", "careful_name"}
	if len(b.Prompts) != len(ids) || len(b.Tools) != 4 || b.System == "" {
		t.Fatalf("battery: %d prompts, %d tools", len(b.Prompts), len(b.Tools))
	}
	for i, id := range ids {
		if b.Prompts[i].ID != id || b.Prompts[i].Kind == "" {
			t.Errorf("prompt %d: %+v", i, b.Prompts[i])
		}
	}
	if p, _ := b.Prompt("no_call"); p.WantsCall() {
		t.Error("no_call wants a call")
	}
	if p, _ := b.Prompt("careful_name"); !strings.Contains(p.Expect[0].Name, "-") {
		t.Error("careful_name's tool has no hyphen")
	}
	// The battery round-trips through its JSON form.
	data, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	again, err := probe.ParseBattery(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Prompts) != len(b.Prompts) || again.Set().Len() != 4 {
		t.Errorf("round trip: %d prompts, %d tools", len(again.Prompts), again.Set().Len())
	}
	if _, err := probe.ParseBattery(probe.DefaultBatteryJSON()); err != nil {
		t.Error(err)
	}
}

func TestParseBatteryErrors(t *testing.T) {
	tool := `{"name": "f", "parameters": {"type": "object"}}`
	tests := []struct {
		name, in string
		code     toolcall.Code
	}{
		{"not json", `[1, 2`, toolcall.CodeInvalidInput},
		{"no tools", `{"prompts": [{"id": "a", "prompt": "x", "expect": []}]}`, toolcall.CodeInvalidInput},
		{"bad tool", `{"tools": [{"description": "no name"}], "prompts": []}`, toolcall.CodeInvalidTool},
		{"no prompts", `{"tools": [` + tool + `], "prompts": []}`, toolcall.CodeInvalidInput},
		{"no id", `{"tools": [` + tool + `], "prompts": [{"prompt": "x"}]}`, toolcall.CodeInvalidInput},
		{"duplicate id", `{"tools": [` + tool + `], "prompts": [{"id": "a", "prompt": "x"}, {"id": "a", "prompt": "y"}]}`, toolcall.CodeInvalidInput},
		{"no text", `{"tools": [` + tool + `], "prompts": [{"id": "a", "prompt": " "}]}`, toolcall.CodeInvalidInput},
		{"undeclared tool", `{"tools": [` + tool + `], "prompts": [{"id": "a", "prompt": "x", "expect": [{"name": "g"}]}]}`, toolcall.CodeInvalidInput},
		{"arguments not an object", `{"tools": [` + tool + `], "prompts": [{"id": "a", "prompt": "x", "expect": [{"name": "f", "arguments": [1]}]}]}`, toolcall.CodeInvalidInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := probe.ParseBattery([]byte(tt.in))
			var e *toolcall.Error
			if !errors.As(err, &e) || e.Code != tt.code {
				t.Errorf("err = %v, want %s", err, tt.code)
			}
		})
	}
}

func TestMatchCalls(t *testing.T) {
	p := probe.Prompt{ID: "x", Text: "x", Expect: []probe.ExpectedCall{
		{Name: "get_weather", Arguments: json.RawMessage(`{"city": "Tokyo", "days": 3}`)},
		{Name: "get_weather", Arguments: json.RawMessage(`{"city": "Lima", "days": 3}`)},
		{Name: "search", Arguments: json.RawMessage(`{"include": ["*.go", "*.md"], "options": {"case": true}}`)},
	}}
	call := func(name, args string) toolcall.Call {
		return toolcall.Call{Name: name, Arguments: json.RawMessage(args)}
	}
	tests := []struct {
		name  string
		calls []toolcall.Call
		want  probe.Match
	}{
		{"exact, other order", []toolcall.Call{
			call("search", `{"query": "q", "include": ["*.md", "*.go"], "options": {"case": true, "path": "src"}}`),
			call("get_weather", `{"city": " lima ", "days": 3.0}`),
			call("get_weather", `{"city": "Tokyo", "days": 3, "unit": "celsius"}`),
		}, probe.Match{Names: true, Arguments: true}},
		{"wrong value", []toolcall.Call{
			call("search", `{"include": ["*.go", "*.md"], "options": {"case": false}}`),
			call("get_weather", `{"city": "Lima", "days": 3}`),
			call("get_weather", `{"city": "Tokyo", "days": 3}`),
		}, probe.Match{Names: true}},
		{"same call twice", []toolcall.Call{
			call("search", `{"include": ["*.go", "*.md"], "options": {"case": true}}`),
			call("get_weather", `{"city": "Lima", "days": 3}`),
			call("get_weather", `{"city": "Lima", "days": 3}`),
		}, probe.Match{Names: true}},
		{"array of another length", []toolcall.Call{
			call("search", `{"include": ["*.go"], "options": {"case": true}}`),
			call("get_weather", `{"city": "Lima", "days": 3}`),
			call("get_weather", `{"city": "Tokyo", "days": 3}`),
		}, probe.Match{Names: true}},
		{"missing call", []toolcall.Call{call("get_weather", `{"city": "Lima"}`)}, probe.Match{}},
		{"none", nil, probe.Match{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.MatchCalls(tt.calls); got != tt.want {
				t.Errorf("MatchCalls = %+v, want %+v", got, tt.want)
			}
		})
	}
	none := probe.Prompt{ID: "n", Text: "n"}
	if m := none.MatchCalls(nil); !m.Names || !m.Arguments {
		t.Errorf("no call wanted, none made: %+v", m)
	}
	if m := none.MatchCalls([]toolcall.Call{call("f", `{}`)}); m.Names {
		t.Errorf("no call wanted, one made: %+v", m)
	}
}
