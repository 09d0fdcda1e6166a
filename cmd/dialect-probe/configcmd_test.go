package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
)

func TestConfigShow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yml")
	if err := os.WriteFile(path, []byte("tool_call:\n  max_retries: 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DIALECTKIT_TOOL_CALL_COERCE_TYPES", "true")
	stdout, stderr, code := runCLI(t, "", "config", "show", "--config", path, "--set", "dialect=hermes", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Settings []struct {
			Key, Source, From string
			Value             any
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range out.Settings {
		got[s.Key] = s.Source
	}
	if got["max_retries"] != "file" || got["coerce_types"] != "environment" || got["dialect"] != "flag" || got["retry_delay_ms"] != "default" {
		t.Errorf("sources = %v", got)
	}
	stdout, _, code = runCLI(t, "", "config", "show", "--config", path)
	if code != 0 || !strings.Contains(stdout, "max_retries") || !strings.Contains(stdout, "file ("+path+": tool_call.max_retries)") ||
		!strings.Contains(stdout, "environment (DIALECTKIT_TOOL_CALL_COERCE_TYPES)") {
		t.Errorf("text:\n%s", stdout)
	}
	t.Setenv("DIALECTKIT_TOOL_CALL_MAX_RETRIES", "50")
	if _, stderr, code := runCLI(t, "", "config", "show"); code != 2 || !strings.Contains(stderr, "TLP-024: DIALECTKIT_TOOL_CALL_MAX_RETRIES") {
		t.Errorf("bad env value: exit %d %s", code, stderr)
	}
}

// TestConfigShowModel: --model applies the model's entry of models:, and
// says which entry each value came from; another model gets the section.
func TestConfigShowModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yml")
	data := "tool_call:\n  max_retries: 5\n  models:\n    \"qwen3*\":\n      dialect: hermes\n      fallback: [json]\n"
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "", "config", "show", "--config", path, "--model", "qwen3:8b")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	line := func(key string) string {
		for l := range strings.Lines(stdout) {
			if strings.HasPrefix(l, key+" ") {
				return strings.Join(strings.Fields(l), " ")
			}
		}
		return ""
	}
	for key, want := range map[string]string{
		"dialect":     `dialect "hermes" file (` + path + `: tool_call.models.qwen3*.dialect)`,
		"fallback":    `fallback [json] file (` + path + `: tool_call.models.qwen3*.fallback)`,
		"max_retries": `max_retries 5 file (` + path + `: tool_call.max_retries)`,
	} {
		if got := line(key); got != want {
			t.Errorf("--model qwen3:8b: %q, want %q", got, want)
		}
	}
	stdout, _, _ = runCLI(t, "", "config", "show", "--config", path, "--model", "llama3.2")
	if strings.Contains(stdout, "hermes") || strings.Contains(stdout, "models.") {
		t.Errorf("--model llama3.2 got the qwen3 entry:\n%s", stdout)
	}
}

