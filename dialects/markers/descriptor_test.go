package markers_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markers"
)

func TestNewRejectsBadDescriptors(t *testing.T) {
	tests := []struct {
		name string
		d    markers.Descriptor
		want string
	}{
		{"no name", markers.Descriptor{Bare: true}, "no name"},
		{"nothing to read", markers.Descriptor{Name: "x"}, "no forms"},
		{"form without start", markers.Descriptor{Name: "x", Forms: []markers.Form{{Values: true}}}, "no start marker"},
		{"form without body", markers.Descriptor{Name: "x", Forms: []markers.Form{{Start: []string{"<a>"}}}}, "neither values"},
		{"raw name without key", markers.Descriptor{Name: "x", Forms: []markers.Form{{Start: []string{"<a>"}, RawName: "python"}}}, "no raw key"},
		{"implicit without header", markers.Descriptor{Name: "x", Forms: []markers.Form{{Start: []string{"<a>"}, Values: true, Implicit: true}}}, "implicit"},
		{"blank marker", markers.Descriptor{Name: "x", Forms: []markers.Form{{Start: []string{"  "}, Values: true}}}, "empty start marker"},
		{"section without start", markers.Descriptor{Name: "x", Section: &markers.Section{}, Forms: []markers.Form{{Start: []string{"<a>"}, Values: true}}}, "section"},
		{"empty strip token", markers.Descriptor{Name: "x", Bare: true, Strip: []string{""}}, "strip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := markers.New(tt.d)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestMustNewPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustNew accepted an invalid descriptor")
		}
	}()
	markers.MustNew(markers.Descriptor{})
}

func TestAllNamesAndMarkers(t *testing.T) {
	want := map[string][]string{
		"mistral":          {"[TOOL_CALLS]"},
		"llama3_json":      {"<|python_tag|>"},
		"granite":          {"<|tool_call|>", "<tool_call>[", "<tool_call> ["},
		"functools":        {"functools[", "functools ["},
		"xlam":             nil,
		"internlm2":        {"<|action_start|>"},
		"cohere":           {"<|START_ACTION|>", "<|START_RESPONSE|>", "<|END_THINKING|>", "Action:"},
		"generic_json":     {`"tool_call"`, `"tool_calls"`},
		"deepseek_v3":      {"<｜tool▁calls▁begin｜>", "<|tool▁calls▁begin|>", "<｜tool▁call▁begin｜>", "<|tool▁call▁begin|>", "<｜tool▁sep｜>", "<|tool▁sep|>"},
		"kimi_k2":          {"<|tool_calls_section_begin|>", "<|tool_call_section_begin|>", "<|tool_call_begin|>"},
		"functionary_v3_1": {"<function=", "<|python_tag|>"},
	}
	seen := map[string]bool{}
	for _, d := range markers.All() {
		if seen[d.Name()] {
			t.Errorf("dialect %s listed twice", d.Name())
		}
		seen[d.Name()] = true
		m, ok := d.(dialects.Marked)
		if !ok {
			t.Errorf("%s does not implement dialects.Marked", d.Name())
			continue
		}
		if w, ok := want[d.Name()]; ok && !slices.Equal(m.Markers(), w) {
			t.Errorf("%s markers %q, want %q", d.Name(), m.Markers(), w)
		}
	}
	if len(seen) != 21 {
		t.Errorf("All has %d dialects, want 21", len(seen))
	}
}

func TestKimiID(t *testing.T) {
	for in, want := range map[string]string{
		"functions.get_weather:0": "get_weather",
		"functions.a.b:12":        "a.b",
		"api.tools.search:0":      "api.tools.search",
		"get_weather:3":           "get_weather",
		"get_weather":             "",
		"functions.weird:":        "",
		"functions.get_weather.0": "",
	} {
		name, id := markers.KimiID(in)
		if name != want || id != in {
			t.Errorf("KimiID(%q) = %q, %q; want %q, %q", in, name, id, want, in)
		}
	}
}

// TestCustomDescriptor defines a dialect from data, the way users add
// their own model's syntax.
func TestCustomDescriptor(t *testing.T) {
	d, err := markers.New(markers.Descriptor{
		Name: "acme",
		Forms: []markers.Form{{
			Start:   []string{"<<call "},
			NameEnd: []string{">>"},
			End:     []string{"<</call>>"},
		}},
		Reasoning: []dialects.ReasoningTags{{Open: "<<think>>", Close: "<</think>>"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	rows := []row{
		{name: "call", text: `<<think>>weather<</think>>Sure.<<call get_weather>>{"city": "Rome"}<</call>>`,
			calls: []want{c("get_weather", `{"city":"Rome"}`)}, content: "Sure.", reasoning: "weather"},
		{name: "two calls", text: `<<call a>>{}<</call>> <<call b>>{"x": 1}<</call>>`,
			calls: []want{c("a", `{}`), c("b", `{"x":1}`)}},
	}
	runTable(t, d, rows)
}

// TestDisableRepair: with repair off, strict JSON still parses and
// anything else is an error, including a truncated value.
func TestDisableRepair(t *testing.T) {
	opts := &dialects.Options{DisableRepair: true}
	res := dialects.Parse(markers.Mistral, `[TOOL_CALLS] [{"name": "a", "arguments": {}}, {'name': 'b', 'arguments': {}}]`, opts)
	if len(res.Calls) != 1 || len(res.Errors) != 1 {
		t.Errorf("calls %v errors %v, want one of each", res.Calls, res.Errors)
	}
	res = dialects.Parse(markers.DeepSeekV31, dsCalls+dsCall+"f"+dsSep+`{"a": 1`, opts)
	if len(res.Calls) != 0 || len(res.Errors) != 1 {
		t.Errorf("truncated: calls %v errors %v, want one error", res.Calls, res.Errors)
	}
}
