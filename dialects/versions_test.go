package dialects_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/schema"
)

// TestFinishVersions: a call is validated against the version the caller
// pins; a major mismatch is the call's coded error, and during a
// transition old arguments pass with a schema_migration repair.
func TestFinishVersions(t *testing.T) {
	set, err := schema.NewSet(
		toolcall.Tool{Name: "search", Version: "1.0.0", Parameters: json.RawMessage(`{"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}`)},
		toolcall.Tool{Name: "search", Version: "2.0.0", Parameters: json.RawMessage(`{"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}`)},
	)
	if err != nil {
		t.Fatal(err)
	}
	parse := func(args string, v *schema.VersionOptions) *toolcall.Result {
		ext := &dialects.Extraction{Calls: []dialects.RawCall{{Name: "search", Arguments: args, Offset: 0}}}
		return dialects.Finish("test", ext, &dialects.Options{Tools: set, Validation: schema.Options{Versions: v}})
	}
	if res := parse(`{"query": "go"}`, nil); !res.OK() {
		t.Errorf("newest: %v", res.Errors)
	}
	if res := parse(`{"q": "go"}`, &schema.VersionOptions{Pins: map[string]string{"search": "1"}}); !res.OK() {
		t.Errorf("pinned to 1: %v", res.Errors)
	}
	res := parse(`{"query": "go"}`, &schema.VersionOptions{Pins: map[string]string{"search": "3.1"}})
	if len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeVersionMismatch || res.Errors[0].CallIndex != 0 {
		t.Errorf("mismatch: %v", res.Errors)
	}
	res = parse(`{"q": "go"}`, &schema.VersionOptions{Transition: []string{"search"}})
	if !res.OK() || len(res.Calls) != 1 || len(res.Repairs) != 1 || res.Repairs[0].Kind != toolcall.RepairSchemaMigration || res.Repairs[0].CallIndex != 0 {
		t.Errorf("transition: calls %v repairs %v errors %v", res.Calls, res.Repairs, res.Errors)
	}
}
