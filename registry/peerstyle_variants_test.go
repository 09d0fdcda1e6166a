package registry_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/registry"
)

// TestPeerStyleVariants rewrites every own vector that expects calls the
// ways peer suites vary their outputs (blank lines around, CRLF line ends,
// prose before and after, a reasoning block before) and checks the calls
// are the same, named and detected.
func TestPeerStyleVariants(t *testing.T) {
	vs, err := corpustest.Load("dialects.own.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	variants := map[string]func(string) string{
		"blank lines around":        func(s string) string { return "\n\n" + s + "\n\n" },
		"CRLF":                      func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },
		"prose before":              func(s string) string { return "Sure, I can do that.\n\n" + s },
		"prose after":               func(s string) string { return s + "\n\nLet me know if you need anything else." },
		"reasoning before":          func(s string) string { return "<think>\nThe user asked; I will call the tool.\n</think>\n\n" + s },
		"template-opened reasoning": func(s string) string { return "The user asked; I will call the tool.\n</think>\n\n" + s },
	}
	// Documented rules the variants cross: a Functionary v3.2 call the
	// prompt opened, and Llama 3's built-in code, run to the end of the
	// output and start it; a bare Llama 3 envelope followed by prose, an
	// unframed xLAM list after prose, and a bare GLM/Laguna JSON call that
	// does not end the output are not calls (docs/dialects.md).
	// Llama's and xLAM's templates open no reasoning block
	// (dialects.Syntax.ReasoningClosed): a lone </think> is text there, and
	// the bare call after it follows prose.
	skip := func(v corpustest.Vector, variant string) bool {
		switch {
		case variant == "CRLF":
			return multiline(v)
		case v.Dialect == "functionary_v3_2" || v.Dialect == "llama3_builtin":
			return variant != "blank lines around"
		case v.Dialect == "llama3_json":
			return variant == "prose after" || variant == "template-opened reasoning"
		case v.Dialect == "glm45" && !strings.Contains(v.Text, "<"):
			return variant == "prose after"
		case v.Dialect == "xlam":
			return strings.HasPrefix(variant, "prose") || variant == "template-opened reasoning"
		}
		return false
	}
	for _, v := range vs {
		if len(v.Expected) == 0 || strings.Contains(v.Text, "think") || strings.Contains(v.Text, "THINK") || strings.Contains(v.Text, "<|channel|>") {
			continue
		}
		tools, err := v.ToolSet()
		if err != nil {
			t.Fatal(err)
		}
		for name, f := range variants {
			if skip(v, name) {
				continue
			}
			text := f(v.Text)
			opts := &registry.Options{Dialect: v.Dialect}
			opts.Tools = tools
			res := registry.Parse(text, opts)
			if err := v.CheckCalls(res.Calls); err != nil {
				t.Errorf("%s, %s, named: %v (errors %v)\ntext: %q", v.ID, name, err, res.Errors, text)
			}
			dopts := &registry.Options{}
			dopts.Tools = tools
			dres, det := registry.Default().ParseDetect(text, dopts)
			if err := v.CheckCalls(dres.Calls); err != nil {
				t.Errorf("%s, %s, detected %q (%s): %v (errors %v)\ntext: %q", v.ID, name, det.Dialect, det.Reason, err, dres.Errors, text)
			}
		}
	}
}

// multiline reports whether a vector expects an argument string holding a
// line break: CRLF line ends change that value.
func multiline(v corpustest.Vector) bool {
	for _, c := range v.Expected {
		if strings.Contains(string(c.Arguments), `\n`) {
			return true
		}
	}
	return false
}
