package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestUnknownDialectIsUsageError: a dialect name that is not registered,
// in --dialect or --fallback of parse and in --dialect of call, is a usage
// error (exit status 2, TLP-018) that names the closest known dialects,
// and nothing is parsed.
func TestUnknownDialectIsUsageError(t *testing.T) {
	text := `<tool_call>{"name": "f", "arguments": {}}</tool_call>`
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"parse", "--dialect", "hermas"}, []string{`--dialect "hermas"`, "closest known: hermes"}},
		{[]string{"parse", "--dialect", "Qwen3-Coder", "--json"}, []string{"closest known: qwen3_coder"}},
		{[]string{"parse", "--dialect", "gemma"}, []string{"closest known: gemma4, "}},
		{[]string{"parse", "--dialect", "llama3", "--jsonl"}, []string{"llama3_builtin", "llama3_json"}},
		{[]string{"parse", "--fallback", "hermes,pythnic"}, []string{`--fallback "pythnic"`, "closest known: pythonic"}},
		{[]string{"parse", "--dialect", "nosuch", "--stream"}, []string{`"nosuch"`, "known: apertus, ", "hermes"}},
		{[]string{"call", "--model", "m", "--prompt", "hi", "--dialect", "hermez", "--host", "http://127.0.0.1:9"}, []string{"closest known: hermes"}},
	}
	for _, tt := range tests {
		stdout, stderr, code := runCLI(t, text, tt.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", tt.args, code)
		}
		if stdout != "" {
			t.Errorf("%v: printed a result:\n%s", tt.args, stdout)
		}
		for _, w := range append(tt.want, "TLP-018") {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr lacks %q: %s", tt.args, w, stderr)
			}
		}
	}
}

func TestClosestDialects(t *testing.T) {
	names := []string{"deepseek_v3", "deepseek_v31", "gemma4", "hermes", "json", "markdown_json", "pythonic"}
	tests := map[string]string{
		"hermes ":  "hermes",
		"HERMES":   "hermes",
		"deepseek": "deepseek_v3,deepseek_v31",
		"jsno":     "json",
		"zzzzzz":   "",
		"":         "",
	}
	for in, want := range tests {
		if got := strings.Join(closestDialects(names, in, 2), ","); got != want {
			t.Errorf("closestDialects(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHelpHasExitStatus: every command that can fail says what its exit
// statuses mean in its --help.
func TestHelpHasExitStatus(t *testing.T) {
	for _, sub := range []string{"parse", "repair", "call", "probe", "detect"} {
		stdout, _, code := runCLI(t, "", sub, "--help")
		words := strings.Join(strings.Fields(stdout), " ")
		if code != 0 || !strings.Contains(words, "Exit status: 0 ") || !strings.Contains(words, " 2 for usage") {
			t.Errorf("%s --help: exit %d, no exit-status paragraph:\n%s", sub, code, stdout)
		}
	}
}

func TestVersion(t *testing.T) {
	stdout, _, code := runCLI(t, "", "--version")
	if code != 0 || !strings.HasPrefix(stdout, "dialect-probe ") || !strings.Contains(stdout, " go1.") {
		t.Errorf("--version: exit %d, %q", code, stdout)
	}
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.4.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-24T05:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	if got, want := versionOf(info), "v0.4.0 (revision 0123456789ab, 2026-11-24T05:00:00Z, modified) go1.26.8"; got != want {
		t.Errorf("versionOf = %q, want %q", got, want)
	}
	if got, want := versionOf(&debug.BuildInfo{GoVersion: "go1.26.8"}), "(devel) go1.26.8"; got != want {
		t.Errorf("versionOf = %q, want %q", got, want)
	}
}
