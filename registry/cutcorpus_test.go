package registry_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/registry"
)

// TestCutCorpusCallsAreNotCalls cuts every corpus vector (the peers' and
// our own, in every dialect) at every byte and parses each prefix, named
// and under detection: a cut-off call must never come back as a call with
// the arguments written so far. Every call a prefix yields must be one of
// the calls the whole output yields, in the same order (a whole call whose
// closing marker the cut removed may stay a call); anything else a prefix
// reads is content or an error. The default run cuts at every 17th byte;
// DIALECTKIT_LONG=1 at every byte (DIALECTKIT_CUT_STEP sets the step).
func TestCutCorpusCallsAreNotCalls(t *testing.T) {
	step := 17
	if longtest.Enabled() {
		step = 1
	}
	if s, err := strconv.Atoi(os.Getenv("DIALECTKIT_CUT_STEP")); err == nil && s > 0 {
		step = s
	}
	var vs []corpustest.Vector
	for _, file := range append(append([]string{}, corpustest.PeerFiles...), "dialects.own.jsonl") {
		more, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, more...)
	}
	for _, v := range vs {
		tools, err := v.ToolSet()
		if err != nil {
			t.Fatal(err)
		}
		for _, named := range []bool{true, false} {
			opts := &registry.Options{Tools: tools}
			if named {
				opts.Dialect = v.Dialect
			}
			full := registry.Parse(v.Text, opts)
			if len(full.Calls) == 0 {
				continue
			}
			for p := step; p < len(v.Text); p += step {
				cut := v.Text[:p]
				if strings.Count(cut, "<think>") > strings.Count(cut, "</think>") {
					// A reasoning block the cut leaves open is ended by
					// a whole call in it (DESIGN: only reasoning that
					// never closes is): the prefix means another thing.
					continue
				}
				res := registry.Parse(cut, opts)
				if err := callsPrefix(res.Calls, full.Calls); err != nil && !rawCode(res.Calls) {
					t.Errorf("%s (%s, named %v) cut at %d/%d: %v\ncut: %q", v.ID, v.Dialect, named, p, len(v.Text), err, cut)
				}
			}
		}
	}
}

// callsPrefix says how got is not the first calls of whole, by name and
// arguments.
func callsPrefix(got, whole []toolcall.Call) error {
	for i, c := range got {
		if i >= len(whole) {
			return fmt.Errorf("call %d %s %s, the whole output has %d calls", i, c.Name, c.Arguments, len(whole))
		}
		if w := whole[i]; c.Name != w.Name || !bytes.Equal(c.Arguments, w.Arguments) {
			return fmt.Errorf("call %d %s %s, the whole output's is %s %s", i, c.Name, c.Arguments, w.Name, w.Arguments)
		}
	}
	return nil
}

// rawCode reports whether the last call is raw code taken whole as a
// code tool's argument (after <|python_tag|>, Functionary's python), whose
// brackets and quotes are balanced: such text has no envelope that a cut
// could leave open, so a prefix of it is code as it stands.
func rawCode(calls []toolcall.Call) bool {
	if len(calls) == 0 {
		return false
	}
	var args map[string]any
	if json.Unmarshal(calls[len(calls)-1].Arguments, &args) != nil || len(args) != 1 {
		return false
	}
	code, ok := args["code"].(string)
	if !ok {
		return false
	}
	return strings.Count(code, "(") == strings.Count(code, ")") && strings.Count(code, "[") == strings.Count(code, "]") &&
		strings.Count(code, "{") == strings.Count(code, "}") && strings.Count(code, `"`)%2 == 0 && strings.Count(code, "'")%2 == 0
}
