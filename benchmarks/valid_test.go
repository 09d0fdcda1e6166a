package benchmarks

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall/lenient"
)

// validArgs is a realistic tool-call argument object of about 1 KB (the
// same as lenient's BenchmarkValid).
const validArgs = `{"path": "src/handlers/user_profile.go", "mode": "edit", "line_start": 120, "line_end": 164,
 "replace": true, "create_dirs": false, "encoding": "utf-8", "tags": ["refactor", "handlers", "profile"],
 "content": "func (h *Handler) Profile(w http.ResponseWriter, r *http.Request) {\n\tid := chi.URLParam(r, \"id\")\n\tuser, err := h.store.User(r.Context(), id)\n\tif err != nil {\n\t\thttp.Error(w, \"not found\", http.StatusNotFound)\n\t\treturn\n\t}\n\twriteJSON(w, user)\n}\n",
 "options": {"format": true, "vet": true, "timeout_ms": 30000, "retries": 2, "ratio": 0.75},
 "notes": "Moved the lookup into the store; the handler only maps errors to HTTP status codes. \u00e9\u00e8",
 "reviewers": [{"name": "ana", "required": true}, {"name": "bo", "required": false}], "dry_run": null}`

// validSets are the valid inputs measured: one 1 KB argument object, 56 of
// them in an array, and the corpus's expected objects and arrays (small
// tool arguments, most under 100 bytes).
func validSets(tb testing.TB) []struct {
	name   string
	inputs [][]byte
} {
	var small [][]byte
	for _, v := range loadCorpus(tb) {
		if e := []byte(v.Expected); len(e) > 0 && (e[0] == '{' || e[0] == '[') && gjson.ValidBytes(e) {
			small = append(small, e)
		}
	}
	large := "[" + strings.TrimSuffix(strings.Repeat(validArgs+",", 56), ",") + "]"
	return []struct {
		name   string
		inputs [][]byte
	}{
		{"1 KB argument object", [][]byte{[]byte(validArgs)}},
		{"56 of them in an array", [][]byte{[]byte(large)}},
		{"corpus objects and arrays", small},
	}
}

// validators are lenient.Repair on valid input and the two validators it
// is measured against.
var validators = []struct {
	name  string
	valid func([]byte) bool
}{
	{"lenient.Repair", func(b []byte) bool { r := lenient.Repair(b, nil); return r.Err == nil && !r.Attempted }},
	{"gjson.Valid", gjson.ValidBytes},
	{"encoding/json.Valid", json.Valid},
}

// TestValidRatio measures lenient.Repair on valid input (the fast path:
// validity, UTF-8, depth and repeated keys) against gjson.Valid and
// encoding/json's Valid, interleaving the three and keeping each one's
// best of many rounds. It logs the ratios (lower is faster; the target is
// at most 1.5 times gjson.Valid).
func TestValidRatio(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	for _, set := range validSets(t) {
		size := 0
		for _, in := range set.inputs {
			size += len(in)
		}
		passes := max(1, (256<<10)/size)
		best := make([]time.Duration, len(validators))
		for i := range best {
			best[i] = time.Hour
		}
		for range 40 {
			for i, v := range validators {
				start := time.Now()
				for range passes {
					for _, in := range set.inputs {
						if !v.valid(in) {
							t.Fatalf("%s: %s rejects a valid input", set.name, v.name)
						}
					}
				}
				best[i] = min(best[i], time.Since(start))
			}
		}
		t.Logf("%s (%d inputs, %d bytes): lenient %v, gjson.Valid %v, encoding/json %v for %d passes: %.2fx gjson.Valid, %.2fx encoding/json",
			set.name, len(set.inputs), size, best[0], best[1], best[2], passes,
			float64(best[0])/float64(best[1]), float64(best[0])/float64(best[2]))
	}
}
