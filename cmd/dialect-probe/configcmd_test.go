package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
