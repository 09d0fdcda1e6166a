package lenient

import (
	"encoding/json"
	"strings"
	"testing"
)

// cutDocuments are argument documents of the shapes models write, some
// already malformed, cut by TestEveryCutKeepsAPrefix at every byte.
var cutDocuments = []string{
	`{"path": "src/main.go", "content": "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n", "mode": 420, "append": false, "tags": ["a", "b c"], "opts": {"x": null, "y": -1.5e3}}`,
	`[{"name": "read", "arguments": {"path": "a.txt"}}, {"name": "write", "arguments": {"path": "b.txt", "text": "x, y: z"}}]`,
	`{"cmd": ["ls", "-la", "/tmp/my dir"], "env": {"PATH": "/usr/bin", "HOME": "/home/u"}, "timeout": 30, "shell": true}`,
	`{"edits": [{"old": "if (a) {", "new": "if (a && b) {"}, {"old": "return x;", "new": "return y; // done"}], "file": "a.js"}`,
	`{"title": "Q3 report: \"growth\" & plans", "body": "Line 1\nLine 2, with comma\n- item [1]\n- item {2}\n", "labels": ["x", "y"], "draft": null}`,
	`{'path': 'a.txt', 'lines': (1, 2), 'ok': True, 'note': False, 'text': "it's"}`,
	"{path: \"a.txt\", mode: 'w', tags: [x, y], n: .5, // comment\n last: \"z\",}",
	"```json\n{\"a\": \"b\", \"c\": [1, 2]}\n```",
	"{\"rows\": [{\"id\": 1, \"name\": \"a, b\"}, {\"id\": 2, \"name\": \"c: d\"}], \"total\": 2, \"next\": null}",
	"{\n  \"path\": \"notes.md\",\n  \"content\": \"# Notes\\n\\n- one\\n- two\\n\",\n  \"append\": false\n}",
	`{"a": 1, "b": 2.5, "c": -3, "d": true, "e": false, "f": null, "g": "h", "i": [true, false, null, 0, "j"]}`,
	`{"q": "it's \"quoted\" {braces} [brackets], commas: colons", "n": [1, [2, [3, {"k": "v"}]]], "e": {}, "f": [], "u": "\u00e9\ud83d\ude00"}`,
}

// TestEveryCutKeepsAPrefix cuts each document at every byte, as a token
// limit does, and checks that the repair is a prefix of the whole
// document's value: every member read so far keeps its value, a string
// cut off keeps the characters written, nothing is invented or merged.
func TestEveryCutKeepsAPrefix(t *testing.T) {
	for _, d := range cutDocuments {
		var full any
		if err := json.Unmarshal(RepairString(d, nil).Output, &full); err != nil {
			t.Fatalf("%q: %v", d, err)
		}
		first := strings.IndexAny(d, "{[")
		for cut := first + 1; cut < len(d); cut++ {
			in := d[:cut]
			res := RepairString(in, nil)
			if res.Err != nil {
				t.Errorf("cut %d of %q: %v", cut, d, res.Err)
				continue
			}
			var got any
			if err := json.Unmarshal(res.Output, &got); err != nil {
				t.Fatalf("cut %d of %q: invalid output %q", cut, d, res.Output)
			}
			if !prefixOf(got, full) {
				t.Errorf("cut %d: …%q gives %s, not a prefix of %s", cut, in[max(0, cut-30):], res.Output, RepairString(d, nil).Output)
			}
		}
	}
}

// prefixOf reports whether got can be what full was cut to: objects hold
// a subset of full's members (a key may be cut short), arrays a prefix of
// its elements, strings a prefix of its text, scalars the same type.
func prefixOf(got, full any) bool {
	switch g := got.(type) {
	case map[string]any:
		f, ok := full.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range g {
			if fv, ok := f[k]; ok {
				if !prefixOf(v, fv) {
					return false
				}
				continue
			}
			cut := false
			for fk := range f {
				cut = cut || strings.HasPrefix(fk, k)
			}
			if !cut {
				return false
			}
		}
		return true
	case []any:
		f, ok := full.([]any)
		if !ok || len(g) > len(f) {
			return false
		}
		for i := range g {
			if !prefixOf(g[i], f[i]) {
				return false
			}
		}
		return true
	case string:
		f, ok := full.(string)
		return ok && strings.HasPrefix(f, g)
	case float64:
		_, ok := full.(float64)
		return ok
	case bool:
		_, ok := full.(bool)
		return ok
	}
	return true // null: a literal cut to its first letters
}
