package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/client/ollamaclient"
	"github.com/dialectkit/toolcall/client/openaiclient"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/retry"
)

// TestCallServerFaultsExit3: a server that breaks its answer (the
// connection closed mid-answer, a stream that ends before its last
// message, garbage instead of a stream, an answer over the size cap) is
// a server problem: exit status 3, after the transport retries, not 1
// after spending truncation retries on it.
func TestCallServerFaultsExit3(t *testing.T) {
	tests := []struct {
		name string
		api  string
		turn fakeserver.Turn
	}{
		{"connection closed mid-answer, ollama", "ollama", fakeserver.Turn{Content: "I will call", Abort: true}},
		{"connection closed mid-answer, openai", "openai", fakeserver.Turn{Content: "I will call", Abort: true}},
		{"stream ends early, ollama", "ollama", fakeserver.Turn{Content: "I will call", Truncate: true}},
		{"stream ends early, openai", "openai", fakeserver.Turn{Content: "I will call", Truncate: true}},
		{"garbage instead of SSE", "openai", fakeserver.Turn{Body: "<html><body>502 Bad Gateway</body></html>\n", ContentType: "text/html"}},
		{"garbage with the SSE type", "openai", fakeserver.Turn{Body: "this is not an event stream\nat all\n", ContentType: "text/event-stream"}},
		{"garbage instead of NDJSON", "ollama", fakeserver.Turn{Body: "<html>oops</html>\n", ContentType: "text/html"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakeserver.NewServer(fakeserver.Script{tt.turn, tt.turn, tt.turn, tt.turn, tt.turn, tt.turn}, nil)
			defer srv.Close()
			tools, cfg := callFiles(t, fastConfig)
			stdout, stderr, code := runCLI(t, "", "call", "--api", tt.api, "--host", srv.URL, "--model", "qwen3:8b", "--tools", tools,
				"--config", cfg, "--prompt", "Weather?")
			if code != exitServer {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitServer, stdout, stderr)
			}
			if strings.Contains(stdout, "truncated") {
				t.Errorf("a server fault was taken for truncation:\n%s", stdout)
			}
		})
	}
}

// TestCallAnswerOverTheSizeCap: an answer over the client's size cap ends
// the run as a server problem (exit status 3), on both protocols.
func TestCallAnswerOverTheSizeCap(t *testing.T) {
	srv := fakeserver.NewServer(fakeserver.Script{{Content: strings.Repeat("a", 8<<10)}, {Content: strings.Repeat("a", 8<<10)}}, nil)
	defer srv.Close()
	oa, err := openaiclient.New(srv.URL, &openaiclient.Options{MaxResponseBytes: 2048})
	if err != nil {
		t.Fatal(err)
	}
	ol, err := ollamaclient.NewHost(srv.URL, &ollamaclient.Options{MaxResponseBytes: 2048})
	if err != nil {
		t.Fatal(err)
	}
	for api, m := range map[string]client.Model{apiOpenAI: oa, apiOllama: ol} {
		cfg := config.Default()
		loop := &retry.Loop{Model: m, Config: &cfg}
		_, runErr := loop.Run(context.Background(), &client.Request{Model: "m", Messages: []client.Message{{Role: "user", Content: "hi"}}})
		if runErr == nil {
			t.Fatalf("%s: an answer over the cap was accepted", api)
		}
		code, msg := callFailure(&callFlags{api: api, model: "m"}, srv.URL, runErr)
		if code != exitServer || !strings.Contains(msg, "over the size limit") {
			t.Errorf("%s: exit %d, %q; want %d, a server problem", api, code, msg, exitServer)
		}
	}
}

// idleConfig is fastConfig with a short idle timeout and one quick
// transport retry. The timeout is short for a test and long for the fake
// server's first byte, even on a loaded machine.
const idleConfig = `max_retries: 2
retry_delay_ms: 0
model_http_retries: 0
transport_retries: 1
backoff_initial_ms: 1
backoff_max_ms: 1
idle_timeout_ms: 600
`

