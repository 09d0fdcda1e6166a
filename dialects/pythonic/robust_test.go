package pythonic_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/pythonic"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/lenient"
)

// TestChunks keeps the streaming data of every table consistent: the chunks
// of a row are its text, cut.
func TestChunks(t *testing.T) {
	tables := map[string][]row{
		"pythonic": pythonicRows, "llama4_pythonic": llama4Rows, "olmo3": olmo3Rows,
		"lfm2": lfm2Rows, "sarashina": sarashinaRows, "llama3_builtin": builtinRows,
	}
	for name, rows := range tables {
		n := 0
		for _, r := range rows {
			if r.chunks == nil {
				continue
			}
			n++
			if got := strings.Join(r.chunks, ""); got != r.text {
				t.Errorf("%s/%s: chunks join to %q, want the text %q", name, r.name, got, r.text)
			}
		}
		if n < 2 {
			t.Errorf("%s: %d streaming rows, want at least 2", name, n)
		}
	}
}

func TestMarkers(t *testing.T) {
	for _, d := range pythonic.All() {
		m, ok := d.(dialects.Marked)
		if !ok {
			t.Fatalf("%s does not implement dialects.Marked", d.Name())
		}
		ms := m.Markers()
		if len(ms) == 0 {
			t.Errorf("%s: no markers", d.Name())
		}
		ms[0] = "changed"
		if m.Markers()[0] == "changed" {
			t.Errorf("%s: Markers exposes the dialect's own slice", d.Name())
		}
	}
	names := map[string]bool{}
	for _, d := range pythonic.All() {
		names[d.Name()] = true
	}
	for _, n := range []string{"pythonic", "llama4_pythonic", "olmo3", "lfm2", "sarashina", "llama3_builtin"} {
		if !names[n] {
			t.Errorf("All() lacks %s", n)
		}
	}
}

// TestNegatives: ordinary prose and code never yield a call, and never an
// error, whatever it mentions.
func TestNegatives(t *testing.T) {
	texts := []string{
		"Use print(x) to debug.",
		"The function f(x) = x^2 is convex (see above).",
		"As noted in [1], results vary (Smith, 2020).",
		"Call get_weather(city) when you know the city.",
		"```python\ndef get_weather(city):\n    return fetch(city)\n```",
		"```python\nresult = get_weather('Paris')\nprint(result)\n```",
		"```bash\nls -la\n```",
		"```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```",
		"Try `get_weather('Paris')` in the console.",
		"The format is `[get_weather(city='Paris')]`, one call per item.",
		"As shown in [Smith(2020)], results vary.",
		"Lists look like [1, 2, 3] and calls like foo (bar).",
		"See [the docs](https://example.com/get_weather()) for more.",
		"[x for x in range(10)]",
		"os.path.join('a', 'b')",
		"len(items)\n",
		"I think (maybe) we should wait.\nOkay.",
		"",
		"   \n\t ",
	}
	tools := toolSet(t, weatherTools)
	for _, d := range pythonic.All() {
		for _, text := range texts {
			for _, opts := range []*dialects.Options{nil, {Tools: tools}} {
				res := dialects.Parse(d, text, opts)
				if len(res.Calls) != 0 || len(res.Errors) != 0 {
					t.Errorf("%s (tools %v) on %q: calls %s errors %v", d.Name(), opts != nil, text, describe(res.Calls), res.Errors)
				}
			}
		}
	}
}

