package registry_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects/plainjson"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
)

// The tool-call parts of real chat templates, one per family, and what
// detection must make of each.
func TestDetectTemplateSamples(t *testing.T) {
	dir := filepath.Join("..", "testdata", "probe", "templates")
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		File      string   `json:"file"`
		Kind      string   `json:"kind"`
		Tools     bool     `json:"tools"`
		ToolCalls bool     `json:"tool_calls"`
		CallTag   string   `json:"call_tag"`
		Dialects  []string `json:"dialects"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.*tmpl"))
	jinja, _ := filepath.Glob(filepath.Join(dir, "*.jinja"))
	if len(files)+len(jinja) != len(cases) {
		t.Errorf("%d sample templates but %d expectations", len(files)+len(jinja), len(cases))
	}
	for _, c := range cases {
		t.Run(c.File, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join(dir, c.File))
			if err != nil {
				t.Fatal(err)
			}
			d := registry.DetectTemplate(string(text))
			if d.Kind != c.Kind || d.Tools != c.Tools || d.ToolCalls != c.ToolCalls || d.CallTag != c.CallTag {
				t.Errorf("kind %q tools %v calls %v tag %q, want %q %v %v %q", d.Kind, d.Tools, d.ToolCalls, d.CallTag,
					c.Kind, c.Tools, c.ToolCalls, c.CallTag)
			}
			if got := d.Dialects(); !slices.Equal(got, c.Dialects) {
				t.Errorf("dialects %v, want %v (%s)", got, c.Dialects, d.Reason)
			}
			want := ""
			if len(c.Dialects) > 0 {
				want = c.Dialects[0]
			}
			if d.Dialect != want || d.Reason == "" {
				t.Errorf("dialect %q (%q), want %q", d.Dialect, d.Reason, want)
			}
			// The registry's own evidence is the detection's, without the
			// weaker call tag once a rule decided.
			got := registry.Default().DialectsForTemplate(string(text))
			if len(got) == 0 && len(c.Dialects) > 0 || !slices.Equal(got, c.Dialects[:len(got)]) {
				t.Errorf("DialectsForTemplate = %v, want a prefix of %v", got, c.Dialects)
			}
		})
	}
}

func TestDetectTemplateTagAndMarkers(t *testing.T) {
	tests := []struct {
		name     string
		template string
		kind     string
		tag      string
		dialects []string
		source   string
	}{
		{name: "go tag agrees with the rules", kind: "go", tag: "<function_call>", source: registry.MatchRule, dialects: []string{"granite_20b_fc"},
			template: `{{ range .Messages }}{{ if .ToolCalls }}<function_call> {{ range .ToolCalls }}{"name": "{{ .Function.Name }}"}{{ end }}{{ end }}{{ end }}`},
		{name: "go tag in an else-if of a range", kind: "go", tag: "<TOOLCALL>[", source: registry.MatchRule, dialects: []string{"nemotron_v2"},
			template: `{{ range $i, $m := .Messages }}{{ if .Content }}{{ .Content }}{{ else if .ToolCalls }}<TOOLCALL>[{{ range .ToolCalls }}{{ .Function.Name }}{{ end }}]</TOOLCALL>{{ end }}{{ end }}`},
		{name: "go template without a tag is bare json", kind: "go", tag: "{", source: registry.MatchTag, dialects: []string{"json"},
			template: "{{ if .Tools }}{{ .Tools }}{{ end }}{{ range .Messages }}{{ if .ToolCalls }}\n{{ range .ToolCalls }}{\"name\": \"{{ .Function.Name }}\"}{{ end }}{{ end }}{{ end }}"},
		{name: "go tag read through $.ToolCalls", kind: "go", tag: "[TOOL_REQUEST]", source: registry.MatchTag, dialects: nil,
			template: `{{ range .Messages }}{{ if $.ToolCalls }}[TOOL_REQUEST]{{ end }}{{ end }}`},
		{name: "marker of a registered dialect", kind: "jinja", source: registry.MatchMarker, dialects: []string{"minicpm5"},
			template: `{% for m in messages %}{% for c in m.tool_calls %}<function name="{{ c.name }}">{% endfor %}{% endfor %}`},
		{name: "jinja without statements", kind: "jinja", dialects: nil,
			template: `{{ bos_token }}{{ messages[0]['content'] }}`},
		{name: "plain text", kind: "text", dialects: nil, template: "You are a helpful assistant."},
		{name: "broken go template", kind: "text", dialects: []string{"hermes"}, source: registry.MatchRule,
			template: `{{ if .ToolCalls }<tool_call>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := registry.DetectTemplate(tt.template)
			if d.Kind != tt.kind || d.CallTag != tt.tag {
				t.Errorf("kind %q tag %q, want %q %q", d.Kind, d.CallTag, tt.kind, tt.tag)
			}
			if got := d.Dialects(); !slices.Equal(got, tt.dialects) && !(len(got) == 0 && len(tt.dialects) == 0) {
				t.Errorf("dialects %v, want %v", got, tt.dialects)
			}
			if len(d.Matches) > 0 && d.Matches[0].Source != tt.source {
				t.Errorf("source %q, want %q", d.Matches[0].Source, tt.source)
			}
		})
	}
	if d := registry.DetectTemplate("  \n"); d.Kind != "" || d.Dialect != "" || d.Reason != "empty template" {
		t.Errorf("empty template: %+v", d)
	}
}