// TestCallIdleTimeout: a server that stops sending for idle_timeout_ms is
// a transport failure, retried on the transport budget; the run does not
// wait for --timeout. Exit status 3, the idle timeout named.
func TestCallIdleTimeout(t *testing.T) {
	for _, api := range []string{apiOllama, apiOpenAI} {
		t.Run(api, func(t *testing.T) {
			stall := fakeserver.Turn{Content: "I will", Stall: true}
			srv := fakeserver.NewServer(fakeserver.Script{stall, stall, stall}, nil)
			defer srv.Close()
			tools, cfg := callFiles(t, idleConfig)
			begin := time.Now()
			_, stderr, code := runCLI(t, "", "call", "--api", api, "--host", srv.URL, "--model", "qwen3:8b", "--tools", tools,
				"--config", cfg, "--prompt", "Weather?", "--timeout", "1m")
			took := time.Since(begin)
			if code != exitServer || !strings.Contains(stderr, "stopped sending") || !strings.Contains(stderr, "idle") {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
			if took > 10*time.Second {
				t.Errorf("took %v: the idle timeout did not end the stalled requests", took)
			}
			if n := len(srv.Requests()); n != 2 {
				t.Errorf("%d requests, want 2 (one transport retry)", n)
			}
		})
	}
	// A stall, then an answer: the retry recovers.
	srv := fakeserver.NewServer(fakeserver.Script{{Content: "I will", Stall: true},
		{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{"city":"Paris"}`}}}}, nil)
	defer srv.Close()
	tools, cfg := callFiles(t, idleConfig)
	stdout, stderr, code := runCLI(t, "", "call", "--host", srv.URL, "--model", "qwen3:8b", "--tools", tools,
		"--config", cfg, "--prompt", "Weather?")
	if code != 0 || !strings.Contains(stdout, "1 transport retry") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestServerMessageRedacted: a server's error body that quotes a
// credential is redacted wherever call prints it: the message on standard
// error, the human report and --json (the re-ask that quotes it
// included), and what is sent back to the model.
func TestServerMessageRedacted(t *testing.T) {
	secrets := []string{"sk-proj0123456789abcdefABCDEF", "ghp_0123456789abcdefghijABCDEFGHIJ", "AKIAABCDEFGHIJKLMNOP",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlMTIzNDU2"}
	for _, secret := range secrets {
		for _, status := range []int{400, 401, 500} {
			turn := fakeserver.Turn{Status: status, Error: "invalid request: header Authorization: Bearer " + secret + " and api_key=" + secret}
			srv := fakeserver.NewServer(fakeserver.Script{turn, turn, turn, turn, turn}, nil)
			tools, cfg := callFiles(t, "max_retries: 2\nretry_delay_ms: 0\nmodel_http_retries: 1\nmodel_http_retry_delay_ms: 0\ntransport_retries: 0\n")
			for _, asJSON := range []bool{false, true} {
				args := []string{"call", "--api", "openai", "--host", srv.URL, "--model", "qwen3:8b", "--tools", tools,
					"--config", cfg, "--prompt", "Weather?"}
				if asJSON {
					args = append(args, "--json")
				}
				stdout, stderr, code := runCLI(t, "", args...)
				if code != exitServer {
					t.Errorf("%d: exit %d, want %d: %s", status, code, exitServer, stderr)
				}
				if strings.Contains(stdout+stderr, secret[8:]) {
					t.Errorf("status %d, json %v: the server's message was printed with the credential:\n%s\n%s", status, asJSON, stdout, stderr)
				}
				if !strings.Contains(stderr, "invalid request") {
					t.Errorf("status %d: the server's message is gone: %s", status, stderr)
				}
			}
			for _, r := range srv.Requests() {
				for _, m := range r.Messages {
					if strings.Contains(m.Content, secret[8:]) {
						t.Errorf("status %d: the credential was sent back to the model: %q", status, m.Content)
					}
				}
			}
			srv.Close()
		}
	}
}
