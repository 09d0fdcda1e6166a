package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
)

// syncBuffer is standard error shared by the server's goroutines; it
// tells when the line a script waits for has been written.
type syncBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan string // the URL, once "listening on" was written
	sent  bool
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if !b.sent {
		for line := range strings.Lines(b.buf.String()) {
			if url, ok := strings.CutPrefix(line, "listening on "); ok && strings.HasSuffix(line, "\n") {
				b.sent = true
				b.ready <- strings.TrimSpace(url)
				break
			}
		}
	}
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serveRun is a serve command running in the test's process.
type serveRun struct {
	url    string
	stderr *syncBuffer
	done   chan int
}

// startServe runs serve with args and waits for its "listening on" line,
// as a script would.
func startServe(t *testing.T, args ...string) *serveRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &serveRun{stderr: &syncBuffer{ready: make(chan string, 1)}, done: make(chan int, 1)}
	go func() {
		r.done <- runContext(ctx, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...), strings.NewReader(""), io.Discard, r.stderr)
	}()
	select {
	case r.url = <-r.stderr.ready:
	case code := <-r.done:
		t.Fatalf("serve exited %d before listening:\n%s", code, r.stderr)
	case <-time.After(10 * time.Second):
		t.Fatalf("serve did not say it listens:\n%s", r.stderr)
	}
	// Cleanup stops it by its context, not by a signal: a signal that came
	// after another instance had stopped listening for signals would end
	// the test process.
	t.Cleanup(func() {
		cancel()
		r.wait(t)
	})
	return r
}

// signal sends sig to the process; serve's handler takes it. Only one
// serve may be running: the signal reaches every one.
func (r *serveRun) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := syscall.Kill(os.Getpid(), sig); err != nil {
		t.Fatal(err)
	}
}

func (r *serveRun) wait(t *testing.T) int {
	t.Helper()
	select {
	case code := <-r.done:
		r.done <- code
		return code
	case <-time.After(20 * time.Second):
		t.Fatalf("serve did not stop:\n%s", r.stderr)
	}
	return -1
}

const (
	serveTools = `[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}}]`
	leakedCall = "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\",}}\n</tool_call>"
)

