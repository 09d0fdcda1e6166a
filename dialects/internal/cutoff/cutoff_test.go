package cutoff

import (
	"testing"

	"github.com/dialectkit/toolcall"
)

func TestMarker(t *testing.T) {
	for _, tc := range []struct {
		rest    string
		markers []string
		want    bool
	}{
		{"</tool_ca", []string{"</tool_call>"}, true},
		{"\n  </", []string{"</tool_call>"}, true},
		{"</tool_call>", []string{"</tool_call>"}, false}, // whole, not cut
		{"", []string{"</tool_call>"}, false},
		{"  \n", []string{"</tool_call>"}, false},
		{"</tool_cal x", []string{"</tool_call>"}, false},
		{"<|ca", []string{"<|end|>", "<|call|>"}, true},
		{"<|x", []string{"<|end|>", "<|call|>"}, false},
	} {
		if got := Marker(tc.rest, tc.markers...); got != tc.want {
			t.Errorf("Marker(%q, %q) = %v, want %v", tc.rest, tc.markers, got, tc.want)
		}
	}
}

func TestConvert(t *testing.T) {
	e := toolcall.NewError(toolcall.CodeMalformedCall, "the call header has no end")
	e.Offset, e.Raw, e.Tool = 7, "[TOOL_CALLS]f[AR", "f"
	c := Convert(e)
	if c.Code != toolcall.CodeTruncated || c.Offset != 7 || c.Raw != e.Raw || c.Tool != "f" ||
		c.Message != "the output ends inside the call: the call header has no end" {
		t.Errorf("Convert = %+v", c)
	}
	if Convert(nil) != nil {
		t.Error("Convert(nil) is not nil")
	}
	if cut := Error("inside a call header"); Convert(cut) != cut || cut.Code != toolcall.CodeTruncated {
		t.Error("a TLP-014 error converts to itself")
	}
}
