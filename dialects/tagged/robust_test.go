package tagged_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/tagged"
	"github.com/dialectkit/toolcall/internal/coded"
)

// hostile builds inputs meant to make a parser slow or make it panic: every
// literal of the dialect repeated, opening tags that never end, values that
// never close, binary and invalid UTF-8. A quadratic scan over them would
// take minutes; the test only needs them to return.
const n = 20000

func hostile(d *tagged.Dialect) map[string]string {
	desc := d.Descriptor()
	lits := append([]string{desc.ScopeStart, desc.ScopeEnd, desc.ToolStart, desc.ToolEnd, desc.KeyStart,
		desc.KeyEnd, desc.ValStart, desc.ValEnd, desc.ChildPrefix, desc.Reasoning.Open, desc.Reasoning.Close}, d.Markers()...)
	for _, w := range desc.LooseWrappers {
		lits = append(lits, w.Start, w.End)
	}
	in := map[string]string{
		"binary":       "\x00\xff\xfe<\x00>\x01" + strings.Repeat("\x00\xc3\x28", 1000),
		"invalid utf8": desc.ToolStart + "\xff\xfe=\xc3\x28>" + desc.KeyStart + "\xe2\x82>\xff" + desc.ValEnd,
		"empty":        "",
	}
	for _, l := range lits {
		if l == "" {
			continue
		}
		in["repeat "+l] = strings.Repeat(l, n)
		in["repeat spaced "+l] = strings.Repeat(l+" x\n", n)
	}
	open := desc.ToolStart + ` name="f" =f` + desc.TagEnd
	in["unclosed calls"] = strings.Repeat(open, n)
	in["unclosed params"] = desc.ScopeStart + open + strings.Repeat(desc.KeyStart+` name="k" =k`+desc.TagEnd+"v", n)
	in["unclosed pairs"] = desc.ToolStart + "f" + strings.Repeat(desc.KeyStart+"k"+desc.KeyEnd+desc.ValStart+"v", n)
	in["tag without end"] = strings.Repeat(desc.ToolStart+"="+strings.Repeat("n", 300), 5000)
	in["sections"] = strings.Repeat(desc.ScopeStart+"junk ", n) + open + desc.ToolEnd
	in["children"] = desc.ToolStart + ` name="f"` + desc.TagEnd + strings.Repeat(desc.ChildPrefix+"<k>", n)
	in["deep"] = desc.ToolStart + ` name="f"` + desc.TagEnd + strings.Repeat(desc.ChildPrefix+"<a>", n) + "x" + strings.Repeat(desc.ChildPrefix+"</a>", n) + desc.ToolEnd
	in["loose"] = strings.Repeat("<user>hello</user>", n) + "<tool_call>"
	in["json lines"] = strings.Repeat("{\n", n) + "}"
	in["glimmer headers"] = strings.Repeat(" to=x<|message|>", n) + strings.Repeat("<|start|>", n)
	return in
}

func TestHostileInput(t *testing.T) {
	for _, dd := range tagged.All() {
		d := dd.(*tagged.Dialect)
		for name, text := range hostile(d) {
			t.Run(d.Name()+"/"+name, func(t *testing.T) {
				res := dialects.Parse(d, text, nil)
				for _, e := range res.Errors {
					if e.Code == "" {
						t.Errorf("uncoded error %v", e)
					}
				}
			})
		}
	}
}

func TestTooLarge(t *testing.T) {
	big := strings.Repeat("x", 2<<20)
	res := dialects.Parse(tagged.Qwen3Coder, "<function=f><parameter=a>"+big+"</parameter></function>", nil)
	if len(res.Calls) != 0 || len(res.Errors) != 1 || !errors.Is(res.Errors[0], toolcall.ErrTooLarge) {
		t.Fatalf("calls %d, errors %v; want one TLP-009", len(res.Calls), res.Errors)
	}
	if strings.Contains(res.Errors[0].Error(), "xxxx") {
		t.Error("error message holds the value")
	}
}

