package schema

import (
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
)

func TestTypeAliases(t *testing.T) {
	tests := []struct {
		name, params string
		aliases      []string // notes expected, in order
		args         string   // arguments that must validate
		bad          string   // arguments that must not
	}{
		{"python spellings",
			`{"type":"dict","properties":{"x":{"type":"float"},"n":{"type":"int"},"ok":{"type":"bool"},"tags":{"type":"list","items":{"type":"str"}}}}`,
			[]string{`/: type "dict" read as "object"`, `/properties/x: type "float" read as "number"`,
				`/properties/n: type "int" read as "integer"`, `/properties/ok: type "bool" read as "boolean"`,
				`/properties/tags: type "list" read as "array"`, `/properties/tags/items: type "str" read as "string"`},
			`{"x":1.5,"n":2,"ok":true,"tags":["a"]}`, `{"n":2.5}`},
		{"double and a type list",
			`{"type":"object","properties":{"d":{"type":["double","null"]}}}`,
			[]string{`/properties/d: type "double" read as "number"`},
			`{"d":0.25}`, `{"d":"0.25"}`},
		{"upper case JSON types",
			`{"type":"OBJECT","properties":{"city":{"type":"STRING"}}}`,
			[]string{`/: type "OBJECT" read as "object"`, `/properties/city: type "STRING" read as "string"`},
			`{"city":"Oslo"}`, `{"city":1}`},
		{"a property named type and data keywords are left alone",
			`{"type":"object","properties":{"type":{"type":"str","enum":["int","float"]},"cfg":{"type":"object","default":{"type":"int"}}}}`,
			[]string{`/properties/type: type "str" read as "string"`},
			`{"type":"int"}`, `{"type":"bool"}`},
		{"nested combinators and defs",
			`{"type":"object","properties":{"v":{"anyOf":[{"type":"int"},{"$ref":"#/$defs/s"}]}},"$defs":{"s":{"type":"str"}}}`,
			[]string{`/properties/v/anyOf/0: type "int" read as "integer"`, `/$defs/s: type "str" read as "string"`},
			`{"v":"x"}`, `{"v":1.5}`},
		{"no alias", `{"type":"object","properties":{"a":{"type":"string"}}}`, nil, `{"a":"x"}`, `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, err := NewTool(toolcall.Tool{Name: "f", Parameters: []byte(tt.params)})
			if err != nil {
				t.Fatalf("NewTool: %v", err)
			}
			if got := tool.TypeAliases(); !slices.Equal(got, tt.aliases) {
				t.Errorf("TypeAliases() = %q, want %q", got, tt.aliases)
			}
			if string(tool.Parameters) != tt.params {
				t.Errorf("Parameters changed: %s", tool.Parameters)
			}
			if _, _, e := tool.validate([]byte(tt.args), Options{}); e != nil {
				t.Errorf("Validate(%s): %v", tt.args, e)
			}
			if _, _, e := tool.validate([]byte(tt.bad), Options{}); e == nil {
				t.Errorf("Validate(%s) passed", tt.bad)
			}
		})
	}
}

func TestSetTypeAliases(t *testing.T) {
	set, err := NewSet(
		toolcall.Tool{Name: "a", Parameters: []byte(`{"type":"object","properties":{"x":{"type":"float"}}}`)},
		toolcall.Tool{Name: "b", Parameters: []byte(`{"type":"object","properties":{"y":{"type":"string"}}}`)},
	)
	if err != nil {
		t.Fatal(err)
	}
	got := set.TypeAliases()
	if len(got) != 1 || !strings.HasPrefix(got[0], `tool "a": /properties/x`) {
		t.Errorf("TypeAliases() = %q", got)
	}
	// An unknown type that is no alias still rejects the tool.
	if _, err := NewTool(toolcall.Tool{Name: "c", Parameters: []byte(`{"type":"object","properties":{"x":{"type":"strnig"}}}`)}); err == nil {
		t.Error("a misspelt type was accepted")
	}
}
