package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sampleMarker precedes a fenced block of the documentation that shows
// what a command prints on standard output: <!-- output of: dialect-probe
// ARGS -->. The arguments are split on spaces; paths are relative to the
// repository's root.
var sampleMarker = regexp.MustCompile(`^<!-- output of: dialect-probe (.+) -->$`)

// sample is one block of the documentation that shows a command's output.
type sample struct {
	file  string
	line  int // the block's first line, 1-based
	args  []string
	lines []string
}

// docSamples finds the blocks under a sampleMarker in the files.
func docSamples(t *testing.T, files ...string) []sample {
	t.Helper()
	var out []sample
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		var cur *sample
		inBlock := false
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			switch {
			case cur == nil:
				if m := sampleMarker.FindStringSubmatch(line); m != nil {
					cur = &sample{file: name, args: strings.Fields(m[1])}
				}
			case !inBlock:
				if !strings.HasPrefix(line, "```") {
					t.Fatalf("%s:%d: the line after an output marker is not a fence", name, n)
				}
				inBlock, cur.line = true, n+1
			case strings.HasPrefix(line, "```"):
				out = append(out, *cur)
				cur, inBlock = nil, false
			default:
				cur.lines = append(cur.lines, line)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		if cur != nil {
			t.Fatalf("%s: an output marker without its block", name)
		}
	}
	return out
}

// ellipsis in a sample stands for what the sample leaves out: a line of
// it alone stands for any number of lines, and inside a line for any text
// (an id that changes from run to run).
const ellipsis = "…"

// matchSample reports whether the output reads as the sample, and if not,
// the first line that differs.
func matchSample(want, got []string) (bool, string) {
	lineMatches := func(w, g string) bool {
		if !strings.Contains(w, ellipsis) {
			return w == g
		}
		parts := strings.Split(w, ellipsis)
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(g)
	}
	j := 0
	for i := 0; i < len(want); i++ {
		if strings.TrimSpace(want[i]) == ellipsis {
			if i+1 == len(want) {
				return true, ""
			}
			// Skip to the output line the sample goes on with.
			for j < len(got) && !lineMatches(want[i+1], got[j]) {
				j++
			}
			continue
		}
		if j >= len(got) {
			return false, fmt.Sprintf("sample line %d %q: the output has ended", i+1, want[i])
		}
		if !lineMatches(want[i], got[j]) {
			return false, fmt.Sprintf("sample line %d:\n  sample: %q\n  output: %q", i+1, want[i], got[j])
		}
		j++
	}
	if j < len(got) {
		return false, fmt.Sprintf("the output goes on after the sample: %q", got[j])
	}
	return true, ""
}

// TestDocSamples runs the command every output sample of the README and
// the guides shows, and compares what it prints, token counts and times
// included, with the sample: the documentation shows what the tool prints
// today, not what it printed once.
func TestDocSamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{filepath.Join(root, "README.md")}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, docs...)
	samples := docSamples(t, files...)
	// The README shows the probe and parse samples at least.
	if n := len(docSamples(t, files[0])); n < 2 {
		t.Fatalf("README.md has %d output samples, want the probe's and parse's", n)
	}
	t.Chdir(root)
	for _, s := range samples {
		rel, _ := filepath.Rel(root, s.file)
		t.Run(fmt.Sprintf("%s:%d", rel, s.line), func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "", s.args...)
			if code != 0 {
				t.Fatalf("dialect-probe %s: exit %d\n%s", strings.Join(s.args, " "), code, stderr)
			}
			got := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
			if ok, diff := matchSample(s.lines, got); !ok {
				t.Errorf("%s:%d differs from the output of dialect-probe %s: %s\nthe output:\n%s",
					rel, s.line, strings.Join(s.args, " "), diff, stdout)
			}
		})
	}
}

// TestMatchSample: the matcher itself, so that a sample cannot pass by
// accident.
func TestMatchSample(t *testing.T) {
	out := []string{"a", "b id_123", "c", "d", "e"}
	tests := []struct {
		want []string
		ok   bool
	}{
		{[]string{"a", "b id_123", "c", "d", "e"}, true},
		{[]string{"a", "b id_…", "c", "d", "e"}, true},
		{[]string{"a", "  …", "d", "e"}, true},
		{[]string{"a", "…"}, true},
		{[]string{"a", "b id_…", "c"}, false},             // output goes on
		{[]string{"a", "b id_124", "c", "d", "e"}, false}, // a digit differs
		{[]string{"a", "…", "x"}, false},                  // no line x
		{[]string{"a", "b", "c", "d", "e"}, false},        // no ellipsis, no match
		{[]string{"a", "b id_123", "c", "d", "e", "f"}, false},
	}
	for _, tt := range tests {
		if ok, diff := matchSample(tt.want, out); ok != tt.ok {
			t.Errorf("matchSample(%q) = %v (%s), want %v", tt.want, ok, diff, tt.ok)
		}
	}
}
