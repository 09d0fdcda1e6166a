package registry_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
)

// TestFencedCallFailingItsSchemaKeepsItsError: a fence holding a call to a
// declared tool whose arguments fail the schema is that call, failed, under
// detection as when named: its error (what a retry needs) is reported, and
// the fence does not become content.
func TestFencedCallFailingItsSchemaKeepsItsError(t *testing.T) {
	set, err := schema.NewSet(toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"```json\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Paris\"}}\n```",
		"Sure:\n```json\n[{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Paris\"}}]\n```\nDone.",
	} {
		opts := &registry.Options{}
		opts.Tools = set
		res, det := registry.Default().ParseDetect(text, opts)
		if len(res.Calls) != 0 || len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeSchema {
			t.Errorf("%q: detected %q (%s): calls %v, errors %v", text, det.Dialect, det.Reason, res.Calls, res.Errors)
		}
		if det.Dialect != "markdown_json" {
			t.Errorf("%q: detected %q, want markdown_json", text, det.Dialect)
		}
	}
}
