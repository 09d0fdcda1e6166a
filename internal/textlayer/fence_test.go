package textlayer_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/textlayer"
)

func TestFenceAt(t *testing.T) {
	tests := []struct {
		text, lang, body string
		closed           bool
	}{
		{"```json\n{\"a\": 1}\n```", "json", "{\"a\": 1}\n", true},
		{"```\n{}\n```", "", "{}\n", true},
		{"```JSON  \r\n{}```", "json", "{}", true},
		{"```json {\"a\": 1}```", "json", " {\"a\": 1}", true},
		{"````xml\n<x/>\n````", "xml", "<x/>\n", true},
		{"```json\n{\"a\": ", "json", "{\"a\": ", false},
	}
	for _, tt := range tests {
		f := textlayer.FenceAt(tt.text, 0, len(tt.text))
		if f.Info != tt.lang || tt.text[f.BodyStart:f.BodyEnd] != tt.body || f.Closed != tt.closed {
			t.Errorf("%q: lang %q body %q closed %v", tt.text, f.Info, tt.text[f.BodyStart:f.BodyEnd], f.Closed)
		}
		if tt.closed && f.End != len(tt.text) {
			t.Errorf("%q: end %d, want %d", tt.text, f.End, len(tt.text))
		}
	}
}

func TestFenceOpenBefore(t *testing.T) {
	text := "text\n```xml\n  <tool_call>"
	at := strings.Index(text, "<tool_call>")
	if got := textlayer.FenceOpenBefore(text, 0, at); got != strings.Index(text, "```") {
		t.Errorf("got %d", got)
	}
	if got := textlayer.FenceOpenBefore("plain <tool_call>", 0, 6); got != -1 {
		t.Errorf("got %d, want -1", got)
	}
	if got := textlayer.FenceOpenBefore("```<x>", 1, 3); got != -1 {
		t.Errorf("fence before the floor: got %d, want -1", got)
	}
}
