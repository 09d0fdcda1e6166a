package ollamawire

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden is what a golden file records for one input. Messages and repair
// offsets of per-call errors come from the shared lenient and schema
// packages, which test them; the golden files pin what this package decides:
// calls, text, status, which repairs and errors, and the messages of the
// stream's own errors.
type golden struct {
	Calls     []toolcall.Call `json:"calls"`
	Content   string          `json:"content"`
	Reasoning string          `json:"reasoning,omitempty"`
	Repairs   []goldenRepair  `json:"repairs,omitempty"`
	Errors    []goldenError   `json:"errors,omitempty"`
	Status    Status          `json:"status"`
	Responses int             `json:"responses"`
}

type goldenRepair struct {
	Kind      toolcall.RepairKind `json:"kind"`
	CallIndex int                 `json:"call_index"`
}

type goldenError struct {
	Code      toolcall.Code `json:"code"`
	Message   string        `json:"message,omitempty"`
	Tool      string        `json:"tool,omitempty"`
	CallIndex int           `json:"call_index"`
	CallID    string        `json:"call_id,omitempty"`
	Offset    int           `json:"offset"`
	Path      string        `json:"path,omitempty"`
	Known     []string      `json:"known,omitempty"`
}

func newGolden(s *Stream, res *toolcall.Result) golden {
	g := golden{Calls: res.Calls, Content: res.Content, Reasoning: res.Reasoning, Status: s.Status, Responses: s.Responses}
	for _, r := range res.Repairs {
		g.Repairs = append(g.Repairs, goldenRepair{r.Kind, r.CallIndex})
	}
	for _, e := range res.Errors {
		ge := goldenError{Code: e.Code, Tool: e.Tool, CallIndex: e.CallIndex, CallID: e.CallID, Offset: e.Offset, Path: e.Path, Known: e.Known}
		if e.CallIndex < 0 {
			ge.Message = e.Message
		}
		g.Errors = append(g.Errors, ge)
	}
	return g
}

// TestGolden parses hand-written /api/chat responses (testdata/*.json and
// *.ndjson, following the v0.17.4 wire format) with the tools of
// testdata/tools.json and compares with testdata/*.golden.
// Run `go test -run TestGolden -update` to rewrite them after a deliberate
// change.
func TestGolden(t *testing.T) {
	toolsJSON, err := os.ReadFile(filepath.Join("testdata", "tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	tools, err := toolcall.ParseTools(toolsJSON)
	if err != nil {
		t.Fatal(err)
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		t.Fatal(err)
	}
	inputs, _ := filepath.Glob(filepath.Join("testdata", "*.ndjson"))
	jsons, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, f := range jsons {
		if filepath.Base(f) != "tools.json" {
			inputs = append(inputs, f)
		}
	}
	if len(inputs) < 5 {
		t.Fatalf("found %d golden inputs", len(inputs))
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			s := Decode(data)
			g := newGolden(s, s.Result(&dialects.Options{Tools: set}))
			for i, c := range g.Calls {
				if !bytes.Contains(data, []byte(c.ID)) {
					g.Calls[i].ID = "call_<generated>"
				}
			}
			got, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := strings.TrimSuffix(in, filepath.Ext(in)) + ".golden"
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s:\n%s", in, path, got)
			}
		})
	}
}