// TestOffsets: a call's offset points at its name in the output, also when
// reasoning or markers came before it.
func TestOffsets(t *testing.T) {
	cases := []struct {
		d    dialects.Dialect
		text string
	}{
		{pythonic.Pythonic, "[get_time(), get_weather(city='x')]"},
		{pythonic.Pythonic, "<think>hm</think>\nWell.\n[get_weather(city='x')]"},
		{pythonic.Pythonic, "<think>a</think>b<think>c</think>\n[get_weather(city='x')]"},
		{pythonic.Pythonic, "Text\n```tool_code\nget_weather(city='x')\n```"},
		{pythonic.Llama4Pythonic, "So <|python_start|>[get_time(), get_weather(city='x')]<|python_end|>"},
		{pythonic.LFM2, "<think>x</think>ok<|tool_call_start|>[get_weather(city='x')]<|tool_call_end|>"},
		{pythonic.LFM2, `<|tool_call_start|>[{"name": "get_weather", "arguments": {}}]<|tool_call_end|>`},
		{pythonic.Olmo3, "<function_calls>get_time()\nget_weather(city='x')</function_calls>"},
		{pythonic.Sarashina, "<|tool_calls|>[{'name': 'get_weather', 'arguments': {}}]"},
		{pythonic.Llama3Builtin, "<|python_tag|>get_weather.call(city='x')"},
	}
	for _, c := range cases {
		ext := c.d.Extract(c.text, &dialects.Options{})
		if len(ext.Calls) == 0 {
			t.Errorf("%s %q: no calls", c.d.Name(), c.text)
		}
		for _, rc := range ext.Calls {
			if rc.Offset < 0 || rc.Offset >= len(c.text) {
				t.Errorf("%s %q: offset %d out of range", c.d.Name(), c.text, rc.Offset)
				continue
			}
			at := c.text[rc.Offset:]
			if !strings.HasPrefix(at, rc.Name) && !strings.HasPrefix(at, "{") {
				t.Errorf("%s %q: offset %d points at %q, not call %s", c.d.Name(), c.text, rc.Offset, at, rc.Name)
			}
		}
	}
}

// TestErrorDetails: errors carry a code, the call's offset and raw text, a
// cause, and never print argument values.
func TestErrorDetails(t *testing.T) {
	const secret = "hunter2-secret"
	cases := []struct {
		d    dialects.Dialect
		text string
		code toolcall.Code
		at   int // offset the error must point at, -1 to skip
	}{
		{pythonic.Pythonic, "[get_time(), get_weather(city='" + secret + "' '" + secret + "')]", toolcall.CodeMalformedCall, 47},
		{pythonic.Pythonic, "[get_time(), get_weather(city='" + secret, toolcall.CodeTruncated, 30},
		{pythonic.LFM2, "<|tool_call_start|>[get_weather(city=='" + secret + "')]<|tool_call_end|>", toolcall.CodeMalformedCall, 32},
		{pythonic.Sarashina, "<|tool_calls|>[{'arguments': {'city': '" + secret + "'}}]", toolcall.CodeMissingFunction, 15},
		{pythonic.Olmo3, "<function_calls>get_weather(city=='" + secret + "')</function_calls>", toolcall.CodeMalformedCall, 28},
	}
	for _, c := range cases {
		res := dialects.Parse(c.d, c.text, nil)
		if len(res.Errors) != 1 {
			t.Errorf("%s %q: errors %v, want one", c.d.Name(), c.text, res.Errors)
			continue
		}
		e := res.Errors[0]
		if e.Code != c.code {
			t.Errorf("%s %q: code %s, want %s", c.d.Name(), c.text, e.Code, c.code)
		}
		if strings.Contains(e.Error(), secret) {
			t.Errorf("%s: error message shows an argument value: %s", c.d.Name(), e.Error())
		}
		if !strings.Contains(e.Raw, secret) {
			t.Errorf("%s: error keeps raw %q, want the call's text", c.d.Name(), e.Raw)
		}
		if c.at >= 0 && e.Offset != c.at {
			t.Errorf("%s %q: error offset %d, want %d", c.d.Name(), c.text, e.Offset, c.at)
		}
		var te *toolcall.Error
		if !errors.As(error(e), &te) || te.CallIndex < 0 {
			t.Errorf("%s: error is not tied to a call: %+v", c.d.Name(), e)
		}
	}
}

