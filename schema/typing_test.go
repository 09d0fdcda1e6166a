package schema

import (
	"slices"
	"strings"
	"testing"
)

const typingSchema = `{"type":"object","properties":{
	"order_id":{"type":"string"},
	"count":{"type":"integer"},
	"ratio":{"type":"number"},
	"replace_all":{"type":"boolean"},
	"note":{"type":["string","null"]},
	"limit":{"type":["integer","null"]},
	"config":{"type":"object"},
	"items":{"type":"array"},
	"unit":{"$ref":"#/$defs/Unit"},
	"size":{"enum":[1,2,3]},
	"mixed":{"anyOf":[{"type":"integer"},{"type":"boolean"}]}},
	"$defs":{"Unit":{"type":"string","enum":["C","F"]}}}`

func TestTypeText(t *testing.T) {
	tool := mustTool(t, "t", typingSchema)
	unions := mustTool(t, "u", `{"type":"object","properties":{
	"todos":{"anyOf":[{"type":"array"},{"type":"string"}]},
	"filter":{"type":["string","object"]}}}`)
	tests := []struct {
		name             string
		tool             *Tool
		key, text        string
		isString, isJSON bool
		want             string
		repaired         bool
	}{
		// The declared type decides (failure-modes F7).
		{name: "id stays text", tool: tool, key: "order_id", text: "00123", want: `"00123"`},
		{name: "string keeps true", tool: tool, key: "order_id", text: "true", want: `"true"`},
		{name: "string keeps spaces", tool: tool, key: "order_id", text: " a b ", want: `" a b "`},
		{name: "string keeps JSON-looking text", tool: tool, key: "order_id", text: `{"a":1}`, want: `"{\"a\":1}"`},
		{name: "false for a boolean", tool: tool, key: "replace_all", text: "false", want: `false`, repaired: true},
		{name: "Python True for a boolean", tool: tool, key: "replace_all", text: " True\n", want: `true`, repaired: true},
		{name: "yes is not a boolean", tool: tool, key: "replace_all", text: "yes", want: `"yes"`},
		{name: "integer", tool: tool, key: "count", text: "5", want: `5`, repaired: true},
		{name: "signed integer", tool: tool, key: "count", text: "+5", want: `5`, repaired: true},
		{name: "integral float for an integer", tool: tool, key: "count", text: "5.0", want: `5`, repaired: true},
		{name: "leading zeros for an integer", tool: tool, key: "count", text: "007", want: `7`, repaired: true},
		{name: "fraction for an integer stays a number", tool: tool, key: "count", text: "5.5", want: `5.5`, repaired: true},
		{name: "hex is text", tool: tool, key: "count", text: "0x10", want: `"0x10"`},
		{name: "word is text", tool: tool, key: "count", text: "five", want: `"five"`},
		{name: "number", tool: tool, key: "ratio", text: "0.25", want: `0.25`, repaired: true},
		{name: "NaN is text", tool: tool, key: "ratio", text: "NaN", want: `"NaN"`},
		{name: "null for a nullable string", tool: tool, key: "note", text: "null", want: `null`, repaired: true},
		{name: "text for a nullable string", tool: tool, key: "note", text: "hello", want: `"hello"`},
		{name: "None for a nullable integer", tool: tool, key: "limit", text: "None", want: `null`, repaired: true},
		{name: "number for a nullable integer", tool: tool, key: "limit", text: "10", want: `10`, repaired: true},
		{name: "object", tool: tool, key: "config", text: `{"a": 1}`, want: `{"a": 1}`, repaired: true},
		{name: "loose object", tool: tool, key: "config", text: `{'a': True}`, want: `{"a":true}`, repaired: true},
		{name: "array", tool: tool, key: "items", text: `[1, 2]`, want: `[1, 2]`, repaired: true},
		{name: "not JSON for an array", tool: tool, key: "items", text: `a, b`, want: `"a, b"`},
		{name: "$ref string", tool: tool, key: "unit", text: "5", want: `"5"`},
		{name: "enum infers integer", tool: tool, key: "size", text: "2", want: `2`, repaired: true},
		{name: "anyOf union", tool: tool, key: "mixed", text: "false", want: `false`, repaired: true},
		{name: "array or string takes a JSON array", tool: unions, key: "todos", text: ` [{"id": "1"}] `, want: `[{"id": "1"}]`, repaired: true},
		{name: "array or string keeps other text", tool: unions, key: "todos", text: `buy milk`, want: `"buy milk"`},
		{name: "array or string keeps an object", tool: unions, key: "todos", text: `{"a":1}`, want: `"{\"a\":1}"`},
		{name: "array or string keeps broken JSON", tool: unions, key: "todos", text: `[1, 2`, want: `"[1, 2"`},
		{name: "string or object takes a JSON object", tool: unions, key: "filter", text: `{"a":1}`, want: `{"a":1}`, repaired: true},

		// Marks from the dialect win.
		{name: "isString", tool: tool, key: "count", text: "5", isString: true, want: `"5"`},
		{name: "isJSON", tool: tool, key: "order_id", text: "[1]", isJSON: true, want: `[1]`},
		{name: "isJSON repaired", tool: tool, key: "order_id", text: "{'a': 1}", isJSON: true, want: `{"a":1}`},
		{name: "isJSON invalid stays text", tool: tool, key: "order_id", text: "", isJSON: true, want: `""`},

		// Without a declared type, JSON other than a bare string is JSON.
		{name: "no tool number", key: "x", text: "5", want: `5`, repaired: true},
		{name: "no tool boolean", key: "x", text: "true", want: `true`, repaired: true},
		{name: "no tool array", key: "x", text: " [1,2] ", want: `[1,2]`, repaired: true},
		{name: "no tool leading zeros is text", key: "x", text: "00123", want: `"00123"`},
		{name: "no tool quoted text stays text", key: "x", text: `"hi"`, want: `"\"hi\""`},
		{name: "no tool text", key: "x", text: "Paris", want: `"Paris"`},
		{name: "undeclared key", tool: tool, key: "other", text: "5", want: `5`, repaired: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, r := TypeText(tt.tool, tt.key, tt.text, tt.isString, tt.isJSON)
			if string(got) != tt.want {
				t.Errorf("TypeText(%q, %q) = %s, want %s", tt.key, tt.text, got, tt.want)
			}
			if (r != nil) != tt.repaired {
				t.Errorf("repair = %v, want one: %v", r, tt.repaired)
			}
			if r == nil {
				return
			}
			value := strings.TrimSpace(tt.text)
			leaks := !slices.Contains(jsonTypes, value) && strings.Contains(r.Detail, value)
			if !strings.HasPrefix(r.Detail, "/"+tt.key+": text→") || leaks {
				t.Errorf("repair detail %q", r.Detail)
			}
		})
	}
}
