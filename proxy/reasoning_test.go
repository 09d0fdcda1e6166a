package proxy_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
	"github.com/dialectkit/toolcall/registry"
)

// Chat templates by where they leave the output: inside a block they
// opened (DeepSeek-R1), outside any (Llama 3), or up to their variables
// (QwQ: opened, then closed when thinking is off).
const (
	templateOpens   = `{% for message in messages %}{{ message['content'] }}{% endfor %}{% if add_generation_prompt %}{{'<｜Assistant｜><think>\n'}}{% endif %}`
	templateNone    = `{% for message in messages %}<|start_header_id|>{{ message['role'] }}<|end_header_id|>{{ message['content'] }}<|eot_id|>{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}`
	templateDepends = `{%- for message in messages %}{{ message.content }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n<think>\n' }}{%- if not enable_thinking -%}{{- '</think>' -}}{%- endif -%}{%- endif %}`
)

// draftedInReasoning is the output of a model whose template opened a
// reasoning block: a call drafted in the block, the closing tag alone,
// then the call it makes.
const draftedInReasoning = `Let me think. <tool_call>{"name":"f","arguments":{}}</tool_call> Hmm.</think>` + "\n\n" + `<tool_call>{"name":"g","arguments":{}}</tool_call>`

const fgTools = `{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{}}}},` +
	`{"type":"function","function":{"name":"g","parameters":{"type":"object","properties":{}}}}`

// fgTools in the Responses API's and the Anthropic Messages API's shapes.
const (
	fgToolsFlat = `{"type":"function","name":"f","parameters":{"type":"object","properties":{}}},` +
		`{"type":"function","name":"g","parameters":{"type":"object","properties":{}}}`
	fgToolsAnthropic = `{"name":"f","input_schema":{"type":"object","properties":{}}},` +
		`{"name":"g","input_schema":{"type":"object","properties":{}}}`
)

// fgBody is a chat request declaring the tools f and g.
func fgBody(api proxy.API, stream bool) string {
	b := chatBody(api, stream, "")
	b = strings.Replace(b, weatherTool, fgTools, 1)
	b = strings.Replace(b, weatherToolFlat, fgToolsFlat, 1)
	return strings.Replace(b, weatherToolAnthropic, fgToolsAnthropic, 1)
}

// reasoningSetup starts a fake upstream whose model has template (none
// when empty) and a proxy in front of it with cfg.
func reasoningSetup(t *testing.T, api proxy.API, template string, turn fakeserver.Turn, cfg config.Config) string {
	t.Helper()
	return reasoningSetupWith(t, api, template, turn, cfg, nil)
}

