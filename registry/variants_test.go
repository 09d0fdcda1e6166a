package registry_test

import (
	"testing"

	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestVariantsDetected reads the variants the engines read beside their
// families' main syntax (LongCat's tagged arguments and reasoning, escaped
// line breaks between Qwen3-Coder's tags, Cohere2MoE's framing) with no
// dialect named: detection must name the family, and the stream, cut
// anywhere, must give the one-shot result.
func TestVariantsDetected(t *testing.T) {
	rows := []struct {
		name, text, dialect, content, reasoning string
		calls                                   []string
		chunks                                  []string
	}{
		{
			name:    "longcat tagged arguments",
			text:    "<longcat_tool_call>get_weather\n<longcat_arg_key>city</longcat_arg_key>\n<longcat_arg_value>Tokyo</longcat_arg_value>\n</longcat_tool_call>",
			dialect: "longcat", calls: []string{`get_weather{"city":"Tokyo"}`},
			chunks: []string{"<longcat_tool", "_call>get_weather\n<longcat_arg_key>city</longcat_arg_key>\n<longcat_arg_value>Tokyo</longcat_arg_value>\n</longcat_tool_call>"},
		},
		{
			name:    "longcat reasoning, then its JSON form",
			text:    "<longcat_think>Weather.</longcat_think>\n<longcat_tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}</longcat_tool_call>",
			dialect: "longcat", reasoning: "Weather.", calls: []string{`get_weather{"city":"Tokyo"}`},
			chunks: []string{"<longcat_th", "ink>Weather.</longcat_think>\n<longcat_tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}</longcat_tool_call>"},
		},
		{
			name:    "longcat reasoning the template opened, and an answer",
			text:    "Just a greeting.</longcat_think>\nHello there.",
			dialect: "longcat", reasoning: "Just a greeting.", content: "Hello there.",
			chunks: []string{"Just a greeting.</longcat_", "think>\nHello there."},
		},
		{
			name:    "qwen3_coder with escaped line breaks",
			text:    `<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>`,
			dialect: "qwen3_coder", calls: []string{`get_weather{"city":"Tokyo"}`},
			chunks: []string{`<tool_call>\`, `n<function=get_weather>\n<parameter=city>\nTokyo\`, `n</parameter>\n</function>\n</tool_call>`},
		},
		{
			name:    "cohere2moe: reasoning the template opened, the Action label, the end of sequence",
			text:    "I need the weather.<|END_THINKING|>Action: <|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Tokyo\"}}]<|END_ACTION|></s>",
			dialect: "cohere", reasoning: "I need the weather.", calls: []string{`get_weather{"city":"Tokyo"}`},
			chunks: []string{"I need the weather.<|END_THI", "NKING|>Action: <|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Tokyo\"}}]<|END_ACTION|></", "s>"},
		},
		{
			name:    "cohere: an answer framed and nothing else",
			text:    "<|CHATBOT_TOKEN|><|START_RESPONSE|>Hello there.<|END_RESPONSE|><|END_OF_TURN_TOKEN|>",
			dialect: "cohere", content: "Hello there.",
			chunks: []string{"<|CHATBOT_TOKEN|><|START_RESP", "ONSE|>Hello there.<|END_RESPONSE|><|END_OF_TURN_TOKEN|>"},
		},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			res := registry.Parse(r.text, &registry.Options{})
			if res.Dialect != r.dialect {
				t.Fatalf("dialect %q, want %q", res.Dialect, r.dialect)
			}
			var got []string
			for _, c := range res.Calls {
				got = append(got, c.Name+string(c.Arguments))
			}
			if len(got) != len(r.calls) {
				t.Fatalf("calls %v, want %v (errors %v)", got, r.calls, res.Errors)
			}
			for i := range got {
				if got[i] != r.calls[i] {
					t.Errorf("call %d: %s, want %s", i, got[i], r.calls[i])
				}
			}
			if res.Content != r.content || res.Reasoning != r.reasoning {
				t.Errorf("content %q reasoning %q, want %q and %q", res.Content, res.Reasoning, r.content, r.reasoning)
			}
			if len(res.Errors) > 0 {
				t.Errorf("errors %v", res.Errors)
			}
			err := streamtest.CheckCuts(res, func() *stream.Parser { return registry.Stream(&registry.Options{}) }, r.text, r.chunks, false)
			if err != nil {
				t.Errorf("stream: %v", err)
			}
		})
	}
}
