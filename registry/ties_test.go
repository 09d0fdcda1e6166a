package registry_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
)

// tieRows are outputs two or more dialects read alike; detection must pick
// the dialect that wrote them, by evidence, and leave none of its markup
// in content.
var tieRows = []struct {
	name, text string
	chunks     []string
	dialect    string
	calls      []string // name + " " + arguments
	content    string
}{
	{name: "prose and a json fence: markdown_json, the fence taken",
		text:    "Sure!\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nDone.",
		chunks:  []string{"Sure!\n``", "`json\n{\"name\": \"get_weather\", ", "\"arguments\": {\"city\": \"Paris\"}}\n```\nDo", "ne."},
		dialect: "markdown_json", calls: []string{`get_weather {"city":"Paris"}`}, content: "Sure!\nDone."},
	{name: "a bare fence holding a call list",
		text:    "```\n[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}]\n```",
		dialect: "markdown_json", calls: []string{`a {}`, `b {"x":1}`}, content: ""},
	{name: "seed-oss wrapper around qwen3-coder calls: seed_oss",
		text:    "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n</seed:tool_call>",
		chunks:  []string{"<seed:tool", "_call>\n<function=get_weather>\n<param", "eter=city>Paris</parameter>\n</function>\n</seed:tool_call>"},
		dialect: "seed_oss", calls: []string{`get_weather {"city":"Paris"}`}, content: ""},
	{name: "seed-oss with reasoning and prose",
		text:    "<seed:think>weather</seed:think>Checking.\n<seed:tool_call>\n<function=get_weather>\n<parameter=city>Oslo</parameter>\n</function>\n</seed:tool_call>",
		dialect: "seed_oss", calls: []string{`get_weather {"city":"Oslo"}`}, content: "Checking."},
	{name: "qwen3-coder's own wrapper stays qwen3_coder",
		text:    "<tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n</tool_call>",
		dialect: "qwen3_coder", calls: []string{`get_weather {"city":"Paris"}`}, content: ""},
	{name: "python_tag with a built-in tool call: llama3_builtin",
		text:    `<|python_tag|>brave_search.call(query="weather in SF")`,
		chunks:  []string{"<|python_", `tag|>brave_search.call(query="wea`, `ther in SF")`},
		dialect: "llama3_builtin", calls: []string{`brave_search {"query":"weather in SF"}`}, content: ""},
	{name: "python_tag built-in call ended by eom",
		text:    `<|python_tag|>wolfram_alpha.call(query="solve x^2 = 4")<|eom_id|>`,
		dialect: "llama3_builtin", calls: []string{`wolfram_alpha {"query":"solve x^2 = 4"}`}, content: ""},
	{name: "hermes block holding a function element: hermes",
		text:    "<tool_call>\n<function name=\"get_weather\">{\"city\": \"Paris\"}</function>\n</tool_call>",
		chunks:  []string{"<tool_call>\n<func", "tion name=\"get_weather\">{\"city\": ", "\"Paris\"}</function>\n</tool_call>"},
		dialect: "hermes", calls: []string{`get_weather {"city":"Paris"}`}, content: ""},
	{name: "a function element with a JSON body in an unclosed hermes block: hermes",
		text:    "Sure.\n<tool_call>\n<function name=\"get_weather\">{\"city\": \"Paris\"}</function>",
		dialect: "hermes", calls: []string{`get_weather {"city":"Paris"}`}, content: "Sure."},
	{name: "two function elements in one hermes block: hermes, both calls",
		text:    "<tool_call>\n<function name=\"get_weather\">{\"city\": \"Paris\"}</function>\n<function name=\"get_time\">{}</function>\n</tool_call>",
		dialect: "hermes", calls: []string{`get_weather {"city":"Paris"}`, `get_time {}`}, content: ""},
	{name: "a bare function element with a JSON body is read, not failed",
		text:    `<function name="get_weather">{"city": "Paris"}</function>`,
		dialect: "minicpm5", calls: []string{`get_weather {"city":"Paris"}`}, content: ""},
	{name: "minicpm5's own parameters stay minicpm5",
		text:    `<function name="get_weather"><param name="city">Paris</param></function>`,
		dialect: "minicpm5", calls: []string{`get_weather {"city":"Paris"}`}, content: ""},
}