// reasoningSetupWith is reasoningSetup with the proxy's options changed by
// mod.
func reasoningSetupWith(t *testing.T, api proxy.API, template string, turn fakeserver.Turn, cfg config.Config, mod func(*proxy.Options)) string {
	t.Helper()
	var fo *fakeserver.Options
	if template != "" {
		fo = &fakeserver.Options{Models: []string{"qwen3:8b"}, Info: map[string]fakeserver.ModelInfo{"qwen3:8b": {Template: template}}}
	}
	up := httptest.NewServer(fakeserver.NewHandler(fakeserver.Script{turn}, fo))
	t.Cleanup(up.Close)
	opts := proxy.Options{Upstream: up.URL, API: serverKind(api), Logger: quiet, Config: cfg}
	if mod != nil {
		mod(&opts)
	}
	h, err := proxy.NewHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestDraftedCallInReasoning: a call the model drafted before the lone
// closing tag of a block its template opened is reasoning, never a call,
// whether a dialect is configured or detected, whole and streamed: the
// template is read whenever tools are declared, and without one (an
// upstream with no template endpoint) the output's closing tag decides,
// unless the model's reasoning setting says where the output starts.
func TestDraftedCallInReasoning(t *testing.T) {
	for _, tc := range []struct {
		name, template, reasoning string
	}{
		{"template opens a block", templateOpens, ""},
		{"template depends on its variables", templateDepends, ""},
		{"no template", "", ""},
		{"no template, reasoning open", "", config.ReasoningOpen},
		{"template opens a block, reasoning closed", templateOpens, config.ReasoningClosed},
	} {
		for _, api := range allAPIs {
			for _, dialect := range []string{"", "hermes"} {
				for _, stream := range []bool{false, true} {
					cfg := config.Default()
					cfg.MaxRetries = 0
					cfg.Dialect, cfg.Reasoning = dialect, tc.reasoning
					url := reasoningSetup(t, api, tc.template, fakeserver.Turn{Content: draftedInReasoning, ChunkSize: 7}, cfg)
					a := post(t, nil, url+chatPath(api), api, fgBody(api, stream), nil)
					if a.names() != "g {}" {
						t.Errorf("%s, %s, dialect %q, stream=%v: calls %q, want g alone\n%s", tc.name, api, dialect, stream, a.names(), a.Raw)
					}
					if !strings.Contains(a.Reasoning, `"name":"f"`) || !strings.Contains(a.Reasoning, "Let me think.") || strings.Contains(a.Content, `"f"`) {
						t.Errorf("%s, %s, dialect %q, stream=%v: the drafted call is not in the reasoning: reasoning %q, content %q",
							tc.name, api, dialect, stream, a.Reasoning, a.Content)
					}
				}
			}
		}
	}
}

// TestServerReasoningKept: reasoning the upstream split off itself passes
// as it came, and the content after it starts outside reasoning, even
// where the template opened a block (the server ended it): its text stays
// content, with no template and no setting too.
func TestServerReasoningKept(t *testing.T) {
	for _, template := range []string{"", templateOpens} {
		for _, api := range allAPIs {
			for _, stream := range []bool{false, true} {
				url := reasoningSetup(t, api, template, fakeserver.Turn{Thinking: "The server split this.", Content: "Sure.\n" + leakedHermes, ChunkSize: 5}, config.Config{})
				a := post(t, nil, url+chatPath(api), api, chatBody(api, stream, ""), nil)
				if a.names() != "get_weather "+parisArgs || a.Reasoning != "The server split this." || strings.TrimSpace(a.Content) != "Sure." {
					t.Errorf("template %v, %s stream=%v: calls %q, reasoning %q, content %q", template != "", api, stream, a.names(), a.Reasoning, a.Content)
				}
			}
		}
	}
}

// TestPlainOutputStreams: where the output is known to start outside
// reasoning (a template that opens no block, or the reasoning setting
// closed, or content after reasoning the upstream split off), its text
// reaches the client while the upstream still writes.
func TestPlainOutputStreams(t *testing.T) {
	if o, c := registry.TemplateReasoningStart(templateNone); o || !c {
		t.Fatalf("the template that opens no block reads as open %v, closed %v", o, c)
	}
	text := "First part of the answer, and then a long tail that takes its time to come."
	for _, tc := range []struct {
		name, template, reasoning, thinking string
	}{
		{"template opens none", templateNone, "", ""},
		{"no template, reasoning closed", "", config.ReasoningClosed, ""},
		{"template depends, reasoning closed", templateDepends, config.ReasoningClosed, ""},
		{"no template, reasoning split off by the server", "", "", "Thought."},
		{"template opens a block, reasoning split off by the server", templateOpens, "", "Thought."},
	} {
		for _, api := range allAPIs {
			for _, dialect := range []string{"", "hermes"} {
				cfg := config.Default()
				cfg.MaxRetries = 0
				cfg.Dialect, cfg.Reasoning = dialect, tc.reasoning
				// The upstream holds the tail of the text until the client
				// has read the first of it; its last piece is "me.".
				seen := make(chan struct{})
				turn := fakeserver.Turn{Thinking: tc.thinking, Content: text, ChunkSize: 4, Holds: []fakeserver.Hold{{At: "take", Release: seen}}}
				url := reasoningSetupWith(t, api, tc.template, turn, cfg, func(o *proxy.Options) { o.IdleTimeout = hangGuard })
				resp, err := http.Post(url+chatPath(api), "application/json", strings.NewReader(chatBody(api, true, "")))
				if err != nil {
					t.Fatal(err)
				}
				content := readReleasing(resp, func(line string) bool { return firstText.MatchString(line) }, seen)
				if !strings.Contains(content, "me.") || strings.Contains(content, "TLP-") {
					t.Errorf("%s, %s, dialect %q: the text waited for the end of the answer:\n%s", tc.name, api, dialect, content)
				}
				if tc.thinking == "" && (strings.Contains(content, "reasoning_content") || strings.Contains(content, `"thinking"`)) {
					t.Errorf("%s, %s, dialect %q: plain text went to reasoning:\n%s", tc.name, api, dialect, content)
				}
			}
		}
	}
}

// TestRecoveryKeepsReadingStart: the answers recovery asks for are read
// with where the output starts as the first one was, the model's
// reasoning setting included: with reasoning closed, a stray closing tag
// in the recovered answer is text, as it would have been in the first.
func TestRecoveryKeepsReadingStart(t *testing.T) {
	offSchema := "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": 5}}\n</tool_call>"
	for _, api := range allAPIs {
		cfg := config.Default()
		cfg.MaxRetries = 1
		cfg.Reasoning = config.ReasoningClosed
		up := httptest.NewServer(fakeserver.NewHandler(fakeserver.Script{{Content: offSchema}, {Content: "Sure.</think>\n" + leakedHermes}}, nil))
		t.Cleanup(up.Close)
		h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: serverKind(api), Logger: quiet, Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, false, ""), nil)
		if a.names() != "get_weather "+parisArgs || a.Reasoning != "" || strings.TrimSpace(a.Content) != "Sure.</think>" {
			t.Errorf("%s: calls %q, reasoning %q, content %q; want the call, no reasoning, content %q", api, a.names(), a.Reasoning, a.Content, "Sure.</think>")
		}
	}
}
