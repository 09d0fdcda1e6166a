package retry_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/schema"
)

// TestVersionPins: the tool versions the caller pins through Parse reach
// validation, and a pinned major no declared version has ends the run at
// once with TLP-025: the model cannot fix it.
func TestVersionPins(t *testing.T) {
	set, err := schema.NewSet(
		toolcall.Tool{Name: "get_weather", Version: "1.0.0", Parameters: json.RawMessage(`{"type":"object","properties":{"town":{"type":"string"}},"required":["town"]}`)},
		toolcall.Tool{Name: "get_weather", Version: "2.0.0", Parameters: weatherTool.Parameters},
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pin   string
		args  string
		code  toolcall.Code
		calls int
	}{
		{pin: "1", args: `{"town": "Paris"}`},
		{pin: "2", args: `{"city": "Paris"}`},
		{pin: "3", args: `{"city": "Paris"}`, code: toolcall.CodeVersionMismatch},
	} {
		m := &fakeModel{steps: []step{text(hermes("get_weather", tc.args)), text(hermes("get_weather", tc.args))}}
		loop, _ := newLoop(t, m, nil)
		loop.Tools = set
		loop.Parse.Validation.Versions = &schema.VersionOptions{Pins: map[string]string{"get_weather": tc.pin}}
		out, err := loop.Run(context.Background(), userTurn())
		if codeOf(err) != tc.code {
			t.Fatalf("pin %s: err %v, want %q", tc.pin, err, tc.code)
		}
		if m.calls() != 1 {
			t.Errorf("pin %s: %d model calls, want 1", tc.pin, m.calls())
		}
		if tc.code == "" && (out == nil || len(out.Result.Calls) != 1) {
			t.Errorf("pin %s: outcome %+v", tc.pin, out)
		}
	}
}
