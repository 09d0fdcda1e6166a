package harmony_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/harmony"
)

// FuzzParse checks that any output parses without panic into valid JSON
// arguments and coded errors.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Tokyo"}<|call|>`,
		` to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{"city": "Tokyo"}`,
		"<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final<|message|>ok<|return|>",
		`<|start|>assistant to=functions.x<|end|>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		res := dialects.Parse(harmony.Dialect, text, nil)
		for _, c := range res.Calls {
			if !json.Valid(c.Arguments) || len(c.Arguments) == 0 || c.Arguments[0] != '{' {
				t.Fatalf("arguments %q are not a JSON object", c.Arguments)
			}
		}
		for _, e := range res.Errors {
			if e.Code == "" {
				t.Fatalf("uncoded error %v", e)
			}
		}
	})
}
