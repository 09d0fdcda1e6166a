package registry_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestStreamFallback: a stream with a fallback chain gives the result
// Parse gives with the same options, cut every way, and never emits what
// that result contradicts. The named dialect's calls stream live (a call
// it starts rules the fallbacks out); a fallback's calls come with Close,
// after a Detected event naming it, since only the whole output says the
// named dialect found nothing; answer text streams as far as the readings
// agree.
func TestStreamFallback(t *testing.T) {
	hermesCall := "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_call>"
	for _, tt := range []struct {
		name, dialect string
		fallback      []string
		text          string
		want          string // the result's dialect
		live          bool   // the first call comes before Close
		before        string // content every cut has streamed before Close
	}{
		{"the named dialect finds a call", "hermes", []string{"json"}, "Checking.\n" + hermesCall + "\nDone.", "hermes", true, "Checking."},
		{"the second fallback finds a call", "mistral", []string{"pythonic", "hermes"}, "Hi there.\n" + hermesCall + "\nbye", "hermes", false, ""},
		{"a bare JSON call for json", "mistral", []string{"json"}, "Hi there: {\"name\": \"f\", \"arguments\": {\"a\": 1}} bye", "json", false, ""},
		{"a pythonic list for pythonic", "llama3_json", []string{"pythonic"}, "Calling now: [f(a=1)] ok", "pythonic", false, ""},
		{"nothing anywhere", "hermes", []string{"json", "pythonic"}, "Just an answer, no call at all.\nSecond line.", "hermes", false, "Just an answer,"},
		{"a failed call of the named dialect rules out the fallbacks", "hermes", []string{"hermes", "qwen3_coder"}, "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": }\n</tool_call>\nthen <tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call> end", "hermes", true, ""},
		{"the first fallback that finds a call wins", "mistral", []string{"qwen3_coder", "hermes"}, "Ok.\n" + hermesCall, "hermes", false, ""},
		{"reasoning before a fallback's call", "mistral", []string{"hermes"}, "<think>Let me see.</think>Sure.\n" + hermesCall, "hermes", false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := &registry.Options{Dialect: tt.dialect, Fallback: tt.fallback, ReasoningClosed: true}
			want := registry.Parse(tt.text, opts)
			if want.Dialect != tt.want {
				t.Fatalf("Parse reads it in %s, the test expects %s", want.Dialect, tt.want)
			}
			for i, cut := range streamtest.Cuts(tt.text, nil, false) {
				p := registry.Stream(opts)
				var live []stream.Event
				for _, c := range cut {
					live = append(live, p.Write(c)...)
				}
				evs := append(append([]stream.Event(nil), live...), p.Close()...)
				if err := streamtest.Compare(want, p, evs); err != nil {
					t.Fatalf("cut %d %q: %v", i, cut, err)
				}
				var content strings.Builder
				calledLive := false
				for _, ev := range live {
					switch ev.Kind {
					case stream.Content:
						content.WriteString(ev.Text)
					case stream.Call, stream.CallError:
						calledLive = true
					case stream.Detected:
						t.Fatalf("cut %d: detected %s before Close", i, ev.Dialect)
					}
				}
				if len(cut) > 1 && calledLive != tt.live {
					t.Errorf("cut %d %q: a call before Close: %v, want %v\n%s", i, cut, calledLive, tt.live, dump(live))
				}
				if len(cut) == len(tt.text) && !strings.HasPrefix(content.String(), tt.before) {
					t.Errorf("byte by byte: content before Close %q, want at least %q", content.String(), tt.before)
				}
				if tt.want != tt.dialect && evs[len(evs)-2].Kind == stream.Detected {
					t.Errorf("cut %d: Detected is not before the fallback's events", i)
				}
			}
		})
	}
}

func dump(evs []stream.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		fmt.Fprintf(&b, "  %v %d %q %q\n", ev.Kind, ev.Index, ev.Name, ev.Text)
	}
	return b.String()
}
