package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
	"github.com/dialectkit/toolcall/schema"
)

// FuzzValidate validates any arguments against the tools of the dialect
// corpus, with coercion, risky coercion and strictness picked by the
// fuzzer. On every input: no panic; an error carries a catalogued code and
// names no argument value; a success is a JSON object that, without
// coercion, is the input byte for byte, and with coercion validates again
// unchanged (coercion is idempotent).
func FuzzValidate(f *testing.F) {
	set := fuzzcheck.CorpusTools(f)
	names := set.Names()
	if len(names) == 0 {
		f.Fatal("no tools in the corpus")
	}
	for i, args := range []string{
		`{}`, `{"city": "Paris"}`, `{"city": 5, "days": "3"}`, `{"location": "Tokyo", "unit": "celsius"}`,
		`{"a": {"b": [1, 2, {"c": null}]}}`, `[]`, `"x"`, `{"a": 1, "a": 2}`, `{`, "\xff",
		`{"query": "secretvalue123", "limit": "ten"}`, `{"enabled": "false", "count": "007"}`,
		`{"x": ` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`,
	} {
		for j := range names {
			f.Add([]byte(args), uint8(j), uint8(i%8))
		}
	}
	f.Fuzz(func(t *testing.T, args []byte, pick, flags uint8) {
		tool, _ := set.Lookup(names[int(pick)%len(names)])
		opts := schema.Options{Coerce: flags&1 != 0, AllowRisky: flags&2 != 0, Strict: flags&4 != 0}
		out, repairs, err := tool.Validate(args, opts)
		if err != nil {
			var verr *toolcall.Error
			if !errors.As(err, &verr) || !fuzzcheck.KnownCode(verr.Code) {
				t.Fatalf("uncoded error %v", err)
			}
			if v := leakedValue(args, tool, verr.Error()); v != "" {
				t.Fatalf("error %q shows the argument value %q", verr.Error(), v)
			}
			for _, vi := range verr.Violations {
				if v := leakedValue(args, tool, vi.Message+" "+vi.Expected+" "+vi.Actual+" "+vi.Path); v != "" {
					t.Fatalf("violation %+v shows the argument value %q", vi, v)
				}
			}
			return
		}
		if !json.Valid(out) || !gjson.ParseBytes(out).IsObject() {
			t.Fatalf("accepted %q, which is not a JSON object", out)
		}
		if !opts.Coerce && (!bytes.Equal(out, args) || len(repairs) > 0) {
			t.Fatalf("valid arguments changed without coercion: %q -> %q", args, out)
		}
		again, more, verr := tool.Validate(out, opts)
		if verr != nil || !bytes.Equal(again, out) || len(more) > 0 {
			t.Fatalf("coercion is not idempotent: %q -> %q -> %q (%v, %v)", args, out, again, more, verr)
		}
	})
}

// leakedValue returns a string value of args that text shows, or "". Only
// values that could not appear for another reason count: eight bytes or
// more, not found in the tool's schema and not a key of args.
func leakedValue(args []byte, tool *schema.Tool, text string) string {
	keys := map[string]bool{}
	var values []string
	var walk func(v gjson.Result)
	walk = func(v gjson.Result) {
		v.ForEach(func(k, e gjson.Result) bool {
			if k.Exists() {
				keys[k.String()] = true
			}
			if e.Type == gjson.String {
				values = append(values, e.Str)
			}
			if e.IsObject() || e.IsArray() {
				walk(e)
			}
			return true
		})
	}
	if !gjson.ValidBytes(args) {
		return ""
	}
	walk(gjson.ParseBytes(args))
	params := string(tool.Parameters)
	for _, v := range values {
		if len(v) < 8 || keys[v] || strings.Contains(params, v) || strings.Contains(tool.Name, v) {
			continue
		}
		if strings.Contains(text, v) {
			return v
		}
	}
	return ""
}
