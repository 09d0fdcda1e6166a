package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
	if code != 0 || !strings.HasPrefix(stdout, "dialect-probe "+release+" ") || !strings.Contains(stdout, " go1.") {
		t.Errorf("--version: exit %d, %q", code, stdout)
	}
	vcs := []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-24T05:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	for _, tc := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			release + " (revision 0123456789ab, 2026-11-24T05:00:00Z, modified) go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261124050000-0123456789ab"}},
			release + " (module v0.0.0-20261124050000-0123456789ab) go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: release}}, release + " go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8"}, release + " go1.26.8"},
	} {
		if got := versionOf(tc.info); got != tc.want {
			t.Errorf("versionOf(%s) = %q, want %q", tc.info.Main.Version, got, tc.want)
		}
	}
}

// TestChangelogNamesRelease: a development version has its changes under
// "Unreleased" in CHANGELOG.md; a release has a heading of its own.
func TestChangelogNamesRelease(t *testing.T) {
	data, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	heading := "## " + release
	if strings.HasSuffix(release, "-dev") {
		heading = "## Unreleased"
	}
	if !strings.Contains(string(data), "\n"+heading+"\n") {
		t.Errorf("CHANGELOG.md has no %q heading for version %s", heading, release)
	}
}

// TestTerminalInputIsAnnounced: parse and repair reading standard input
// from a terminal say so on standard error; from a pipe, a file or the
// null device they say nothing.
func TestTerminalInputIsAnnounced(t *testing.T) {
	real := isTerminal
	t.Cleanup(func() { isTerminal = real })
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if real(null) || real(strings.NewReader("")) || real(os.NewFile(^uintptr(0), "bad")) {
		t.Error("the null device, a reader or a bad file is taken for a terminal")
	}

	isTerminal = func(io.Reader) bool { return true }
	for _, args := range [][]string{{"parse"}, {"parse", "-"}, {"parse", "--json"}, {"repair"}, {"repair", "--jsonl"}} {
		_, stderr, _ := runCLI(t, `{"a": 1}`, args...)
		if !strings.Contains(stderr, "reading standard input") {
			t.Errorf("%v from a terminal: stderr %q", args, stderr)
		}
	}
	file := filepath.Join(t.TempDir(), "out.txt")
	if err := os.WriteFile(file, []byte(`{"a": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, _ := runCLI(t, "", "repair", file); strings.Contains(stderr, "standard input") {
		t.Errorf("reading a file: stderr %q", stderr)
	}
	isTerminal = func(io.Reader) bool { return false }
	if _, stderr, _ := runCLI(t, `{"a": 1}`, "repair"); strings.Contains(stderr, "standard input") {
		t.Errorf("reading a pipe: stderr %q", stderr)
	}
}

// TestRepairValidInputByteForByte: valid JSON comes out exactly as it
// went in, with its own line ending or none; repaired JSON ends with one
// newline.
func TestRepairValidInputByteForByte(t *testing.T) {
	for _, in := range []string{"{\"a\":1}\n", `{"a":1}`, "  {\"a\": [1, 2]}\r\n", "[]\n\n", `"x"`} {
		stdout, stderr, code := runCLI(t, in, "repair")
		if code != 0 || stdout != in || stderr != "" {
			t.Errorf("repair %q: exit %d, stdout %q, stderr %q", in, code, stdout, stderr)
		}
	}
	stdout, _, code := runCLI(t, "{'a': 1,}\n", "repair")
	if code != 0 || stdout != "{\"a\":1}\n" {
		t.Errorf("repaired: exit %d, stdout %q", code, stdout)
	}
}

// TestParseJSONLTextChunksMismatch: a line that gives both "text" and
// "chunks" is refused with TLP-016 when they disagree, and parsed when
// they agree.
func TestParseJSONLTextChunksMismatch(t *testing.T) {
	in := strings.Join([]string{
		`{"id": 1, "dialect": "hermes", "text": "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>", "chunks": ["<tool_call>{\"name\": \"b\", ", "\"arguments\": {}}</tool_call>"]}`,
		`{"id": 2, "dialect": "hermes", "text": "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>", "chunks": ["<tool_call>{\"name\": \"a\", ", "\"arguments\": {}}</tool_call>"]}`,
		`{"id": 3, "text": "hello", "chunks": ["hel", "lo", " world"]}`,
		`{"id": 4, "text": "hello world", "chunks": ["hel", "lo"]}`,
		`{"id": 5, "text": "", "chunks": []}`,
		`{"id": 6, "text": "x", "chunks": []}`,
	}, "\n")
	stdout, stderr, code := runCLI(t, in, "parse", "--jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	if len(lines) != 6 {
		t.Fatalf("%d lines:\n%s", len(lines), stdout)
	}
	for i, wantErr := range []bool{true, false, true, true, false, true} {
		errs, _ := lines[i]["errors"].([]any)
		calls, _ := lines[i]["calls"].([]any)
		if wantErr {
			if len(errs) != 1 || errs[0].(map[string]any)["code"] != "TLP-016" || len(calls) != 0 ||
				!strings.Contains(errs[0].(map[string]any)["message"].(string), "differ") {
				t.Errorf("line %d: want a TLP-016 for the mismatch, got %v", i+1, lines[i])
			}
		} else if len(errs) != 0 {
			t.Errorf("line %d: %v", i+1, lines[i])
		}
	}
	if calls, _ := lines[1]["calls"].([]any); len(calls) != 1 {
		t.Errorf("agreeing line: %v", lines[1])
	}
	if at, ok := chunksDiffer("abcdef", []string{"ab", "cX", "ef"}); !ok || at != 3 {
		t.Errorf("chunksDiffer = %d, %v; want 3, true", at, ok)
	}
}

// TestShortFlagsMeanOneThing: -v is --verbose in every command that has
// it, and the version is --version or -V, never -v.
func TestShortFlagsMeanOneThing(t *testing.T) {
	root := newRoot(strings.NewReader(""), io.Discard, io.Discard)
	root.InitDefaultHelpFlag()
	var walk func(c *cobra.Command)
	verbose := 0
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			switch {
			case f.Shorthand == "v" && f.Name != "verbose":
				t.Errorf("%s: -v is --%s", c.CommandPath(), f.Name)
			case f.Shorthand == "v":
				verbose++
			case f.Name == "version" && f.Shorthand != "V":
				t.Errorf("%s: --version has short form %q, want V", c.CommandPath(), f.Shorthand)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if verbose < 3 {
		t.Errorf("-v is --verbose in %d commands, want call, probe and serve", verbose)
	}
	for _, flag := range []string{"-V", "--version"} {
		if stdout, _, code := runCLI(t, "", flag); code != 0 || !strings.HasPrefix(stdout, "dialect-probe "+release) {
			t.Errorf("%s: exit %d, %q", flag, code, stdout)
		}
	}
	if stdout, _, code := runCLI(t, "", "-v"); code != 2 || strings.Contains(stdout, release) {
		t.Errorf("-v at the root: exit %d, %q; want a usage error", code, stdout)
	}
}
