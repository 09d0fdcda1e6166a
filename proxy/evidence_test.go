package proxy_test

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// syncLog is a log buffer safe for the handler's goroutines.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServerEvidence: with --api openai the proxy asks each kind of server
// what it can tell. A server with a template (llama.cpp /props, an
// Ollama's /api/show behind /v1) settles where the output starts; vLLM
// and LM Studio give the model the name was loaded from, whose family
// (Llama 3 and GPT-OSS here, whose templates open no block of the kind a
// lone closing tag would end) lets the text
// stream at once; with no evidence at all (a model name no rule knows),
// the text waits, and the log says so once, with the setting that ends it.
func TestServerEvidence(t *testing.T) {
	const text = "Here is the answer you asked for, in several pieces of text. "
	for _, tc := range []struct {
		name    string
		opts    fakeserver.Options
		streams bool // the first content chunk comes before the last upstream chunk
		warned  bool
	}{
		{name: "llama.cpp or Ollama with a template", opts: fakeserver.Options{Info: map[string]fakeserver.ModelInfo{"served": {Template: "{{ .Prompt }}<|eot_id|>"}}}, streams: true},
		{name: "vLLM root", opts: fakeserver.Options{Kind: fakeserver.KindVLLM, Roots: map[string]string{"served": "meta-llama/Llama-3.1-8B-Instruct"}}, streams: true},
		{name: "LM Studio arch", opts: fakeserver.Options{Kind: fakeserver.KindLMStudio, Roots: map[string]string{"served": "gpt-oss"}}, streams: true},
		{name: "nothing known", opts: fakeserver.Options{Kind: fakeserver.KindVLLM}, warned: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := httptest.NewServer(fakeserver.NewHandler(fakeserver.Script{{Content: text, ChunkSize: 8}}, &tc.opts))
			defer up.Close()
			var log syncLog
			h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: proxy.OpenAI, Logger: slog.New(slog.NewTextHandler(&log, nil))})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			body := strings.Replace(chatBody(proxy.OpenAI, true, ""), "qwen3:8b", "served", 1)
			for range 2 {
				a := post(t, nil, srv.URL+chatPath(proxy.OpenAI), proxy.OpenAI, body, nil)
				if strings.TrimSpace(a.Content) != strings.TrimSpace(text) {
					t.Fatalf("content %q\n%s", a.Content, a.Raw)
				}
				// Text held to the end comes in one content chunk; text
				// that streams in many.
				if got := strings.Count(a.Raw, `"content":"`) > 3; got != tc.streams {
					t.Errorf("streamed as it came: %v, want %v\n%s", got, tc.streams, a.Raw)
				}
			}
			if n := strings.Count(log.String(), "waits until its output shows where it starts"); n != map[bool]int{true: 1}[tc.warned] {
				t.Errorf("%d warnings of waiting text, want %v once\n%s", n, tc.warned, log.String())
			}
			if tc.warned && !strings.Contains(log.String(), "reasoning: closed|open") {
				t.Errorf("the warning does not name the setting:\n%s", log.String())
			}
		})
	}
}
