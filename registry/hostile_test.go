package registry_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/retry"
)

// TestHostileInputs runs detection (every registered dialect) over inputs
// built to break scanners: each must come back with valid calls and coded
// errors only. Time is measured by the benchmarks, not asserted here.
func TestHostileInputs(t *testing.T) {
	ins := map[string]string{
		"deep braces":     strings.Repeat("{", 20000),
		"deep arrays":     strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		"many calls":      strings.Repeat(`{"name": "a", "arguments": {}}`, 2000),
		"many tagged":     strings.Repeat(`<tool_call>{"name": "a", "arguments": {}}</tool_call>`, 2000),
		"repeated marker": strings.Repeat("<tool_call>", 20000),
		"quotes":          strings.Repeat(`"\`, 20000),
		"open calls":      strings.Repeat("f(", 10000),
		"binary":          strings.Repeat("\x00\xff\xfe<|", 20000),
		"unclosed fences": strings.Repeat("```json\n{\n", 5000),
		"special tokens":  strings.Repeat("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>", 5000),
		"harmony headers": strings.Repeat("<|start|>assistant<|channel|>commentary to=functions.", 5000),
		"invalid utf8":    strings.Repeat("\xc3\x28<tool_call>{\"name\": \"\xff\"}", 3000),
		"python list":     "[" + strings.Repeat("f(a=1), ", 2000) + "]",
	}
	for name, in := range ins {
		t.Run(name, func(t *testing.T) {
			res := registry.Parse(in, nil)
			for _, c := range res.Calls {
				if !json.Valid(c.Arguments) || c.Arguments[0] != '{' {
					t.Errorf("call %s has arguments %q", c.Name, c.Arguments)
				}
			}
			for _, e := range res.Errors {
				if e.Code == "" {
					t.Errorf("uncoded error %v", e)
				}
			}
		})
	}
}

// formatters returns, for every dialect of the default registry that the
// retry package can write calls in, a call writer.
func formatters() map[string]fuzzcheck.Format {
	out := map[string]fuzzcheck.Format{}
	reg := registry.Default()
	for _, name := range reg.Names() {
		probe := retry.FormatCall(reg, name, "f", json.RawMessage(`{"a":"x"}`))
		if name != "json" && probe == retry.FormatCall(nil, "no such dialect", "f", json.RawMessage(`{"a":"x"}`)) {
			continue // the generic JSON fallback: not this dialect's syntax
		}
		out[name] = func(tool string, args json.RawMessage) string { return retry.FormatCall(reg, name, tool, args) }
	}
	return out
}

// TestHostileNamed runs the shared hostile inputs (internal/fuzzcheck)
// through every dialect the retry package can write calls for, named as
// the caller would name it: calls nested 10 000 deep, arguments one byte
// over the size limit, a valid 1 MB argument (which must come back whole
// in a few times its size), 100 000 tiny calls (all returned, or an
// error), pathological arguments for each repair heuristic, and the
// format-free inputs. It logs the time and memory of each. The default
// run takes one dialect of each family, at a tenth of the sizes; the long
// suites (DIALECTKIT_LONG=1) take every dialect at full size.
func TestHostileNamed(t *testing.T) {
	skipHeavy(t)
	reg := registry.Default()
	for name, format := range formatters() {
		if !longtest.Enabled() && !quickSet[name] {
			continue
		}
		t.Run(name, func(t *testing.T) {
			d, _ := reg.Lookup(name)
			fuzzcheck.Hostile(t, func(text string, opts *dialects.Options) *toolcall.Result {
				return reg.Parse(text, regOpts(*opts, registry.Options{Dialect: name}))
			}, fuzzcheck.Inputs(format, fuzzcheck.MarkersOf(d)))
		})
	}
}

// quickSet are the dialects the default run puts through the registry's
// hostile tests, one of each parser family; every dialect package runs
// the same inputs on all of its own dialects.
var quickSet = map[string]bool{
	"hermes": true, "json": true, "pythonic": true, "qwen3_coder": true, "mistral": true,
	"harmony": true, "gemma4": true, "deepseek_v31": true, "ollama": true, "markdown_json": true,
}

// TestHostileDetected runs hostile inputs through detection, where every
// registered dialect reads the text: the format-free inputs with the
// markers of the main families, and calls written in the main dialects.
// Detection keeps what named parsing promises, with two differences: a
// failed call is reported with the error of whichever marked dialect
// ranks first (not always the code the named dialect gives), and a
// dialect without markers (bare JSON, bare pythonic) reports no error for
// text it could not read, so that prose never fails; name the dialect to
// get those errors. Memory is logged, not bounded: every registered
// dialect reads the whole text.
func TestHostileDetected(t *testing.T) {
	skipHeavy(t)
	reg := registry.Default()
	var markers []string
	for _, name := range []string{"hermes", "mistral", "qwen3_coder", "harmony", "gemma4", "deepseek_v31", "lfm2", "kimi_k2"} {
		d, ok := reg.Lookup(name)
		if !ok {
			t.Fatalf("no dialect %s", name)
		}
		markers = append(markers, fuzzcheck.MarkersOf(d)...)
	}
	detect := func(text string, opts *dialects.Options) *toolcall.Result {
		return reg.Parse(text, regOpts(*opts, registry.Options{}))
	}
	t.Run("format-free", func(t *testing.T) {
		fuzzcheck.Hostile(t, detect, fuzzcheck.Inputs(nil, markers))
	})
	f := formatters()
	for name, marked := range map[string]bool{"hermes": true, "mistral": true, "qwen3_coder": true, "json": false, "pythonic": false} {
		if !longtest.Enabled() && name != "hermes" && name != "json" {
			continue // the long suites run them all
		}
		t.Run(name, func(t *testing.T) {
			var calls []fuzzcheck.Input
			for _, in := range fuzzcheck.Inputs(f[name], nil) {
				if !strings.Contains(in.Name, "call") && !strings.Contains(in.Name, "argument") {
					continue
				}
				in.AllocFactor = 0
				switch {
				case strings.Contains(in.Name, "valid 1 MB"), strings.Contains(in.Name, "tiny calls"):
				case marked:
					in.Want = failedCall
				default:
					in.Want = nil
				}
				calls = append(calls, in)
			}
			fuzzcheck.Hostile(t, detect, calls)
		})
	}
}

// skipHeavy skips the megabyte-per-dialect tests under -short and under
// the race detector, which slows them tenfold and looks for something
// else: each dialect package runs the same inputs, scaled down, under it.
func skipHeavy(t *testing.T) {
	if testing.Short() || fuzzcheck.Race {
		t.Skip("megabyte inputs for every dialect: run without -short and -race")
	}
}

// failedCall checks that a call that cannot be read comes back as an
// error, not as nothing.
func failedCall(res *toolcall.Result) error {
	if len(res.Calls) > 0 || len(res.Errors) == 0 {
		return fmt.Errorf("%d calls, %d errors; want the failed call's error", len(res.Calls), len(res.Errors))
	}
	return nil
}

// TestFailedCallOutranksNothing is the regression test of a hostile-input
// finding: a Qwen3-Coder call cut off by the token limit (or too large, or
// too deep) was detected as hermes, which shares its <tool_call> marker
// and found nothing there, so the failed call vanished with no error for
// a retry to send back. A dialect that recognised the call and could not
// read it now ranks above one that found nothing.
func TestFailedCallOutranksNothing(t *testing.T) {
	for _, text := range []string{
		"<tool_call>\n<function=get_weather>\n<parameter=city>\nPar",
		"<tool_call>\n<function=f>\n<parameter=a>\n" + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\n</parameter>\n</function>\n</tool_call>",
		"I will check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n",
	} {
		res, det := registry.Default().ParseDetect(text, nil)
		if len(res.Errors) == 0 {
			t.Errorf("%.40q: detected %q with no error (%s)", text, det.Dialect, det.Reason)
		}
	}
	// A valid call still wins over a failed one.
	res, det := registry.Default().ParseDetect("<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>", nil)
	if len(res.Calls) != 1 || det.Dialect != "qwen3_coder" {
		t.Errorf("valid Qwen3-Coder call: dialect %q, calls %v, errors %v", det.Dialect, res.Calls, res.Errors)
	}
}

// TestMegabytesOfNestingDoNotCrash is the regression test of a crash:
// gjson's validator recurses once per level, and a call whose arguments
// nest a few million levels deep overflowed the goroutine stack, a fatal
// error that takes the process down. Such input now ends in TLP-013.
// Skipped under the race detector, whose larger frames overflow sooner
// and which makes the input slow. The default run nests a million levels,
// the long suites (DIALECTKIT_LONG=1) six million.
func TestMegabytesOfNestingDoNotCrash(t *testing.T) {
	if fuzzcheck.Race || testing.Short() {
		t.Skip("megabytes of nesting")
	}
	n := 1 << 20
	if longtest.Enabled() {
		n = 6 << 20
	}
	deep := strings.Repeat("[", n) + strings.Repeat("]", n)
	for _, text := range []string{
		`{"name": "f", "arguments": {"a": ` + deep + `}}`,
		"<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": " + deep + "}}\n</tool_call>",
		"<tool_call>\n<function=f>\n<parameter=a>\n" + deep + "\n</parameter>\n</function>\n</tool_call>",
	} {
		res := registry.Parse(text, nil)
		if len(res.Calls) != 0 {
			t.Errorf("%.40q: %d calls", text, len(res.Calls))
		}
		for _, name := range []string{"json", "hermes", "qwen3_coder", "llama3_json"} {
			named := registry.Parse(text, &registry.Options{Dialect: name})
			if len(named.Calls) != 0 {
				t.Errorf("%s: %.40q: %d calls", name, text, len(named.Calls))
			}
			if name == "json" && strings.HasPrefix(text, "{") && (len(named.Errors) != 1 || named.Errors[0].Code != toolcall.CodeTooLarge) {
				t.Errorf("json: errors %v, want the call's TLP-009 (size is checked before depth)", named.Errors)
			}
		}
	}
}
