// Package corpustest loads the dialect test vectors in testdata/corpus and
// checks parse results against them. Tests of every dialect package and of
// the registry share it, so that "passes a vector" means one thing.
package corpustest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/schema"
)

// Vector is one dialect test vector.
type Vector struct {
	ID                string          `json:"id"`
	Peer              string          `json:"peer"`
	Dialect           string          `json:"dialect"`
	Text              string          `json:"text"`
	Expected          []ExpectedCall  `json:"expected"`
	Match             string          `json:"match"` // exact, subset or names
	ExpectedContent   *string         `json:"expected_content"`
	ExpectedReasoning *string         `json:"expected_reasoning"`
	Tools             json.RawMessage `json:"tools"`
	Chunks            []string        `json:"chunks"`
	ArgTypes          string          `json:"arg_types"` // "schema": values were typed by a schema
	Tags              []string        `json:"tags"`
}

// ExpectedCall is a call a vector expects. Arguments is null when only the
// name is checked.
type ExpectedCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Root returns the module root, found by walking up from the working
// directory to the directory holding go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "testdata", "corpus")); err == nil {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("corpustest: no module root with testdata/corpus above the working directory")
		}
		dir = parent
	}
}

// Load reads testdata/corpus/<file> (JSON lines) from the module root.
func Load(file string) ([]Vector, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(root, "testdata", "corpus", file))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Vector
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var v Vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("corpustest: %s line %d: %w", file, line, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// Dialects loads the dev dialect corpus.
func Dialects() ([]Vector, error) { return Load("dialects.dev.jsonl") }

// PeerFiles are the corpus files of vectors taken from peers' test suites:
// the dev sample, and every remaining case of Ollama's parser tests that is
// a model output with the calls it expects.
var PeerFiles = []string{"dialects.dev.jsonl", "dialects.ollama.jsonl"}

// ForDialect returns the vectors of one dialect.
func ForDialect(vs []Vector, dialect string) []Vector {
	var out []Vector
	for _, v := range vs {
		if v.Dialect == dialect {
			out = append(out, v)
		}
	}
	return out
}

// ToolSet returns the vector's declared tools, or nil when it has none.
func (v Vector) ToolSet() (*schema.Set, error) {
	if len(v.Tools) == 0 || string(v.Tools) == "null" {
		return nil, nil
	}
	tools, err := toolcall.ParseTools(v.Tools)
	if err != nil {
		return nil, err
	}
	return schema.NewSet(tools...)
}

// CheckCalls compares calls with what the vector expects, by its match
// mode: "names" compares names in order; "subset" also requires every
// expected argument to be present with an equal value; "exact" requires
// equal argument objects. The number of calls must match in every mode.
// With arg_types "schema", a scalar and a string spelling it compare equal,
// because the vector's values were typed by a schema the vector may not carry.
func (v Vector) CheckCalls(got []toolcall.Call) error {
	if len(got) != len(v.Expected) {
		return fmt.Errorf("got %d calls %s, want %d %s", len(got), names(got), len(v.Expected), expectedNames(v.Expected))
	}
	for i, want := range v.Expected {
		if got[i].Name != want.Name {
			return fmt.Errorf("call %d: name %q, want %q", i, got[i].Name, want.Name)
		}
		if v.Match == "names" || len(want.Arguments) == 0 || string(want.Arguments) == "null" {
			continue
		}
		var w, g any
		if err := decode(want.Arguments, &w); err != nil {
			return fmt.Errorf("call %d: expected arguments: %w", i, err)
		}
		if err := decode(got[i].Arguments, &g); err != nil {
			return fmt.Errorf("call %d: arguments %s are not JSON: %w", i, got[i].Arguments, err)
		}
		loose := v.ArgTypes == "schema"
		if v.Match == "subset" {
			if !subset(w, g, loose) {
				return fmt.Errorf("call %d: arguments %s do not include %s", i, got[i].Arguments, want.Arguments)
			}
			continue
		}
		if !equal(w, g, loose) {
			return fmt.Errorf("call %d: arguments %s, want %s", i, got[i].Arguments, want.Arguments)
		}
	}
	return nil
}

// CheckContent compares content with the vector's expected content, when it
// has one, ignoring surrounding whitespace.
func (v Vector) CheckContent(content string) error {
	if v.ExpectedContent == nil {
		return nil
	}
	if strings.TrimSpace(content) != strings.TrimSpace(*v.ExpectedContent) {
		return fmt.Errorf("content %q, want %q", content, *v.ExpectedContent)
	}
	return nil
}

// CheckReasoning compares reasoning with the vector's expected reasoning,
// when it has one, ignoring surrounding whitespace.
func (v Vector) CheckReasoning(reasoning string) error {
	if v.ExpectedReasoning == nil {
		return nil
	}
	if strings.TrimSpace(reasoning) != strings.TrimSpace(*v.ExpectedReasoning) {
		return fmt.Errorf("reasoning %q, want %q", reasoning, *v.ExpectedReasoning)
	}
	return nil
}

func decode(b []byte, v *any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

func equal(want, got any, loose bool) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !equal(wv, gv, loose) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !equal(w[i], g[i], loose) {
				return false
			}
		}
		return true
	case json.Number:
		if g, ok := got.(json.Number); ok {
			return numEqual(w, g)
		}
		if s, ok := got.(string); ok && loose {
			return numEqual(w, json.Number(strings.TrimSpace(s)))
		}
		return false
	case string:
		if g, ok := got.(string); ok {
			return g == w
		}
		if loose {
			return scalarText(got) == strings.TrimSpace(w)
		}
		return false
	case bool, nil:
		if loose {
			if s, ok := got.(string); ok {
				return strings.TrimSpace(s) == scalarText(want)
			}
		}
		return reflect.DeepEqual(want, got)
	}
	return reflect.DeepEqual(want, got)
}

// subset reports whether want is included in got: objects recursively by
// key, everything else by equality.
func subset(want, got any, loose bool) bool {
	wm, ok := want.(map[string]any)
	if !ok {
		return equal(want, got, loose)
	}
	gm, ok := got.(map[string]any)
	if !ok {
		return false
	}
	for k, wv := range wm {
		gv, ok := gm[k]
		if !ok || !subset(wv, gv, loose) {
			return false
		}
	}
	return true
}

func numEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	fa, err1 := a.Float64()
	fb, err2 := b.Float64()
	return err1 == nil && err2 == nil && fa == fb
}

func scalarText(v any) string {
	switch x := v.(type) {
	case json.Number:
		return string(x)
	case bool:
		if x {
			return "true"
		}
		return "false"
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

func names(calls []toolcall.Call) string {
	n := make([]string, len(calls))
	for i, c := range calls {
		n[i] = c.Name
	}
	return fmt.Sprint(n)
}

func expectedNames(calls []ExpectedCall) string {
	n := make([]string, len(calls))
	for i, c := range calls {
		n[i] = c.Name
	}
	return fmt.Sprint(n)
}
