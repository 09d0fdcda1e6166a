package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/registry"
)

// TestHostileInputs runs detection (every registered dialect) over inputs
// built to break scanners: each must come back with valid calls and coded
// errors only. Time is measured by the benchmarks, not asserted here.
func TestHostileInputs(t *testing.T) {
	ins := map[string]string{
		"deep braces":     strings.Repeat("{", 20000),
		"deep arrays":     strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		"many calls":      strings.Repeat(`{"name": "a", "arguments": {}}`, 2000),
		"many tagged":     strings.Repeat(`<tool_call>{"name": "a", "arguments": {}}</tool_call>`, 2000),
		"repeated marker": strings.Repeat("<tool_call>", 20000),
		"quotes":          strings.Repeat(`"\`, 20000),
		"open calls":      strings.Repeat("f(", 10000),
		"binary":          strings.Repeat("\x00\xff\xfe<|", 20000),
		"unclosed fences": strings.Repeat("```json\n{\n", 5000),
		"special tokens":  strings.Repeat("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>", 5000),
		"harmony headers": strings.Repeat("<|start|>assistant<|channel|>commentary to=functions.", 5000),
		"invalid utf8":    strings.Repeat("\xc3\x28<tool_call>{\"name\": \"\xff\"}", 3000),
		"python list":     "[" + strings.Repeat("f(a=1), ", 2000) + "]",
	}
	for name, in := range ins {
		t.Run(name, func(t *testing.T) {
			res := registry.Parse(in, nil)
			for _, c := range res.Calls {
				if !json.Valid(c.Arguments) || c.Arguments[0] != '{' {
					t.Errorf("call %s has arguments %q", c.Name, c.Arguments)
				}
			}
			for _, e := range res.Errors {
				if e.Code == "" {
					t.Errorf("uncoded error %v", e)
				}
			}
		})
	}
}
