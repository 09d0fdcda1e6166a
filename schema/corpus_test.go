package schema

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/dialectkit/toolcall"
)

// Every tool set of the dialect corpus compiles, and every expected call to
// a tool with a schema validates strictly, without coercion.
func TestCorpusTools(t *testing.T) {
	f, err := os.Open("../testdata/corpus/dialects.dev.jsonl")
	if err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	sets, calls := 0, 0
	for sc.Scan() {
		var v struct {
			ID       string          `json:"id"`
			Tools    json.RawMessage `json:"tools"`
			Expected []struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"expected"`
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		tools, err := toolcall.ParseTools(v.Tools)
		if err != nil || len(tools) == 0 {
			continue
		}
		set, err := NewSet(tools...)
		if err != nil {
			t.Errorf("%s: %v", v.ID, err)
			continue
		}
		sets++
		for _, c := range v.Expected {
			tool, ok := set.Lookup(c.Name)
			if !ok || tool.Parameters == nil || len(c.Arguments) == 0 || string(c.Arguments) == "null" {
				continue
			}
			calls++
			if _, _, e := tool.validate(c.Arguments, Options{}); e != nil {
				t.Errorf("%s: expected call to %s does not validate: %v", v.ID, c.Name, e)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tool sets compiled, %d expected calls validated", sets, calls)
}
