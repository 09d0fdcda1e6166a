package schema

import (
	"encoding/json"
	"testing"

	"github.com/kaptinlin/jsonschema"
)

// The strict variant of weatherSchema, so that the library alone rejects
// the same extra property strict mode does.
const weatherSchemaClosed = `{"type":"object","properties":{
	"city":{"type":"string","minLength":1},
	"days":{"type":"integer","minimum":1,"maximum":14},
	"unit":{"type":"string","enum":["C","F"]}},
	"required":["city","days"],"additionalProperties":false}`

var (
	benchValid   = []byte(`{"city":"Paris","days":3,"unit":"C"}`)
	benchInvalid = []byte(`{"days":30,"unit":"K","extra":1}`)
	benchCoerce  = []byte(`{"city":"Paris","days":"3","unit":"C"}`)
)

// BenchmarkValidate measures Tool.Validate on a 3-property schema next to
// the library's ValidateJSON on the same schema (closed with
// additionalProperties: false, which is what strict mode adds) and input,
// in the same run: compare .../schema with .../library.
func BenchmarkValidate(b *testing.B) {
	tool := mustTool(b, "weather", weatherSchema)
	library, err := jsonschema.NewCompiler().Compile([]byte(weatherSchemaClosed))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []byte
		opts Options
		ok   bool
	}{
		{"valid", benchValid, Options{}, true},
		{"invalid", benchInvalid, Options{}, false},
		{"coerce", benchCoerce, Options{Coerce: true}, true},
	} {
		b.Run(c.name+"/schema", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := tool.validate(json.RawMessage(c.args), c.opts); (err == nil) != c.ok {
					b.Fatal(err)
				}
			}
		})
		if c.opts.Coerce {
			continue // the library does not coerce
		}
		b.Run(c.name+"/library", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if library.ValidateJSON(c.args).IsValid() != c.ok {
					b.Fatal("unexpected result")
				}
			}
		})
	}
}
