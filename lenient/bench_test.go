package lenient

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// validArgs is a realistic tool-call argument object of about 1 KB.
var validArgs = []byte(`{"path": "src/handlers/user_profile.go", "mode": "edit", "line_start": 120, "line_end": 164,
 "replace": true, "create_dirs": false, "encoding": "utf-8", "tags": ["refactor", "handlers", "profile"],
 "content": "func (h *Handler) Profile(w http.ResponseWriter, r *http.Request) {\n\tid := chi.URLParam(r, \"id\")\n\tuser, err := h.store.User(r.Context(), id)\n\tif err != nil {\n\t\thttp.Error(w, \"not found\", http.StatusNotFound)\n\t\treturn\n\t}\n\twriteJSON(w, user)\n}\n",
 "options": {"format": true, "vet": true, "timeout_ms": 30000, "retries": 2, "ratio": 0.75},
 "notes": "Moved the lookup into the store; the handler only maps errors to HTTP status codes. \u00e9\u00e8",
 "reviewers": [{"name": "ana", "required": true}, {"name": "bo", "required": false}], "dry_run": null}`)

// validLarge is a 64 KB array of such objects.
var validLarge = []byte("[" + strings.TrimSuffix(strings.Repeat(string(validArgs)+",", 56), ",") + "]")

func BenchmarkValid(b *testing.B) {
	for _, in := range []struct {
		name string
		doc  []byte
	}{{"1KB", validArgs}, {"64KB", validLarge}} {
		b.Run(in.name+"/gjson.Valid", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.doc)))
			for b.Loop() {
				if !gjson.ValidBytes(in.doc) {
					b.Fatal("invalid")
				}
			}
		})
		b.Run(in.name+"/encoding-json.Valid", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.doc)))
			for b.Loop() {
				if !json.Valid(in.doc) {
					b.Fatal("invalid")
				}
			}
		})
		b.Run(in.name+"/Repair", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.doc)))
			for b.Loop() {
				if res := Repair(in.doc, nil); res.Err != nil || res.Attempted {
					b.Fatal(res.Err)
				}
			}
		})
	}
}

var malformed = []struct{ name, in string }{
	{"trailing_comma", `{"path": "test.txt", "mode": "w", "lines": [1, 2, 3,],}`},
	{"single_quotes", `{'path': 'test.txt', 'mode': 'w', 'append': false}`},
	{"python", `{'path': 'test.txt', 'append': True, 'extra': None, 'range': (1, 2)}`},
	{"truncated", `{"path": "notes/today.md", "content": "Dear diary,\nit rained all day and the`},
	{"inner_quotes", `{"message": "He said "hello" to me", "to": "ana"}`},
	{"fenced_prose", "Sure! Here is the call:\n```json\n{\"city\": \"Paris\", \"days\": 3,}\n```\nLet me know."},
	{"unquoted", `{city: Paris, days: 3, unit: celsius}`},
	{"windows_path", `{"path": "C:\Users\new\file.txt", "overwrite": true}`},
}

func BenchmarkMalformed(b *testing.B) {
	for _, m := range malformed {
		in := []byte(m.in)
		b.Run(m.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if res := Repair(in, nil); res.Err != nil {
					b.Fatal(res.Err)
				}
			}
		})
	}
}

// BenchmarkMalformedLarge measures the scanner on big inputs of two sizes;
// their per-byte figures should match (linear time).
func BenchmarkMalformedLarge(b *testing.B) {
	for _, n := range []int{64 << 10, 256 << 10} {
		in := []byte(`{"items": [` + fill(n, `{'id': 1, "name": "He said "hi"", ok: True,}, `))
		b.Run(sizeName(n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if res := Repair(in, &Options{Timeout: -1}); res.Err != nil {
					b.Fatal(res.Err)
				}
			}
		})
	}
}

func sizeName(n int) string {
	if n >= 1<<10 {
		return strconv.Itoa(n>>10) + "KB"
	}
	return strconv.Itoa(n) + "B"
}

// BenchmarkCorpus repairs every vector of repair.dev.jsonl.
func BenchmarkCorpus(b *testing.B) {
	vs := loadCorpus(b)
	total := 0
	for _, v := range vs {
		total += len(v.Input)
	}
	b.ReportAllocs()
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, v := range vs {
			RepairString(v.Input, nil)
		}
	}
}
