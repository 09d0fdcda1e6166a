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
		{"~~~json\n{}\n~~~", "json", "{}\n", true},
		{"~~~\n{}\n```\n~~~", "", "{}\n```\n", true}, // closed by a run of its own byte
		{"```\n{}\n~~~\n```", "", "{}\n~~~\n", true},
		{"~~~json\n{}\n~", "json", "{}\n", false},
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

func TestIsFenceAt(t *testing.T) {
	for _, tc := range []struct {
		text string
		at   int
		want bool
	}{
		{"```json", 0, true},
		{"say ```json", 4, true}, // a backtick run opens a fence inside a line
		{"~~~json", 0, true},
		{"x\n   ~~~json", 5, true},
		{"x\n    ~~~json", 6, false}, // indented four spaces: code, no fence
		{"say ~~~json", 4, false},    // a tilde run opens one only at its line's start
		{"~~json", 0, false},
		{"``json", 0, false},
		{"~`~", 0, false},
	} {
		if got := textlayer.IsFenceAt(tc.text, tc.at, len(tc.text)); got != tc.want {
			t.Errorf("IsFenceAt(%q, %d) = %v, want %v", tc.text, tc.at, got, tc.want)
		}
	}
	for _, tc := range []struct {
		text string
		want int
	}{
		{"a `` b ~~~ c\n~~~json", 13},
		{"a `` b ```", 7},
		{"~~ ``", -1},
	} {
		if got := textlayer.IndexFence(tc.text, 0, len(tc.text)); got != tc.want {
			t.Errorf("IndexFence(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
	for _, tc := range []struct {
		line string
		want bool
	}{{"```json", true}, {"  ~~~", true}, {"~~", false}, {"x```", false}} {
		if got := textlayer.FenceLine(tc.line); got != tc.want {
			t.Errorf("FenceLine(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestInfoAt(t *testing.T) {
	for _, tc := range []struct {
		text  string
		final bool
		info  string
		known bool
	}{
		{"```jso", false, "jso", false},
		{"```jso", true, "jso", true},
		{"```json\n", false, "json", true},
		{"~~~tool_calls ", false, "tool_calls", true},
		{"```", false, "", false},
	} {
		info, known := textlayer.InfoAt(tc.text, 3, tc.final)
		if info != tc.info || known != tc.known {
			t.Errorf("InfoAt(%q, %v) = %q, %v; want %q, %v", tc.text, tc.final, info, known, tc.info, tc.known)
		}
	}
}

// A FenceScan closes a fence where FenceAt does, tildes as backticks,
// however its text arrives.
func TestFenceScanTildes(t *testing.T) {
	for _, text := range []string{"~~~json\n{}\n~~~\nafter", "~~~\n```\n~~~~\nafter", "```\n~~~\n```\nafter"} {
		want := textlayer.FenceAt(text, 0, len(text))
		for cut := 1; cut < len(text); cut++ {
			var s textlayer.FenceScan
			f, ok := s.Next(text[:cut], false)
			if !ok {
				f, ok = s.Next(text, false)
			}
			if !ok || f != want {
				t.Errorf("%q cut at %d: %+v %v, want %+v", text, cut, f, ok, want)
			}
		}
	}
	if got := textlayer.FenceOpenBefore("~~~json\n{", 0, 8); got != 0 {
		t.Errorf("FenceOpenBefore after a tilde fence = %d, want 0", got)
	}
	if got := textlayer.FenceOpenBefore("so ~~~json\n{", 0, 11); got != -1 {
		t.Errorf("FenceOpenBefore after tildes inside a line = %d, want -1", got)
	}
}

// FenceScan.Body, read after each byte of a fence arrives, starts where
// FenceAt's body does and never passes its closing run: what it says is
// body is body, however the fence then goes on; and a body that holds
// no byte of the fence's run is known to be body as soon as it arrives.
func TestFenceScanBody(t *testing.T) {
	for _, text := range []string{
		"```json\n{\"a\": 1}\n```\nafter",
		"~~~\n``` not a close\n~~~~\nafter",
		"```json {\"a\": \"``\"}\n``\n```",
		"```\nx ``` y\n``",
		"````tool_call\n[{}]\n```\n````",
	} {
		want := textlayer.FenceAt(text, 0, len(text))
		var s textlayer.FenceScan
		known := 0
		for n := 1; n <= len(text); n++ {
			if _, ok := s.Next(text[:n], false); ok {
				break
			}
			start, k, ok := s.Body()
			if !ok {
				continue
			}
			if start != want.BodyStart || k > want.BodyEnd || k < known {
				t.Errorf("%q after %d bytes: body from %d known to %d (before %d); FenceAt's body %d to %d", text, n, start, k, known, want.BodyStart, want.BodyEnd)
			}
			known = k
			if n < want.BodyEnd && !strings.Contains(text[start:n], text[:1]) && k != n {
				t.Errorf("%q after %d bytes: known to %d, want %d", text, n, k, n)
			}
		}
	}
}

func TestCloseRunAt(t *testing.T) {
	for _, c := range []struct {
		text string
		i    int
		ch   byte
		end  int
		ok   bool
	}{
		{"```", 0, '`', 3, true},
		{"x````\n", 1, '`', 5, true},
		{"~~~", 0, '~', 3, true},
		{"~~~", 0, '`', 0, false}, // a run of tildes closes no backtick fence
		{"``", 0, '`', 0, false},
		{"```", 0, 'x', 0, false},
	} {
		end, ok := textlayer.CloseRunAt(c.text, c.i, c.ch)
		if ok != c.ok || ok && end != c.end {
			t.Errorf("CloseRunAt(%q, %d, %q) = %d, %v; want %d, %v", c.text, c.i, c.ch, end, ok, c.end, c.ok)
		}
	}
	for _, c := range []struct {
		text string
		want bool
	}{
		{"`", true}, {"~~", true}, {"```", false}, {"`~", false}, {"", false}, {"x", false},
	} {
		if got := textlayer.CutInRun(c.text, 0); got != c.want {
			t.Errorf("CutInRun(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