func TestDetectionTies(t *testing.T) {
	for _, r := range tieRows {
		t.Run(r.name, func(t *testing.T) {
			res, det := registry.Default().ParseDetect(r.text, &registry.Options{})
			if det.Dialect != r.dialect {
				t.Errorf("detected %q (%s), want %q", det.Dialect, det.Reason, r.dialect)
			}
			var got []string
			for _, c := range res.Calls {
				got = append(got, c.Name+" "+string(c.Arguments))
			}
			if strings.Join(got, "\n") != strings.Join(r.calls, "\n") {
				t.Errorf("calls %q, want %q (errors %v)", got, r.calls, res.Errors)
			}
			if res.Content != r.content {
				t.Errorf("content %q, want %q", res.Content, r.content)
			}
			if strings.Contains(res.Content, "```") || strings.Contains(res.Content, "tool_call>") {
				t.Errorf("markup left in content: %q", res.Content)
			}
			// Streamed with detection, in every cut, the answer is the same.
			for i, cut := range streamtest.Cuts(r.text, r.chunks, true) {
				p := registry.Default().Stream(&registry.Options{})
				evs := streamtest.Feed(p, cut)
				if err := streamtest.Compare(res, p, evs); err != nil {
					t.Fatalf("stream cut %d: %v", i, err)
				}
			}
		})
	}
}

// An output holding nothing but one marker, once or repeated, is ranked
// by the marker, the same way whatever the count: a dialect that lists the
// marker as its strongest owns it, and one that lists it after markers of
// its own (a family's shared tag: glm45 and qwen3_coder write hermes's
// <tool_call> around their own syntax) does not win it by reading failed
// calls out of it. Before, "<tool_call>\n" repeated was glm45 with one
// error per marker.
func TestMarkerOnlyOutputs(t *testing.T) {
	reg := registry.Default()
	rank := map[string]map[string]int{} // marker -> dialect -> rank
	for _, name := range reg.Names() {
		d, _ := reg.Lookup(name)
		m, ok := d.(dialects.Marked)
		if !ok || dialects.SyntaxOf(d).Body {
			// A response-body dialect is no candidate for these outputs,
			// which do not open with a JSON value (dialects.Syntax.Body).
			continue
		}
		for i, mk := range m.Markers() {
			if mk == "" {
				continue
			}
			if rank[mk] == nil {
				rank[mk] = map[string]int{}
			}
			if _, seen := rank[mk][name]; !seen {
				rank[mk][name] = i
			}
		}
	}
	for mk, byDialect := range rank {
		best := len(mk)
		for _, r := range byDialect {
			best = min(best, r)
		}
		first := ""
		for _, n := range []int{1, 2, 3, 64, 200} {
			text := strings.Repeat(mk+"\n", n)
			det := reg.Detect(text, nil)
			if n == 1 {
				first = det.Dialect
			} else if det.Dialect != first {
				t.Errorf("%q ×%d: detected %q, but %q once", mk, n, det.Dialect, first)
			}
			if r, lists := byDialect[det.Dialect]; lists && r > best && !holdsStronger(reg, det.Dialect, r, text) {
				t.Errorf("%q ×%d: detected %q, which lists it at rank %d, not %d (%s)", mk, n, det.Dialect, r, best, det.Reason)
			}
		}
	}
	det := reg.Detect(strings.Repeat("<tool_call>\n", 1000), nil)
	if det.Dialect != "hermes" {
		t.Errorf("<tool_call> ×1000: detected %q (%s), want hermes", det.Dialect, det.Reason)
	}
}

// holdsStronger reports whether text holds one of the markers the named
// dialect lists before rank.
func holdsStronger(reg *registry.Registry, name string, rank int, text string) bool {
	d, _ := reg.Lookup(name)
	for _, mk := range d.(dialects.Marked).Markers()[:rank] {
		if mk != "" && strings.Contains(text, mk) {
			return true
		}
	}
	return false
}