// TestErrorsHoldNoValues checks that error messages name things, never
// argument values.
func TestErrorsHoldNoValues(t *testing.T) {
	const secret = "hunter2secret"
	texts := []string{
		"<tool_call>\n<function=get_weather>\n" + secret + "\n</function>\n</tool_call>",
		"<tool_call>\n<function=get_weather>\n<parameter=city>" + secret,
		"<tool_call>\n{\"name\": \"x\", \"arguments\": {\"a\": \"" + secret + "\"}}\n</tool_call>",
	}
	for _, text := range texts {
		for _, d := range []dialects.Dialect{tagged.Qwen3Coder, tagged.GLM45} {
			res := dialects.Parse(d, text, nil)
			for _, e := range res.Errors {
				if strings.Contains(e.Error(), secret) {
					t.Errorf("%s: error %q holds a value", d.Name(), e.Error())
				}
				if e.Raw == "" {
					t.Errorf("%s: error %v keeps no raw text", d.Name(), e)
				}
			}
		}
	}
}

func TestNewRejectsBadDescriptors(t *testing.T) {
	bad := []tagged.Descriptor{
		{},
		{Name: "x"},
		{Name: "x", ToolStart: "<f", ToolEnd: "</f>"},
		{Name: "x", ToolStart: "<f", ToolEnd: "</f>", KeyStart: "<p", ValEnd: "</p>", Key: tagged.NameText},
		{Name: "x", ToolStart: "<f", ToolEnd: "</f>", Params: tagged.PairParams, KeyStart: "<k>"},
		{Name: "x", ToolStart: "<f", ToolEnd: "</f>", Params: tagged.ChildParams, KeyStart: "<k>"},
		{Name: "x", ToolStart: "<f", ToolEnd: "</f>", Params: tagged.ChildParams, ScopeStart: "<s>"},
		{Name: "x", ToolStart: "<f", ToolEnd: "</f>", Params: tagged.ChildParams, ToolName: "name", NameChild: "n"},
		{Name: "x", ToolStart: "<f", ToolEnd: "</f>", KeyStart: "<p", ValEnd: "</p>", Key: "name", NestedValues: true},
		{Name: "x", ToolStart: "<f", ToolEnd: "</f>", Params: 9},
	}
	for i, d := range bad {
		if _, err := tagged.New(d); err == nil {
			t.Errorf("descriptor %d accepted", i)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("MustNew did not panic on a bad descriptor")
		}
	}()
	tagged.MustNew(tagged.Descriptor{})
}

func FuzzExtract(f *testing.F) {
	for _, s := range samples {
		f.Add(s.text)
	}
	for _, r := range qwenRows {
		f.Add(r.text)
	}
	for _, r := range glmRows {
		f.Add(r.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, d := range tagged.All() {
			ext := d.Extract(text, nil)
			for _, c := range ext.Calls {
				if c.Err == nil && c.Offset < 0 {
					t.Fatalf("%s: call without offset", d.Name())
				}
				if c.Err != nil && coded.As(c.Err).Code == "" {
					t.Fatalf("%s: uncoded error", d.Name())
				}
			}
			if len(ext.Content) > len(text) {
				t.Fatalf("%s: content longer than the output", d.Name())
			}
		}
	})
}

// TestErrorsNameTheirCall checks that an unfinished call's error names the
// tool and points at the call.
func TestErrorsNameTheirCall(t *testing.T) {
	tests := []struct {
		d      dialects.Dialect
		text   string
		code   toolcall.Code
		offset int
	}{
		{tagged.GLM45, "ok\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Bei", toolcall.CodeTruncated, 3},
		{tagged.GLM45, "<tool_call>get_weather\n{\"a\": 1}\n<tool_call>get_weather\n{\"a\": 1}</tool_call>", toolcall.CodeMalformedCall, 0},
		{tagged.Qwen3Coder, "<function=get_weather>\n<parameter=city>Tokyo", toolcall.CodeTruncated, 0},
		{tagged.MiniMaxM2, "x <invoke name=\"get_weather\"><parameter name=\"city\">Tokyo</parameter>", toolcall.CodeTruncated, 2},
	}
	for _, tt := range tests {
		res := dialects.Parse(tt.d, tt.text, nil)
		if len(res.Errors) == 0 {
			t.Errorf("%s %q: no error", tt.d.Name(), tt.text)
			continue
		}
		e := res.Errors[0]
		if e.Code != tt.code || e.Tool != "get_weather" || e.Offset != tt.offset || e.CallIndex != 0 {
			t.Errorf("%s %q: error %v (tool %q, offset %d), want %s for get_weather at %d", tt.d.Name(), tt.text, e, e.Tool, e.Offset, tt.code, tt.offset)
		}
	}
}
