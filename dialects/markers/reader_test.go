package markers_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markers"
)

// TestReaderSendsEarly feeds outputs in small deltas and checks when the
// Reader sends what it reads: answer text before the first marker as it
// arrives (its trailing whitespace held), and the first of two calls
// before the second call's name is written.
func TestReaderSendsEarly(t *testing.T) {
	two := func(first, second string) (string, string) { return first + second, second }
	rows := []struct {
		name    string
		d       *markers.Dialect
		text    string
		second  string // the text of the second call's name: the first call goes out before it ends
		content string // answer text sent before the first marker
	}{}
	add := func(name string, d *markers.Dialect, lead, first, second, secondName, tail string) {
		text, _ := two(lead+first, second+tail)
		rows = append(rows, struct {
			name    string
			d       *markers.Dialect
			text    string
			second  string
			content string
		}{name, d, text, secondName, strings.TrimSpace(lead)})
	}
	args := `{"city": "Paris"}`
	add("deepseek_v31", markers.DeepSeekV31, "Checking both. ", dsCalls+dsV31("get_weather", args), dsV31("get_time", args), "get_time", dsCallsEnd)
	add("deepseek_v3", markers.DeepSeekV3, "Checking both.\n", dsCalls+dsV3("get_weather", args), dsV3("get_time", args), "get_time", dsCallsEnd)
	add("kimi_k2", markers.KimiK2, "Checking both. ", kimiSection+kimi("functions.get_weather:0", args), kimi("functions.get_time:1", args), "get_time", kimiSectionEnd)
	add("mistral", markers.Mistral, "Checking both. ", "[TOOL_CALLS]get_weather[ARGS]"+args, "[TOOL_CALLS]get_time[ARGS]"+args, "get_time", "")
	add("functionary_v3_1", markers.FunctionaryV31, "Checking both. ", "<function=get_weather>"+args+"</function>", "<function=get_time>"+args+"</function>", "get_time", "")
	add("internlm2", markers.InternLM2, "Checking both. ", "<|action_start|><|plugin|>"+`{"name": "get_weather", "parameters": `+args+"}<|action_end|>",
		"<|action_start|><|plugin|>"+`{"name": "get_time", "parameters": `+args+"}<|action_end|>", `"get_time"`, "")
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			opts := &dialects.Options{ReasoningClosed: true}
			want := r.d.Extract(r.text, opts)
			if len(want.Calls) != 2 || want.Calls[0].Err != nil || want.Calls[1].Err != nil {
				t.Fatalf("the text reads as %+v", want.Calls)
			}
			nameEnd := strings.LastIndex(r.text, r.second) + len(r.second)
			rd := r.d.NewReader(opts)
			var content, early string
			firstAt := -1
			for at := 0; at < len(r.text); at += 4 {
				end := min(at+4, len(r.text))
				for _, p := range rd.Write(r.text[at:end]) {
					switch {
					case p.Kind == dialects.PieceContent:
						content += p.Text
					case p.Kind == dialects.PieceCall && p.Index == 0:
						firstAt = end
					}
				}
				if end <= len(r.content)+4 {
					early = content
				}
			}
			rd.Close()
			if early != r.content || content != r.content {
				t.Errorf("answer text sent as it came %q, before Close %q, want %q", early, content, r.content)
			}
			if firstAt < 0 || firstAt >= nameEnd {
				t.Errorf("the first call went out after %d bytes; the second call's name ends at %d", firstAt, nameEnd)
			}
		})
	}
}