// TestConfigDiscovery: without --config, call, probe, serve and config
// show read the file $DIALECTKIT_CONFIG names, else .agent/config.yml in
// the working directory, else the user's file; --config overrides them
// all and an empty --config reads none; config show names the file and how it
// was chosen.
func TestConfigDiscovery(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("AppData", filepath.Join(home, "AppData"))
	user, err := config.UserPath()
	if err != nil {
		t.Fatal(err)
	}
	writeFile := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	work := t.TempDir()
	t.Chdir(work)
	named := filepath.Join(t.TempDir(), "named.yml")
	flagged := filepath.Join(t.TempDir(), "flagged.yml")
	agent := filepath.FromSlash(config.AgentPath)
	writeFile(named, "tool_call:\n  max_retries: 4\n")
	writeFile(flagged, "tool_call:\n  max_retries: 5\n")

	tests := []struct {
		name       string
		work, usr  string // the files' contents; "" none
		env        string
		args       []string
		retries    string // max_retries as config show prints it
		fileLine   string
		sourceFrom string // where max_retries came from
	}{
		{name: "none", retries: "3", fileLine: "file: none (no --config, no $DIALECTKIT_CONFIG; looked for .agent/config.yml here, " + user + ")"},
		{name: "user directory", usr: "tool_call:\n  max_retries: 2\n", retries: "2",
			fileLine: "file: " + user + " (found in the user configuration directory)", sourceFrom: user + ": tool_call.max_retries"},
		{name: "working directory over user", work: "tool_call:\n  max_retries: 1\n", usr: "tool_call:\n  max_retries: 2\n", retries: "1",
			fileLine: "file: " + agent + " (found in the working directory)", sourceFrom: agent + ": tool_call.max_retries"},
		{name: "variable over working directory", work: "tool_call:\n  max_retries: 1\n", env: named, retries: "4",
			fileLine: "file: " + named + " ($DIALECTKIT_CONFIG)", sourceFrom: named + ": tool_call.max_retries"},
		{name: "flag over variable", work: "tool_call:\n  max_retries: 1\n", env: named, args: []string{"--config", flagged}, retries: "5",
			fileLine: "file: " + flagged + " (--config)", sourceFrom: flagged + ": tool_call.max_retries"},
		{name: "empty flag reads none", work: "tool_call:\n  max_retries: 1\n", args: []string{"--config", ""}, retries: "3",
			fileLine: "file: none (no --config, no $DIALECTKIT_CONFIG; looked for .agent/config.yml here, " + user + ")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.RemoveAll(filepath.Join(work, ".agent"))
			os.Remove(user)
			if tt.work != "" {
				writeFile(agent, tt.work)
			}
			if tt.usr != "" {
				writeFile(user, tt.usr)
			}
			t.Setenv(config.EnvFile, tt.env)
			stdout, stderr, code := runCLI(t, "", append([]string{"config", "show"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			lines := strings.Split(stdout, "\n")
			if lines[0] != tt.fileLine {
				t.Errorf("first line %q, want %q", lines[0], tt.fileLine)
			}
			want := "max_retries " + tt.retries + " default"
			if tt.sourceFrom != "" {
				want = "max_retries " + tt.retries + " file (" + tt.sourceFrom + ")"
			}
			if !containsFields(stdout, want) {
				t.Errorf("config show lacks %q:\n%s", want, stdout)
			}
			stdout, _, _ = runCLI(t, "", append([]string{"config", "show", "--json"}, tt.args...)...)
			var out struct {
				File config.File
			}
			if err := json.Unmarshal([]byte(stdout), &out); err != nil {
				t.Fatal(err)
			}
			if (out.File.Path == "") != (tt.sourceFrom == "") {
				t.Errorf("--json file = %+v", out.File)
			}
		})
	}
}

// containsFields reports whether a line of s reads want, spacing aside.
func containsFields(s, want string) bool {
	for line := range strings.Lines(s) {
		if strings.Join(strings.Fields(line), " ") == want {
			return true
		}
	}
	return false
}

// TestDiscoveredConfigUsed: the commands that run the loop take their
// settings from a discovered file, and a malformed one is the TLP-024 a
// file named by flag is, for each of them.
func TestDiscoveredConfigUsed(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.MkdirAll(".agent", 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(data string) {
		t.Helper()
		if err := os.WriteFile(filepath.FromSlash(config.AgentPath), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// call: max_retries 1 from the discovered file gives 2 attempts.
	write("tool_call:\n  max_retries: 1\n  retry_delay_ms: 0\n  model_http_retries: 0\n  transport_retries: 0\n")
	srv := fakeserver.NewServer(fakeserver.Script{{Calls: []fakeserver.Call{{Name: "get_wether", Arguments: `{"city":"Paris"}`}}}}, nil)
	defer srv.Close()
	tools, _ := callFiles(t, fastConfig)
	stdout, stderr, code := runCLI(t, "", "call", "--host", srv.URL, "--model", "qwen3:8b", "--tools", tools, "--prompt", "Weather?")
	if code != 1 || !strings.Contains(stdout, "result: failed after 2 attempts") {
		t.Errorf("call with a discovered max_retries 1: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// serve: the serve mapping of the discovered file names the upstream.
	write("serve:\n  upstream: ftp://nowhere\n")
	if _, stderr, code := runCLI(t, "", "serve", "--listen", "127.0.0.1:0"); code != 2 || !strings.Contains(stderr, `--upstream "ftp://nowhere"`) {
		t.Errorf("serve did not read the discovered serve mapping: exit %d %s", code, stderr)
	}
	write("tool_call:\n  max_retries: 99\n")
	want := "TLP-024: " + filepath.FromSlash(config.AgentPath) + ": tool_call.max_retries"
	for _, args := range [][]string{
		{"config", "show"},
		{"call", "--host", srv.URL, "--model", "qwen3:8b", "--prompt", "Weather?"},
		{"probe", "--sim", "hermes-leak"},
		{"serve", "--upstream", srv.URL, "--listen", "127.0.0.1:0"},
	} {
		_, stderr, code := runCLI(t, "", args...)
		_, flagged, _ := runCLI(t, "", append(args, "--config", filepath.FromSlash(config.AgentPath))...)
		if code != 2 || !strings.Contains(stderr, want) || stderr != flagged {
			t.Errorf("%s with a malformed discovered file: exit %d\n%s\nwith --config:\n%s", args[0], code, stderr, flagged)
		}
	}
}
