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