// A dialect registered with its own markers is found in a template that
// no rule knows; tag-like markers only, so a JSON key does not count.
func TestDetectTemplateRegisteredMarker(t *testing.T) {
	r := registry.New(tagged{"alpha", "<A>"}, tagged{"quoted", `"key"`}, plainjson.Dialect)
	d := r.DetectTemplate(`{% for m in messages %}{{ '<A>' + m.tool_calls | tojson }}{{ '"key"' }}{% endfor %}`)
	if got := d.Dialects(); !slices.Equal(got, []string{"alpha"}) {
		t.Errorf("dialects %v, want [alpha]", got)
	}
	if !strings.Contains(d.Reason, `"<A>"`) {
		t.Errorf("reason %q does not name the marker", d.Reason)
	}
	// A Go template's call tag holding a registered marker names it.
	d = r.DetectTemplate(`{{ range .Messages }}{{ if .ToolCalls }}<A> {{ .ToolCalls }}{{ end }}{{ end }}`)
	if got := d.Dialects(); !slices.Equal(got, []string{"alpha"}) || d.Matches[0].Source != registry.MatchTag || d.CallTag != "<A>" {
		t.Errorf("tag: %+v", d)
	}
	// A rule for an unregistered dialect names nothing.
	r.AddTemplateRule(registry.TemplateRule{All: []string{"<A>"}, Dialect: "missing"})
	if got := r.DetectTemplate("<A>").Dialects(); !slices.Equal(got, []string{"alpha"}) {
		t.Errorf("rule for an unregistered dialect: %v", got)
	}
}

// Detection from output takes the template's evidence, also where only the
// Go template's call tag names the dialect.
func TestDetectUsesTemplateTag(t *testing.T) {
	set, err := schema.NewSet(toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object"}`)})
	if err != nil {
		t.Fatal(err)
	}
	tmpl := `{{ range .Messages }}{{ if .ToolCalls }}<function_call> {{ range .ToolCalls }}{{ .Function.Name }}{{ end }}{{ end }}{{ end }}`
	opts := &registry.Options{Template: tmpl}
	opts.Tools = set
	det := registry.Detect("no call in this answer", opts)
	if len(det.Candidates) == 0 || det.Candidates[0].Dialect != "granite_20b_fc" {
		t.Fatalf("candidates %+v", det.Candidates)
	}
	if ev := det.Candidates[0].Evidence; len(ev) == 0 || ev[0].Source != "template" {
		t.Errorf("evidence %+v", ev)
	}
}

func TestDialectForOllamaParser(t *testing.T) {
	for parser, want := range map[string]string{
		"qwen3-coder": "qwen3_coder", "QWEN3": "hermes", " harmony ": "harmony", "deepseek3": "deepseek_v31",
		"cogito": "deepseek_v3", "ministral": "mistral", "glm-4.7": "glm45", "": "", "passthrough": "",
	} {
		if got := registry.Default().DialectForOllamaParser(parser); got != want {
			t.Errorf("DialectForOllamaParser(%q) = %q, want %q", parser, got, want)
		}
	}
	for _, rule := range registry.OllamaParsers() {
		if _, ok := registry.Lookup(rule.Dialect); !ok {
			t.Errorf("parser %s maps to unregistered dialect %s", rule.Parser, rule.Dialect)
		}
	}
}

// Hostile templates: deep nesting, huge text, binary; detection returns,
// without a panic.
func TestDetectTemplateHostile(t *testing.T) {
	deep := strings.Repeat("{{ if .A }}", 5000) + "<tool_call>" + strings.Repeat("{{ end }}", 5000)
	inputs := []string{
		deep,
		strings.Repeat("{{", 100000),
		strings.Repeat("<tool_call>", 200000),
		"\x00\xff{{ .ToolCalls }}\x00",
		"{{ if .ToolCalls }}{{ end }}",
		"{{ if .ToolCalls }}",
	}
	for i, in := range inputs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			_ = registry.DetectTemplate(in)
		})
	}
}

func ExampleDetectTemplate() {
	tmpl := `{{- range .Messages }}
{{- if eq .Role "assistant" }}<|im_start|>assistant
{{ if .Content }}{{ .Content }}
{{- else if .ToolCalls }}<tool_call>
{{ range .ToolCalls }}{"name": "{{ .Function.Name }}", "arguments": {{ .Function.Arguments }}}
{{ end }}</tool_call>
{{- end }}
{{- end }}
{{- end }}`
	d := registry.DetectTemplate(tmpl)
	fmt.Println(d.Kind, d.CallTag, d.Dialect)
	fmt.Println(d.Reason)
	// Output:
	// go <tool_call> hermes
	// template rule: "<tool_call>"
}

// BenchmarkDetectTemplate measures template detection: a template a rule
// decides (what Detect pays on every parse), and one no rule knows, which
// is parsed as a Go template for its call tag.
func BenchmarkDetectTemplate(b *testing.B) {
	for _, name := range []string{"qwen2.5.gotmpl", "gemma3.gotmpl", "qwen3-coder.jinja"} {
		text, err := os.ReadFile(filepath.Join("..", "testdata", "probe", "templates", name))
		if err != nil {
			b.Fatal(err)
		}
		tmpl := string(text)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(tmpl)))
			for b.Loop() {
				registry.DetectTemplate(tmpl)
			}
		})
		b.Run(name+"/as-evidence", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				registry.Default().DialectsForTemplate(tmpl)
			}
		})
	}
}
