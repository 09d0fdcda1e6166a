package gemma_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/gemma"
)

// FuzzParse checks that any output parses without panic into valid JSON
// arguments and coded errors.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`<|tool_call>call:get_weather{location:<|"|>London<|"|>}<tool_call|>`,
		`<|channel>thought` + "\n" + `x<channel|><|tool_call>call:f{a:{b:[1,2,<|"|>x<|"|>]},c:'it's'}<tool_call|>`,
		`<start_function_call>call:f{a:<escape>x<escape>,b:1.5,c:"q\"\u00e9"}<end_function_call>`,
		`<|tool_call>call:run{code:print({"a": 1})}<tool_call|>`,
		`<|tool_call>call:f{a:<|"|>x}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, d := range gemma.All() {
			res := dialects.Parse(d, text, nil)
			for _, c := range res.Calls {
				if !json.Valid(c.Arguments) || len(c.Arguments) == 0 || c.Arguments[0] != '{' {
					t.Fatalf("%s: arguments %q are not a JSON object", d.Name(), c.Arguments)
				}
			}
			for _, e := range res.Errors {
				if e.Code == "" {
					t.Fatalf("%s: uncoded error %v", d.Name(), e)
				}
			}
		}
	})
}
