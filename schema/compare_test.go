package schema_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dialectkit/toolcall/schema"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     []string // "kind path breaking"
	}{
		{name: "same", old: weatherV1, new: weatherV1},
		{name: "required added",
			old:  `{"type": "object", "properties": {"a": {"type": "string"}}}`,
			new:  `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["b"]}`,
			want: []string{"required_added /b true"}},
		{name: "optional made required",
			old:  `{"type": "object", "properties": {"a": {"type": "string"}}}`,
			new:  `{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}`,
			want: []string{"required_added /a true"}},
		{name: "optional added and required dropped",
			old:  `{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}`,
			new:  `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}`,
			want: []string{"required_removed /a false", "property_added /b false"}},
		{name: "type changed",
			old:  `{"type": "object", "properties": {"days": {"type": "string"}}}`,
			new:  `{"type": "object", "properties": {"days": {"type": "integer"}}}`,
			want: []string{"type_changed /days true"}},
		{name: "type widened",
			old:  `{"type": "object", "properties": {"days": {"type": "integer"}, "s": {"type": "string"}}}`,
			new:  `{"type": "object", "properties": {"days": {"type": "number"}, "s": {"type": ["string", "null"]}}}`,
			want: []string{"type_widened /days false", "type_widened /s false"}},
		{name: "property removed, extra allowed",
			old:  `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}`,
			new:  `{"type": "object", "properties": {"a": {"type": "string"}}}`,
			want: []string{"property_removed /b false"}},
		{name: "property removed, extra forbidden",
			old:  `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "additionalProperties": false}`,
			new:  `{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}`,
			want: []string{"property_removed /b true"}},
		{name: "extra closed",
			old:  `{"type": "object", "properties": {"a": {"type": "string"}}}`,
			new:  `{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}`,
			want: []string{"additional_closed  true"}},
		{name: "enum narrowed and widened",
			old:  `{"type": "object", "properties": {"u": {"type": "string", "enum": ["c", "f"]}}}`,
			new:  `{"type": "object", "properties": {"u": {"type": "string", "enum": ["c", "k"]}}}`,
			want: []string{"enum_narrowed /u true", "enum_widened /u false"}},
		{name: "nested object and array items",
			old:  `{"type": "object", "properties": {"addr": {"type": "object", "properties": {"zip": {"type": "string"}}}, "tags": {"type": "array", "items": {"type": "string"}}}}`,
			new:  `{"type": "object", "properties": {"addr": {"type": "object", "properties": {"zip": {"type": "integer"}}, "required": ["zip"]}, "tags": {"type": "array", "items": {"type": "integer"}}}}`,
			want: []string{"required_added /addr/zip true", "type_changed /addr/zip true", "type_changed /tags/* true"}},
		{name: "versions of the test tool",
			old: weatherV1, new: weatherV2,
			want: []string{"required_removed /city false", "property_removed /city false", "required_added /location true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := schema.Compare(json.RawMessage(tt.old), json.RawMessage(tt.new))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range changes {
				got = append(got, fmt.Sprintf("%s %s %v", c.Kind, c.Path, c.Breaking))
				if c.Message == "" {
					t.Errorf("%s has no message", c.Kind)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("changes\n got %v\nwant %v", got, tt.want)
			}
			breaking := 0
			for _, w := range tt.want {
				if w[len(w)-4:] == "true" {
					breaking++
				}
			}
			if len(schema.Breaking(changes)) != breaking {
				t.Errorf("Breaking gives %d, want %d", len(schema.Breaking(changes)), breaking)
			}
		})
	}
	if _, err := schema.Compare(json.RawMessage(`[1]`), json.RawMessage(`{}`)); err == nil {
		t.Error("an array schema compared without error")
	}
}

func ExampleCompare() {
	old := json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "string"}}}`)
	new := json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}, "unit": {"type": "string"}}, "required": ["unit"]}`)
	changes, _ := schema.Compare(old, new)
	for _, c := range schema.Breaking(changes) {
		fmt.Println(c.Path, c.Kind+":", c.Message)
	}
	// Output:
	// /days type_changed: type string changed to integer
	// /unit required_added: required property "unit" added
}