// TestGrammarExtensions covers the two changes this family needed in the
// shared grammar: hyphenated names, and telling an unterminated string
// (incomplete) from a character the grammar rejects.
func TestGrammarExtensions(t *testing.T) {
	calls, _, err := lenient.ParsePythonCalls(`list-files(path='.', depth=a-1)`)
	if err != nil || len(calls) != 1 || calls[0].Name != "list-files" || string(calls[0].Args[1].Value) != `"a-1"` {
		t.Errorf("hyphenated name: %+v, %v", calls, err)
	}
	for src, incomplete := range map[string]bool{
		`f(x='abc`:  true,
		`f(x="abc`:  true,
		`f(x=1`:     true,
		`f(x=@)`:    false,
		`f(x=1) ^`:  false,
		`f(x=1 y)`:  false,
		"f(x='''a":  true,
		`f(x=1, y=`: true,
	} {
		_, _, err := lenient.ParsePythonCalls(src)
		if err == nil {
			t.Errorf("%q: no error", src)
			continue
		}
		if got := lenient.IsIncomplete(err); got != incomplete {
			t.Errorf("%q: IsIncomplete %v, want %v (%v)", src, got, incomplete, err)
		}
	}
}

// TestHostileInputs: huge, binary, repetitive and deeply nested input ends
// without a panic, with coded errors only, and the work stays linear.
func TestHostileInputs(t *testing.T) {
	// Full sizes in the long suites (DIALECTKIT_LONG=1), a tenth by default.
	n := longtest.Scaled
	inputs := map[string]string{
		"nul and invalid utf-8": string([]byte{0, 0xff, 0xfe, '[', 'a', '(', 0, '\'', 0xc3, ')', ']'}),
		"brackets":              strings.Repeat("[", n(100000)),
		"open calls":            strings.Repeat("[a(", n(50000)),
		"bare open calls":       strings.Repeat("a(", n(50000)),
		"parens":                strings.Repeat("(", n(100000)),
		"fences":                strings.Repeat("```\n", n(50000)),
		"backticks":             strings.Repeat("`", n(100000)),
		"spaced backticks":      strings.Repeat("` ", n(100000)),
		"deep nesting":          "[f(x=" + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + ")]",
		"deep dict":             "<|tool_calls|>[" + strings.Repeat("{'a': ", 10000) + "1" + strings.Repeat("}", 10000) + "]",
		"unterminated string":   "[f(x='" + strings.Repeat(`\'`, n(100000)),
		"unterminated triple":   "[f(x='''" + strings.Repeat("'", 2) + strings.Repeat("a", n(100000)),
		"huge argument":         "[f(x='" + strings.Repeat("a", n(2<<20)) + "')]",
		"lfm2 markers":          strings.Repeat("<|tool_call_start|>", n(50000)),
		"lfm2 unclosed":         strings.Repeat("<|tool_call_start|>[a(", n(20000)),
		"python_start":          strings.Repeat("<|python_start|>", n(50000)),
		"python_tag":            strings.Repeat("<|python_tag|>", n(50000)),
		"tool_calls":            strings.Repeat("<|tool_calls|>[", n(50000)),
		"function_calls":        strings.Repeat("<function_calls>", n(50000)),
		"close markers":         strings.Repeat("<|tool_call_end|></function_calls><|python_end|>", n(20000)),
		"think":                 strings.Repeat("<think>", n(50000)) + "[f()]",
		"own lines":             strings.Repeat("get_weather(\n", n(50000)),
	}
	tools := toolSet(t, weatherTools)
	for name, in := range inputs {
		for _, d := range pythonic.All() {
			for _, opts := range []*dialects.Options{nil, {Tools: tools}} {
				res := dialects.Parse(d, in, opts)
				for _, e := range res.Errors {
					if e.Code == "" {
						t.Errorf("%s on %s: uncoded error %v", d.Name(), name, e)
					}
				}
			}
		}
	}
}