func chatBody(model string, stream bool) string {
	return `{"model":"` + model + `","stream":` + map[bool]string{true: "true", false: "false"}[stream] +
		`,"messages":[{"role":"user","content":"Weather in Paris?"}],"tools":` + serveTools + `}`
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(out)
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// toolCalls gathers the tool calls of an Ollama answer, whole or NDJSON.
func ollamaCalls(t *testing.T, body string) (names []string, content string) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		var chunk struct {
			Message struct {
				Content   string `json:"content"`
				ToolCalls []struct {
					Function struct {
						Name      string         `json:"name"`
						Arguments map[string]any `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
		}
		if err := json.Unmarshal(sc.Bytes(), &chunk); err != nil {
			t.Fatalf("answer line %q: %v", sc.Text(), err)
		}
		content += chunk.Message.Content
		for _, c := range chunk.Message.ToolCalls {
			args, _ := json.Marshal(c.Function.Arguments)
			names = append(names, c.Function.Name+string(args))
		}
	}
	return names, content
}

// TestServe: through serve, a leaked call reaches an Ollama client as a
// native call, streamed and not; other paths pass through; /metrics counts
// what happened; SIGINT stops it with status 0.
func TestServe(t *testing.T) {
	up := fakeserver.NewServer(fakeserver.ResponderFunc(func(*fakeserver.Request) fakeserver.Turn {
		return fakeserver.Turn{Content: leakedCall, ChunkSize: 6}
	}), nil)
	defer up.Close()
	s := startServe(t, "--upstream", up.URL)
	if !strings.HasPrefix(s.url, "http://127.0.0.1:") || strings.HasSuffix(s.url, ":0") {
		t.Fatalf("listening on %q", s.url)
	}
	if n := strings.Count(s.stderr.String(), "listening on "); n != 1 {
		t.Errorf("%d listening lines", n)
	}
	for _, stream := range []bool{false, true} {
		code, body := post(t, s.url+"/api/chat", chatBody("qwen3", stream))
		calls, content := ollamaCalls(t, body)
		if code != 200 || len(calls) != 1 || calls[0] != `get_weather{"city":"Paris"}` || strings.Contains(content, "tool_call") {
			t.Errorf("stream %v: %d, calls %q, content %q\n%s", stream, code, calls, content, body)
		}
	}
	if code, body := get(t, s.url+"/api/tags"); code != 200 || !strings.Contains(body, `"models"`) {
		t.Errorf("/api/tags: %d %s", code, body)
	}
	code, metricsText := get(t, s.url+"/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	for _, line := range []string{
		`dialectkit_proxy_requests_total{api="ollama",outcome="fixed",status="200"} 2`,
		`dialectkit_proxy_requests_total{api="ollama",outcome="passthrough",status="200"} 1`,
		`dialectkit_proxy_calls_fixed_total{kind="leaked"} 2`,
		`dialectkit_proxy_repairs_total{kind="trailing_comma"} 2`,
		`dialectkit_proxy_calls_total 2`,
		`dialectkit_proxy_added_latency_seconds_count{api="ollama",stream="true"} 1`,
		`dialectkit_proxy_added_latency_seconds_count{api="ollama",stream="false"} 1`,
		`dialectkit_proxy_chunk_added_latency_seconds_count{api="ollama"}`,
		`dialectkit_proxy_requests_in_flight 1`, // the scrape itself is not counted: this is 0
		"go_goroutines ",
	} {
		if line == `dialectkit_proxy_requests_in_flight 1` {
			line = `dialectkit_proxy_requests_in_flight 0`
		}
		if !strings.Contains(metricsText, line) {
			t.Errorf("/metrics lacks %q", line)
		}
	}
	// /metrics is serve's own: the upstream never saw it.
	for _, r := range up.Requests() {
		if r.API != fakeserver.Ollama {
			t.Errorf("the upstream got %v", r.API)
		}
	}
	if n := len(up.Requests()); n != 2 {
		t.Errorf("the upstream got %d chat requests, want 2", n)
	}
	s.signal(t, syscall.SIGINT)
	if code := s.wait(t); code != 0 {
		t.Errorf("exit %d after SIGINT:\n%s", code, s.stderr)
	}
	if !strings.Contains(s.stderr.String(), "proxy request") {
		t.Errorf("no request records on standard error:\n%s", s.stderr)
	}
}

// TestServeOpenAI: --api openai fixes /v1/chat/completions; --api-key-env
// makes clients send the key.
func TestServeOpenAI(t *testing.T) {
	up := fakeserver.NewServer(fakeserver.Script{{Content: leakedCall}}, nil)
	defer up.Close()
	t.Setenv("SERVE_TEST_KEY", "s3cret")
	s := startServe(t, "--api", "openai", "--upstream", up.URL, "--api-key-env", "SERVE_TEST_KEY", "--log-format", "json")
	if code, body := post(t, s.url+"/v1/chat/completions", chatBody("qwen3", false)); code != 401 || !strings.Contains(body, "TLP-028") {
		t.Errorf("without the key: %d %s", code, body)
	}
	req, _ := http.NewRequest(http.MethodPost, s.url+"/v1/chat/completions", strings.NewReader(chatBody("qwen3", false)))
	req.Header.Set("Authorization", "Bearer s3cret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var answer struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					Function struct{ Name, Arguments string } `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(out, &answer); err != nil || resp.StatusCode != 200 || len(answer.Choices) != 1 ||
		len(answer.Choices[0].Message.ToolCalls) != 1 || answer.Choices[0].FinishReason != "tool_calls" ||
		answer.Choices[0].Message.ToolCalls[0].Function.Arguments != `{"city":"Paris"}` {
		t.Errorf("with the key: %d %s", resp.StatusCode, out)
	}
	if !strings.Contains(s.stderr.String(), `{"time":`) || !strings.Contains(s.stderr.String(), `"msg":"proxy request"`) {
		t.Errorf("--log-format json: the records are not JSON:\n%s", s.stderr)
	}
	if _, text := get(t, s.url+"/metrics"); !strings.Contains(text, `dialectkit_proxy_requests_total{api="openai",outcome="fixed",status="200"} 1`) ||
		!strings.Contains(text, `dialectkit_proxy_failures_total{code="TLP-028"} 1`) {
		t.Errorf("/metrics:\n%s", text)
	}
}

// TestServeSignalFinishesInFlight: SIGTERM stops serve accepting, lets the
// stream in flight end whole, then exits 0.
func TestServeSignalFinishesInFlight(t *testing.T) {
	up := fakeserver.NewServer(fakeserver.Script{{Content: leakedCall, ChunkSize: 8, Delay: 25 * time.Millisecond}}, nil)
	defer up.Close()
	s := startServe(t, "--upstream", up.URL, "--shutdown-grace", "20s")
	type result struct {
		code int
		body string
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Post(s.url+"/api/chat", "application/json", strings.NewReader(chatBody("qwen3", true)))
		if err != nil {
			got <- result{-1, err.Error()}
			return
		}
		out, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			got <- result{-2, string(out) + err.Error()}
			return
		}
		got <- result{resp.StatusCode, string(out)}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for len(up.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if len(up.Requests()) == 0 {
		t.Fatal("the request did not reach the upstream")
	}
	s.signal(t, syscall.SIGTERM)
	// A new connection is refused while the stream goes on.
	time.Sleep(100 * time.Millisecond)
	if resp, err := http.Get(s.url + "/api/tags"); err == nil {
		resp.Body.Close()
		t.Errorf("a request after SIGTERM was served: %d", resp.StatusCode)
	}
	r := <-got
	calls, _ := ollamaCalls(t, r.body)
	if r.code != 200 || len(calls) != 1 || !strings.Contains(r.body, `"done":true`) {
		t.Errorf("the stream in flight: %d, calls %q\n%s", r.code, calls, r.body)
	}
	if code := s.wait(t); code != 0 {
		t.Errorf("exit %d after SIGTERM:\n%s", code, s.stderr)
	}
}

// TestServeGraceRunsOut: a stream that outlasts the grace is cut, and serve
// still exits 0, within the grace.
func TestServeGraceRunsOut(t *testing.T) {
	up := fakeserver.NewServer(fakeserver.Script{{Content: "Thinking about it", Stall: true}}, nil)
	defer up.Close()
	s := startServe(t, "--upstream", up.URL, "--shutdown-grace", "300ms")
	go func() {
		if resp, err := http.Post(s.url+"/api/chat", "application/json", strings.NewReader(chatBody("qwen3", true))); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	for deadline := time.Now().Add(10 * time.Second); len(up.Requests()) == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	s.signal(t, syscall.SIGINT)
	if code := s.wait(t); code != 0 {
		t.Errorf("exit %d:\n%s", code, s.stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stopping took %s with a grace of 300ms", d)
	}
	if !strings.Contains(s.stderr.String(), "grace ran out") {
		t.Errorf("no word of the grace running out:\n%s", s.stderr)
	}
}

// TestServePerModel: the entry of the model a request names applies, the
// section's settings to the others; the serve mapping sets the limits.
func TestServePerModel(t *testing.T) {
	// days as a string: valid only with coerce_types.
	up := fakeserver.NewServer(fakeserver.ResponderFunc(func(*fakeserver.Request) fakeserver.Turn {
		return fakeserver.Turn{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": \"3\"}}\n</tool_call>"}
	}), nil)
	defer up.Close()
	cfg := filepath.Join(t.TempDir(), "config.yml")
	data := "serve:\n  upstream: " + up.URL + "\n  max_request_bytes: 2048\n" +
		"model:\n  providers:\n    ollama:\n      tool_call:\n        dialect: hermes\n        models:\n          \"coercing:*\":\n            coerce_types: true\n" +
		"          chain:\n            dialect: mistral\n            fallback: [pythonic, hermes]\n            coerce_types: true\n" +
		"          nochain:\n            dialect: mistral\n            coerce_types: true\n"
	if err := os.WriteFile(cfg, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, "--config", cfg)
	_, body := post(t, s.url+"/api/chat", chatBody("coercing:7b", false))
	if calls, _ := ollamaCalls(t, body); len(calls) != 1 || calls[0] != `get_weather{"city":"Paris","days":3}` {
		t.Errorf("the model with coerce_types: calls %q\n%s", calls, body)
	}
	// Without coerce_types the call fails its schema: it goes out as the
	// model wrote it, marked as failed.
	_, body = post(t, s.url+"/api/chat", chatBody("other:7b", false))
	if calls, _ := ollamaCalls(t, body); len(calls) != 1 || calls[0] != `get_weather{"city":"Paris","days":"3"}` || !strings.Contains(body, `"dialectkit_call_errors":[{"code":"TLP-004"`) {
		t.Errorf("another model: calls %q\n%s", calls, body)
	}
	// The dialect chain: mistral finds nothing, the fallback hermes does.
	_, body = post(t, s.url+"/api/chat", chatBody("chain", false))
	if calls, _ := ollamaCalls(t, body); len(calls) != 1 {
		t.Errorf("the model with a fallback chain: calls %q\n%s", calls, body)
	}
	_, body = post(t, s.url+"/api/chat", chatBody("nochain", false))
	if calls, _ := ollamaCalls(t, body); len(calls) != 0 {
		t.Errorf("the model without a fallback chain: calls %q\n%s", calls, body)
	}
	// The file's limit: a body over 2048 bytes is refused.
	big := strings.Replace(chatBody("other", false), "Weather in Paris?", strings.Repeat("x", 3000), 1)
	if code, body := post(t, s.url+"/api/chat", big); code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "TLP-027") {
		t.Errorf("a body over the file's limit: %d %s", code, body)
	}
	// A flag wins over the file.
	s2 := startServe(t, "--config", cfg, "--max-request-bytes", "100000")
	if code, body := post(t, s2.url+"/api/chat", big); code != 200 {
		t.Errorf("the flag's limit: %d %s", code, body)
	}
}

// TestServeRecovery: recovery is off unless max_retries is set; with it
// set for a model, a failed call is asked for again.
func TestServeRecovery(t *testing.T) {
	offSchema := fakeserver.Turn{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"days\": 2}}\n</tool_call>"}
	valid := fakeserver.Turn{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"}
	var mu sync.Mutex
	seen := map[string]int{}
	up := fakeserver.NewServer(fakeserver.ResponderFunc(func(r *fakeserver.Request) fakeserver.Turn {
		mu.Lock()
		defer mu.Unlock()
		seen[r.Model]++
		if seen[r.Model] == 1 {
			return offSchema
		}
		return valid
	}), nil)
	defer up.Close()
	cfg := filepath.Join(t.TempDir(), "config.yml")
	data := "tool_call:\n  models:\n    recovering:\n      max_retries: 2\n"
	if err := os.WriteFile(cfg, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, "--config", cfg, "--upstream", up.URL)
	if _, body := post(t, s.url+"/api/chat", chatBody("recovering", false)); !strings.Contains(body, `"tool_calls"`) {
		t.Errorf("max_retries set: not recovered\n%s", body)
	}
	if _, body := post(t, s.url+"/api/chat", chatBody("plain", false)); strings.Contains(body, `"city":"Paris"`) || !strings.Contains(body, `"dialectkit_call_errors"`) {
		t.Errorf("max_retries not set: recovered\n%s", body)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen["recovering"] != 2 || seen["plain"] != 1 {
		t.Errorf("upstream requests by model: %v", seen)
	}
	if _, text := get(t, s.url+"/metrics"); !strings.Contains(text, "dialectkit_proxy_recoveries_total 1") {
		t.Errorf("/metrics:\n%s", text)
	}
}

// TestServeUsage: bad flags and configurations stop serve before it
// listens, with status 2 and a message that names the problem.
func TestServeUsage(t *testing.T) {
	dir := t.TempDir()
	file := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	busy := startServe(t, "--upstream", "http://127.0.0.1:9")
	busyAddr := strings.TrimPrefix(busy.url, "http://")
	os.Unsetenv("SERVE_TEST_UNSET_KEY")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"bad api", []string{"--upstream", "http://127.0.0.1:1", "--api", "grpc"}, []string{"--api must be ollama or openai"}},
		{"bad upstream", []string{"--upstream", "ftp://127.0.0.1:11434"}, []string{"--upstream", "not an http:// or https:// URL"}},
		{"bad openai upstream", []string{"--api", "openai", "--upstream", "ftp://127.0.0.1:8080"}, []string{"--upstream", "not an http:// or https:// URL"}},
		{"sim and upstream", []string{"--sim", "hermes-leak", "--upstream", "http://127.0.0.1:1"}, []string{"TLP-016", "exclude each other"}},
		{"unknown sim", []string{"--sim", "nosuch"}, []string{"TLP-016", `no simulation is named "nosuch"`, "hermes-leak"}},
		{"bad listen", []string{"--upstream", "http://127.0.0.1:1", "--listen", "11435"}, []string{"--listen", "not HOST:PORT"}},
		{"address in use", []string{"--upstream", "http://127.0.0.1:1", "--listen", busyAddr}, []string{"--listen " + busyAddr, "cannot listen there"}},
		{"negative limit", []string{"--upstream", "http://127.0.0.1:1", "--max-concurrent", "-1"}, []string{"must not be negative"}},
		{"unset key variable", []string{"--upstream", "http://127.0.0.1:1", "--api-key-env", "SERVE_TEST_UNSET_KEY"}, []string{"SERVE_TEST_UNSET_KEY", "not set"}},
		{"missing file", []string{"--config", filepath.Join(dir, "nope.yml")}, []string{"TLP-024", "cannot read configuration file"}},
		{"unknown serve key", []string{"--config", file("a.yml", "serve:\n  listne: x\n")}, []string{"TLP-024", "serve.listne: unknown setting"}},
		{"serve value out of range", []string{"--config", file("b.yml", "serve:\n  max_concurrent: -2\n")}, []string{"TLP-024", "serve.max_concurrent"}},
		{"unknown model setting", []string{"--upstream", "http://127.0.0.1:1", "--config", file("c.yml", "tool_call:\n  models:\n    m:\n      max_retrys: 2\n")},
			[]string{"TLP-024", "tool_call.models.m.max_retrys: unknown setting"}},
		{"bad model reasoning", []string{"--upstream", "http://127.0.0.1:1", "--config", file("f.yml", "tool_call:\n  models:\n    m:\n      reasoning: thinking\n")},
			[]string{"TLP-024", `tool_call.models.m.reasoning: "thinking" is not one of auto, open, closed`}},
		{"unknown model dialect", []string{"--upstream", "http://127.0.0.1:1", "--config", file("d.yml", "tool_call:\n  models:\n    m:\n      dialect: hermez\n")},
			[]string{"TLP-018", `models.m.dialect "hermez"`, "hermes"}},
		{"unknown fallback", []string{"--upstream", "http://127.0.0.1:1", "--config", file("e.yml", "tool_call:\n  fallback: [jsn]\n")},
			[]string{"TLP-018", `fallback "jsn"`}},
	}
	for _, tt := range tests {
		_, stderr, code := runCLI(t, "", append([]string{"serve", "--listen", "127.0.0.1:0"}, tt.args...)...)
		if tt.name == "bad listen" || tt.name == "address in use" {
			_, stderr, code = runCLI(t, "", append([]string{"serve"}, tt.args...)...)
		}
		if code != 2 || strings.Contains(stderr, "listening on") {
			t.Errorf("%s: exit %d\n%s", tt.name, code, stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: the message lacks %q:\n%s", tt.name, w, stderr)
			}
		}
	}
}

// TestMain lets a test run the test binary as dialect-probe itself, for
// the contract scripts rely on: a process, its standard error, a signal,
// its exit status. The tests find no configuration file of the user's:
// the user's configuration directory is an empty one of their own.
func TestMain(m *testing.M) {
	if os.Getenv("DIALECT_PROBE_TEST_AS_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	home, err := os.MkdirTemp("", "dialect-probe-home")
	if err != nil {
		panic(err)
	}
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "AppData"} {
		os.Setenv(v, home)
	}
	os.Unsetenv(config.EnvFile)
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// TestServeProcess: as a process, serve prints the line a script waits
// for, answers, and exits 0 on SIGTERM.
func TestServeProcess(t *testing.T) {
	up := fakeserver.NewServer(fakeserver.Script{{Content: leakedCall}}, nil)
	defer up.Close()
	cmd := exec.Command(os.Args[0], "serve", "--config", "", "--upstream", up.URL, "--listen", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "DIALECT_PROBE_TEST_AS_MAIN=1")
	stderr := &syncBuffer{ready: make(chan string, 1)}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var url string
	select {
	case url = <-stderr.ready:
	case <-time.After(20 * time.Second):
		t.Fatalf("no listening line:\n%s", stderr)
	}
	_, body := post(t, url+"/api/chat", chatBody("qwen3", false))
	if calls, _ := ollamaCalls(t, body); len(calls) != 1 {
		t.Errorf("calls %q\n%s", calls, body)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v\n%s", err, stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not exit after SIGTERM")
	}
}

// TestUpstreamURL: --upstream is read as call reads --host: a URL, or
// HOST:PORT and a host alone as OLLAMA_HOST is read; empty, $OLLAMA_HOST
// for Ollama, llama.cpp's address for OpenAI.
func TestUpstreamURL(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "gpu-box:9999")
	for _, tc := range []struct{ in, api, want string }{
		{"http://127.0.0.1:11434", apiOllama, "http://127.0.0.1:11434"},
		{"localhost:11434", apiOllama, "http://localhost:11434"},
		{"localhost", apiOllama, "http://localhost:11434"},
		{"", apiOllama, "http://gpu-box:9999"},
		{"https://models.example", apiOllama, "https://models.example:443"},
		{"localhost:8080", apiOpenAI, "http://localhost:8080"},
		{"http://127.0.0.1:8000/v1", apiOpenAI, "http://127.0.0.1:8000/v1"},
		{"", apiOpenAI, defaultOpenAIHost},
	} {
		got, err := upstreamURL(tc.in, tc.api)
		if err != nil || got != tc.want {
			t.Errorf("upstreamURL(%q, %s) = %q, %v; want %q", tc.in, tc.api, got, err, tc.want)
		}
	}
}

// TestServeSim: serve --sim serves a built-in simulated model for any
// model name: a request with tools gets a call to one of its own tools
// (leaked in the sim's dialect, fixed by the proxy), one without tools a
// text, on either API.
func TestServeSim(t *testing.T) {
	for _, api := range []string{apiOllama, apiOpenAI} {
		s := startServe(t, "--sim", "hermes-leak", "--api", api)
		if !strings.Contains(s.stderr.String(), "simulating hermes-leak") {
			t.Errorf("no word of the simulation:\n%s", s.stderr)
		}
		path := map[string]string{apiOllama: "/api/chat", apiOpenAI: "/v1/chat/completions"}[api]
		tools := `[{"type":"function","function":{"name":"read_file","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}},` +
			`{"type":"function","function":{"name":"run_shell_command","parameters":{"type":"object","properties":{"command":{"type":"string"},"timeout":{"type":"integer"}},"required":["command"]}}}]`
		body := `{"model":"my-agent-model","stream":false,"messages":[{"role":"user","content":"Use run_shell_command to list the files."}],"tools":` + tools + `}`
		code, out := post(t, s.url+path, body)
		if code != 200 || !strings.Contains(out, `"tool_calls"`) || !strings.Contains(out, `run_shell_command`) || !strings.Contains(out, "command") {
			t.Errorf("%s, with tools: %d %s", api, code, out)
		}
		code, out = post(t, s.url+path, `{"model":"x","stream":false,"messages":[{"role":"user","content":"Hello"}]}`)
		if code != 200 || strings.Contains(out, `"tool_calls"`) || !strings.Contains(out, "simulated model") {
			t.Errorf("%s, without tools: %d %s", api, code, out)
		}
		// The Responses and Messages APIs, served under either kind,
		// whole and streamed: the call is the API's own.
		schema := `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`
		for _, stream := range []string{"false", "true"} {
			code, out = post(t, s.url+"/v1/responses", `{"model":"x","stream":`+stream+`,"input":"Read the readme with read_file","tools":[{"type":"function","name":"read_file","parameters":`+schema+`}]}`)
			if code != 200 || !strings.Contains(out, `"type":"function_call"`) || !strings.Contains(out, `"name":"read_file"`) || strings.Contains(out, "tool_call>") {
				t.Errorf("%s, Responses, stream %s: %d %s", api, stream, code, out)
			}
			code, out = post(t, s.url+"/v1/messages", `{"model":"x","max_tokens":100,"stream":`+stream+`,"messages":[{"role":"user","content":"Read the readme with read_file"}],"tools":[{"name":"read_file","input_schema":`+schema+`}]}`)
			if code != 200 || !strings.Contains(out, `"type":"tool_use"`) || !strings.Contains(out, `"name":"read_file"`) || !strings.Contains(out, `"stop_reason":"tool_use"`) || strings.Contains(out, "tool_call>") {
				t.Errorf("%s, Messages, stream %s: %d %s", api, stream, code, out)
			}
		}
	}
}
