package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/probe"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The README's main-job command: the text report of a simulated model,
// byte for byte, on any machine.
func TestProbeSimGolden(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "probe", "--sim", "hermes-leak")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	path := filepath.Join("..", "..", "testdata", "probe", "golden", "hermes-leak.txt")
	if *update {
		if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if stdout != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", path, stdout)
	}
	// Progress went to standard error, prompt by prompt.
	if !strings.Contains(stderr, "probe: prompt 1 of 24: native, single (") || !strings.Contains(stderr, "probe: prompt 24 of 24: prompted pythonic, careful_name (") {
		t.Errorf("progress:\n%s", stderr)
	}
}

func TestProbeCLI(t *testing.T) {
	hermes := "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
	battery := filepath.Join(t.TempDir(), "prompts.json")
	if err := os.WriteFile(battery, []byte(`{"system": "", "tools": [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}],
		"prompts": [{"id": "w", "prompt": "Weather in Paris?", "expect": [{"name": "get_weather"}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		server bool // start a scripted server and pass --host
		models []string
		closed bool
		code   int
		// out and errOut hold substrings of standard output and error.
		out, errOut []string
	}{
		{name: "json report of a simulation", args: []string{"probe", "--sim", "native", "--json", "-q"},
			out: []string{`"simulated": "native"`, `"native_tools": "use"`, `"dialect": "hermes"`, `"config_yaml": "# .agent/config.yml`}},
		{name: "simulation through the OpenAI endpoint", args: []string{"probe", "--sim", "truncated", "--api", "openai", "-q", "--no-prompted"},
			out: []string{"probe of mistral:7b (openai, simulated server on 127.0.0.1: truncated; times and latencies simulated)", "on truncation: more_tokens (max tokens ≥ 256)"}},
		{name: "a battery of one's own against a scripted server", server: true,
			args: []string{"probe", "--model", "m", "--prompts", battery, "--candidates", "hermes", "-q", "--option", "temperature=0"},
			out:  []string{"tools in the system prompt: hermes", "  w       content  hermes", "dialect: hermes"}},
		{name: "list the simulations", args: []string{"probe", "--sims"},
			out: []string{"hermes-leak  qwen2.5-coder:7b", "malformed", "native", "pythonic", "truncated"}},
		{name: "server unreachable", closed: true, args: []string{"probe", "--model", "m", "-q"}, code: exitServer,
			errOut: []string{"dialect-probe: cannot reach the ollama server at http://127.0.0.1:", "is the server running?"}},
		{name: "model missing", server: true, models: []string{"other"}, args: []string{"probe", "--model", "m", "-q"}, code: exitServer,
			errOut: []string{`has no model "m" (ollama pull m): model 'm' not found`}},
		{name: "no model", args: []string{"probe"}, code: 2, errOut: []string{"--model is required"}},
		{name: "sim and host", args: []string{"probe", "--sim", "native", "--host", "http://x"}, code: 2, errOut: []string{"takes no --host"}},
		{name: "unknown sim", args: []string{"probe", "--sim", "gpt-9"}, code: 2, errOut: []string{`no simulation is named "gpt-9"; there are: hermes-leak, malformed`}},
		{name: "unknown candidate", args: []string{"probe", "--sim", "native", "--candidates", "klingon", "-q"}, code: 2, errOut: []string{"TLP-018"}},
		{name: "bad api", args: []string{"probe", "--model", "m", "--api", "grpc"}, code: 2, errOut: []string{"--api must be ollama or openai"}},
		{name: "nothing to ask", args: []string{"probe", "--sim", "native", "--no-native", "--no-prompted"}, code: 2},
		{name: "bad battery", args: []string{"probe", "--sim", "native", "--prompts", "/nonexistent/p.json"}, code: 2},
		{name: "bad option", args: []string{"probe", "--sim", "native", "--option", "novalue"}, code: 2, errOut: []string{"is not KEY=VALUE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if tt.server {
				srv := fakeserver.NewServer(fakeserver.ResponderFunc(func(req *fakeserver.Request) fakeserver.Turn {
					if len(req.Tools) == 0 && strings.Contains(req.Messages[0].Content, "<tool_call>") {
						return fakeserver.Turn{Content: hermes}
					}
					return fakeserver.Turn{Content: "Sunny."}
				}), &fakeserver.Options{Models: tt.models})
				defer srv.Close()
				args = append(args, "--host", srv.URL)
			}
			if tt.closed {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				host := "http://" + ln.Addr().String()
				ln.Close()
				args = append(args, "--host", host)
			}
			stdout, stderr, code := runCLI(t, "", args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			for _, s := range tt.out {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range tt.errOut {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
		})
	}
}

// The built-in battery printed is a battery --prompts reads back, and the
// JSON report decodes into probe.Report with a config that parses.
func TestProbeBatteryAndJSON(t *testing.T) {
	stdout, _, code := runCLI(t, "", "probe", "--print-prompts")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, err := probe.ParseBattery([]byte(stdout)); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "", "probe", "--sim", "malformed", "--json", "--keep-text")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep probe.Report
	dec := json.NewDecoder(bytes.NewReader([]byte(stdout)))
	if err := dec.Decode(&rep); err != nil {
		t.Fatal(err)
	}
	if rep.Recommendation.Dialect != "llama3_json" || len(rep.Modes) != 4 || rep.Modes[0].Results[0].Answer.Text == "" {
		t.Errorf("report %+v", rep.Recommendation)
	}
	if _, err := config.Parse([]byte(rep.Recommendation.Config)); err != nil {
		t.Error(err)
	}
}
