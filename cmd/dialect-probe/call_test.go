package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/redact"
)

const callTools = `[{"type":"function","function":{"name":"get_weather","description":"Weather for a city",
  "parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}}]`

// fastConfig makes the loop's waits instant and its budgets small.
const fastConfig = `max_retries: 2
retry_delay_ms: 0
model_http_retries: 0
transport_retries: 0
`

// callFiles writes the tools and the config into a temporary directory.
func callFiles(t *testing.T, config string) (tools, cfg string) {
	t.Helper()
	dir := t.TempDir()
	tools, cfg = filepath.Join(dir, "tools.json"), filepath.Join(dir, "config.yml")
	if err := os.WriteFile(tools, []byte(callTools), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return tools, cfg
}

func TestCall(t *testing.T) {
	paris := fakeserver.Call{ID: "call_p1", Name: "get_weather", Arguments: `{"city":"Paris","days":3}`}
	tests := []struct {
		name   string
		script fakeserver.Script
		opts   *fakeserver.Options
		args   []string
		stdin  string
		closed bool // the server is down
		code   int
		// out and errOut hold substrings of standard output and error.
		out, errOut []string
	}{
		{
			name:   "native call at the first attempt",
			script: fakeserver.Script{{Calls: []fakeserver.Call{paris}, PromptTokens: 187, CompletionTokens: 27}},
			out: []string{
				"model: qwen3:8b (ollama, http://127.0.0.1:",
				"result: 1 valid call after 1 attempt\n",
				`  [0] get_weather {"city":"Paris","days":3}  (id call_p1)`,
				"  #1 initial: 1 valid call, native — tokens 187+27",
				"tokens: 187 prompt + 27 completion = 214",
				"statistics: runs 1 (succeeded 1, failed 0; first try 1, repaired 0, recovered 0), attempts 1, reflections 0",
			},
		},
		{
			name: "schema failure reflected, then valid",
			script: fakeserver.Script{
				{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{"city":"Paris","days":"three"}`}}},
				{Calls: []fakeserver.Call{paris}},
			},
			out: []string{
				"result: 1 valid call after 2 attempts",
				"  #1 initial: 0 valid, 1 failed, native",
				"      wrong: TLP-004",
				"      sent back as the result of call_",
				"        | Your call to \"get_weather\" failed with TLP-004",
				"  #2 reflection: 1 valid call, native",
				"recovered 1), attempts 2, reflections 1",
				"call errors by code: TLP-004 1",
			},
		},
		{
			name:   "text calls through the OpenAI endpoint, dialect named",
			script: fakeserver.Script{{Content: `<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 3,}}</tool_call>`}},
			args:   []string{"--api", "openai", "--dialect", "hermes"},
			out: []string{
				"(openai, http://127.0.0.1:",
				"/v1/chat/completions)",
				"dialect: hermes",
				`[0] get_weather {"city":"Paris","days":3}`,
				"repaired 1, recovered 0",
				"repairs by kind: trailing_comma 1",
			},
		},
		{
			name:   "prompt from standard input, options and budget reach the server",
			script: fakeserver.Script{{Content: "It is sunny."}},
			args:   []string{"--prompt", "-", "--option", "temperature=0", "--option", "stop=[\"x\"]", "--max-tokens", "64", "--system", "Be brief."},
			stdin:  "Weather in Paris?\n",
			out:    []string{"result: no tool call, a plain answer (1 attempt)", `content: "It is sunny."`},
		},
		{
			name:   "calls still invalid when the budget runs out",
			script: fakeserver.Script{{Calls: []fakeserver.Call{{Name: "get_wether", Arguments: `{"city":"Paris"}`}}}},
			code:   1,
			out:    []string{"result: failed after 3 attempts (TLP-006)", "wrong: TLP-005"},
			errOut: []string{"dialect-probe: no valid tool call: TLP-006"},
		},
		{
			name:   "server unreachable",
			closed: true,
			code:   exitServer,
			errOut: []string{"dialect-probe: cannot reach the ollama server at http://127.0.0.1:", "is the server running? set --host or OLLAMA_HOST"},
		},
		{
			name:   "model missing",
			opts:   &fakeserver.Options{Models: []string{"llama3.2"}},
			code:   exitServer,
			errOut: []string{`has no model "qwen3:8b" (ollama pull qwen3:8b): model 'qwen3:8b' not found`},
		},
		{
			name:   "model missing on an OpenAI endpoint",
			opts:   &fakeserver.Options{Models: []string{"llama3.2"}},
			args:   []string{"--api", "openai"},
			code:   exitServer,
			errOut: []string{`answered 404: no model "qwen3:8b" there`},
		},
		{
			name:   "model without tool support",
			script: fakeserver.Script{{Status: 400, Error: `"gemma:2b" does not support tools`}},
			code:   exitServer,
			out:    []string{"rejected by the server"},
			errOut: []string{`the server rejected the request: "gemma:2b" does not support tools`},
		},
		{
			name:   "wrong key",
			opts:   &fakeserver.Options{APIKey: "sk-right"},
			args:   []string{"--api", "openai", "--api-key-env", "DIALECT_PROBE_TEST_KEY"},
			code:   exitServer,
			errOut: []string{"refused the credentials (401); the key is read from $DIALECT_PROBE_TEST_KEY"},
		},
	}
	t.Setenv("DIALECT_PROBE_TEST_KEY", "sk-wrong-secret")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakeserver.NewServer(tt.script, tt.opts)
			defer srv.Close()
			if tt.closed {
				srv.Close()
			}
			tools, cfg := callFiles(t, fastConfig)
			args := append([]string{"call", "--host", srv.URL, "--model", "qwen3:8b", "--tools", tools, "--config", cfg,
				"--prompt", "Weather in Paris for 3 days?"}, tt.args...)
			stdout, stderr, code := runCLI(t, tt.stdin, args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			for _, want := range tt.out {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			for _, want := range tt.errOut {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if strings.Contains(stdout+stderr, "sk-wrong-secret") {
				t.Error("the API key was printed")
			}
			if tt.name == "prompt from standard input, options and budget reach the server" {
				r := srv.Requests()[0]
				if r.MaxTokens != 64 || r.Options["temperature"] != float64(0) || len(r.Messages) != 2 ||
					r.Messages[0].Content != "Be brief." || r.Messages[1].Content != "Weather in Paris?" {
					t.Errorf("request = %+v", r)
				}
				if stop, _ := r.Options["stop"].([]any); len(stop) != 1 {
					t.Errorf("stop option = %v", r.Options["stop"])
				}
			}
		})
	}
}

func TestCallJSON(t *testing.T) {
	srv := fakeserver.NewServer(fakeserver.Script{
		{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{"city": 5}`}}, PromptTokens: 100, CompletionTokens: 10},
		{Calls: []fakeserver.Call{{ID: "call_ok", Name: "get_weather", Arguments: `{"city":"Paris"}`}}, PromptTokens: 150, CompletionTokens: 12},
	}, nil)
	defer srv.Close()
	tools, cfg := callFiles(t, fastConfig)
	stdout, stderr, code := runCLI(t, "", "call", "--host", srv.URL, "--model", "qwen3:8b", "--tools", tools,
		"--config", cfg, "--prompt", "Weather?", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		OK       bool
		Calls    []callRecord
		Attempts []struct {
			Number   int
			Reason   string
			Errors   []errorRecord
			SentBack []sentRecord `json:"sent_back"`
		}
		Tokens     tokenRecord
		Statistics struct {
			Runs, Recovered, Reflections int
		}
		CorrelationID string `json:"correlation_id"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	var args bytes.Buffer
	if len(r.Calls) == 1 {
		_ = json.Compact(&args, r.Calls[0].Arguments)
	}
	if !r.OK || len(r.Calls) != 1 || r.Calls[0].ID != "call_ok" || args.String() != `{"city":"Paris"}` {
		t.Errorf("calls = %+v", r.Calls)
	}
	if len(r.Attempts) != 2 || r.Attempts[0].Errors[0].Code != "TLP-004" || r.Attempts[0].Errors[0].Path != "/city" ||
		len(r.Attempts[0].SentBack) != 1 || r.Attempts[0].SentBack[0].Code != "TLP-004" || r.Attempts[1].Reason != "reflection" {
		t.Errorf("attempts = %+v", r.Attempts)
	}
	if r.Tokens != (tokenRecord{250, 22, 272}) {
		t.Errorf("tokens = %+v", r.Tokens)
	}
	if r.Statistics.Runs != 1 || r.Statistics.Recovered != 1 || r.Statistics.Reflections != 1 || r.CorrelationID == "" {
		t.Errorf("statistics %+v, correlation %q", r.Statistics, r.CorrelationID)
	}
}

func TestCallUsage(t *testing.T) {
	tools, cfg := callFiles(t, fastConfig)
	_, badCfg := callFiles(t, "max_retries: 99\n")
	tests := []struct {
		name string
		args []string
		err  string
	}{
		{"no model", []string{"--prompt", "hi"}, "--model is required"},
		{"no prompt", []string{"--model", "m"}, "--prompt is required"},
		{"bad api", []string{"--model", "m", "--prompt", "hi", "--api", "grpc"}, "--api must be ollama or openai"},
		{"bad option", []string{"--model", "m", "--prompt", "hi", "--option", "temperature"}, "is not KEY=VALUE"},
		{"bad config", []string{"--model", "m", "--prompt", "hi", "--config", badCfg}, "max_retries"},
		{"missing tools file", []string{"--model", "m", "--prompt", "hi", "--tools", tools + ".nope"}, "no such file"},
		{"bad host", []string{"--model", "m", "--prompt", "hi", "--host", "ftp://x"}, "TLP-024"},
		{"unknown dialect", []string{"--model", "m", "--prompt", "hi", "--dialect", "klingon", "--host", "127.0.0.1:1", "--config", cfg}, "TLP-018"},
	}
	for _, tt := range tests {
		_, stderr, code := runCLI(t, "", append([]string{"call"}, tt.args...)...)
		if code != 2 || !strings.Contains(stderr, tt.err) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", tt.name, code, stderr, tt.err)
		}
	}
}

// TestCallRedactsCredentials: a tool name shaped like a credential, which
// the model wrote and the re-asks quote, is redacted in every log record
// above DEBUG, in the report (text and --json) and in the final message,
// at every log format.
func TestCallRedactsCredentials(t *testing.T) {
	secret := "ghp_" + strings.Repeat("a1B2", 9)
	tools, cfg := callFiles(t, fastConfig)
	for _, tc := range []struct {
		name string
		args []string
		// warn is how the WARN record gives the run's last error.
		warn string
	}{
		{"text report, no log", nil, ""},
		{"json report", []string{"--json"}, ""},
		{"logfmt", []string{"-v"}, `last_error="TLP-005 ([REDACTED])"`},
		{"json log", []string{"--verbose", "--log-format", "json"}, `"last_error":"TLP-005 ([REDACTED])"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeserver.NewServer(fakeserver.Script{{Calls: []fakeserver.Call{{Name: secret, Arguments: `{"city":"Paris"}`}}}}, nil)
			defer srv.Close()
			logFile := filepath.Join(t.TempDir(), "log.jsonl")
			args := append([]string{"call", "--host", srv.URL, "--model", "qwen3:8b", "--tools", tools, "--config", cfg,
				"--prompt", "Weather?", "--log-file", logFile}, tc.args...)
			stdout, stderr, code := runCLI(t, "", args...)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
			}
			if strings.Contains(stdout+stderr, secret) {
				t.Errorf("the credential-shaped name was printed:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
			if !strings.Contains(stderr, "dialect-probe: no valid tool call: TLP-006") || !strings.Contains(stderr, "TLP-005 ([REDACTED])") {
				t.Errorf("final message lacks the redacted summary:\n%s", stderr)
			}
			if !strings.Contains(stdout, "TLP-005") || !strings.Contains(stdout, redact.Redacted) {
				t.Errorf("the report lacks the redacted error:\n%s", stdout)
			}
			if tc.warn != "" && !strings.Contains(stderr, tc.warn) {
				t.Errorf("WARN record lacks %s:\n%s", tc.warn, stderr)
			}
			data, err := os.ReadFile(logFile)
			if err != nil {
				t.Fatal(err)
			}
			for line := range strings.Lines(string(data)) {
				var rec struct{ Level string }
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatalf("log line %q: %v", line, err)
				}
				if rec.Level != "DEBUG" && strings.Contains(line, secret) {
					t.Errorf("a %s record holds the credential: %s", rec.Level, line)
				}
			}
		})
	}
}
