package proxy_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestLogging: one INFO record per request with the keys the retry loop
// uses; argument values never above DEBUG, and at DEBUG only with
// log_argument_values, secrets redacted.
func TestLogging(t *testing.T) {
	const secret = "Zanzibar-4417"
	text := "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {'city': '" + secret + "', \"api_key\": \"sk-live-abcdef0123456789\"}}\n</tool_call>"
	for _, tc := range []struct {
		level     slog.Level
		values    bool
		wantValue bool
	}{
		{slog.LevelInfo, true, false},
		{slog.LevelDebug, false, false},
		{slog.LevelDebug, true, true},
	} {
		for _, stream := range []bool{false, true} {
			var buf syncBuffer
			logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: tc.level}))
			cfg := config.Default()
			cfg.StrictValidation = false
			cfg.LogArgumentValues = tc.values
			_, srv := setup(t, proxy.Ollama, fakeserver.Script{{Content: text, ChunkSize: 5}}, func(o *proxy.Options) {
				o.Logger = logger
				o.Config = cfg
			})
			a := post(t, nil, srv.URL+"/api/chat", proxy.Ollama, chatBody(proxy.Ollama, stream, ""), nil)
			if len(a.Calls) != 1 {
				t.Fatalf("%+v", a)
			}
			out := buf.String()
			for _, k := range []string{`"msg":"proxy request"`, `"correlation_id"`, `"model":"qwen3:8b"`, `"dialect":"hermes"`, `"outcome":"fixed"`, `"repair_applied"`, `"retry_count"`, `"duration_ms"`} {
				if !strings.Contains(out, k) {
					t.Errorf("level %v stream=%v: the record lacks %s:\n%s", tc.level, stream, k, out)
				}
			}
			if got := strings.Contains(out, secret); got != tc.wantValue {
				t.Errorf("level %v values=%v stream=%v: argument value logged = %v\n%s", tc.level, tc.values, stream, got, out)
			}
			if strings.Contains(out, "sk-live-abcdef0123456789") {
				t.Errorf("a secret was logged:\n%s", out)
			}
			if tc.level == slog.LevelDebug && !strings.Contains(out, `"tool call repaired"`) {
				t.Errorf("no repair record at DEBUG:\n%s", out)
			}
		}
	}
}

// TestNilLoggerSilent: a Handler and a Transport with no Logger log
// nothing, not even to slog's default logger, for a request fixed whole
// or streamed, one whose call fails, and one the upstream refuses.
func TestNilLoggerSilent(t *testing.T) {
	var buf syncBuffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })
	failed := `<tool_call>{"name":"get_weather","arguments":{"days":"x"}}</tool_call>`
	for _, content := range []string{"Let me check. " + leakedHermes, failed} {
		for _, stream := range []bool{false, true} {
			_, srv := setup(t, proxy.Ollama, fakeserver.Script{{Content: content, ChunkSize: 7}}, func(o *proxy.Options) { o.Logger = nil })
			post(t, nil, srv.URL+"/api/chat", proxy.Ollama, chatBody(proxy.Ollama, stream, ""), nil)
			up := fakeserver.NewServer(fakeserver.Script{{Content: content}}, nil)
			tr, err := proxy.NewTransport(proxy.Options{API: proxy.Ollama})
			if err != nil {
				t.Fatal(err)
			}
			c := &http.Client{Transport: tr}
			post(t, c, up.URL+"/api/chat", proxy.Ollama, chatBody(proxy.Ollama, stream, ""), nil)
			up.Close()
		}
	}
	_, srv := setup(t, proxy.Ollama, fakeserver.Script{{Status: 400, Error: "bad request"}}, func(o *proxy.Options) { o.Logger = nil })
	resp, err := http.Post(srv.URL+"/api/chat", "application/json", strings.NewReader(chatBody(proxy.Ollama, false, "")))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if out := buf.String(); out != "" {
		t.Errorf("a nil Logger logged:\n%s", out)
	}
}
