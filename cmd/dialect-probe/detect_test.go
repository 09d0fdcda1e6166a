package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetectCLI(t *testing.T) {
	samples := filepath.Join("..", "..", "testdata", "probe", "templates")
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	show := write("show.json", []byte(`{"template": "{{ .Prompt }}", "parser": "qwen3-coder", "capabilities": ["completion", "tools"]}`))
	config := write("tokenizer_config.json", []byte(`{"chat_template": [{"name": "default", "template": "plain"}, {"name": "tool_use", "template": "{% for m in messages %}[TOOL_CALLS]{% endfor %}"}]}`))
	gguf := write("model.gguf", ggufFile("{{- if .ToolCalls }}<tool_call>{{ end }}"))
	tests := []struct {
		name        string
		args        []string
		code        int
		out, errOut []string
	}{
		{name: "ollama go template", args: []string{"--template", filepath.Join(samples, "qwen2.5.gotmpl")},
			out: []string{"(text: go template, 1531 bytes)", `renders tools: yes; renders tool calls: yes; call tag "<tool_call>"`,
				"dialect: hermes (from the template)", `template 1. hermes — rule: "<tool_call>"`}},
		{name: "jinja with the model table", args: []string{"--template", filepath.Join(samples, "llama3.1.jinja"), "--model", "llama3.1:8b"},
			out: []string{"dialect: llama3_json (from the template)", `model: llama3.1:8b matches "llama3.1": llama3_json`}},
		{name: "api/show with a parser", args: []string{"--template", show},
			out: []string{"(ollama /api/show: go template", "dialect: qwen3_coder (from the parser)", "parser: qwen3-coder reads qwen3_coder"}},
		{name: "tokenizer_config with named templates", args: []string{"--template", config},
			out: []string{"(tokenizer_config.json, template tool_use: jinja template", "dialect: mistral"}},
		{name: "gguf", args: []string{"--template", gguf}, out: []string{"(gguf: go template", "dialect: hermes"}},
		{name: "no tools", args: []string{"--template", filepath.Join(samples, "gemma3.gotmpl")}, code: 1,
			out: []string{"renders tools: no", "dialect: none (the template renders no tools)"}},
		{name: "model evidence alone", args: []string{"--template", filepath.Join(samples, "gemma3.gotmpl"), "--model", "gemma4:e4b"},
			out: []string{"dialect: gemma4 (from the model)"}},
		{name: "file argument", args: []string{filepath.Join(samples, "gemma3.gotmpl"), "--model", "gemma4:e4b"},
			out: []string{"dialect: gemma4 (from the model)"}},
		{name: "file argument and the same flag", args: []string{gguf, "--template", gguf}, out: []string{"dialect: hermes"}},
		{name: "two templates", args: []string{gguf, "--template", filepath.Join(samples, "gemma3.gotmpl")}, code: 2, errOut: []string{"two templates"}},
		{name: "two arguments", args: []string{gguf, gguf}, code: 2},
		{name: "missing template", args: nil, code: 2, errOut: []string{"no template: give its FILE"}},
		{name: "missing file argument", args: []string{filepath.Join(dir, "nope")}, code: 2, errOut: []string{"no such file"}},
		{name: "missing file", args: []string{"--template", filepath.Join(dir, "nope")}, code: 2, errOut: []string{"no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "", append([]string{"detect"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, stdout, stderr)
			}
			for _, s := range tt.out {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range tt.errOut {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
		})
	}
	stdout, _, code := runCLI(t, "", "detect", "--template", filepath.Join(samples, "qwen3-coder.jinja"), "--json")
	var r struct {
		Dialect  string `json:"dialect"`
		Source   string `json:"source"`
		Template struct {
			Kind    string `json:"kind"`
			Matches []struct {
				Dialect string   `json:"dialect"`
				Markers []string `json:"markers"`
			} `json:"matches"`
		} `json:"template"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 0 {
		t.Fatalf("exit %d, %v:\n%s", code, err, stdout)
	}
	if r.Dialect != "qwen3_coder" || r.Source != "template" || r.Template.Kind != "jinja" || len(r.Template.Matches) != 2 ||
		strings.Join(r.Template.Matches[0].Markers, " ") != "<tool_call> <function= <parameter=" {
		t.Errorf("json: %+v", r)
	}
}

// ggufFile is a minimal GGUF v3 header holding a chat template.
func ggufFile(template string) []byte {
	b := []byte("GGUF")
	b = binary.LittleEndian.AppendUint32(b, 3)
	b = binary.LittleEndian.AppendUint64(b, 0) // tensors
	b = binary.LittleEndian.AppendUint64(b, 1) // keys
	key := "tokenizer.chat_template"
	b = binary.LittleEndian.AppendUint64(b, uint64(len(key)))
	b = append(b, key...)
	b = binary.LittleEndian.AppendUint32(b, 8) // string
	b = binary.LittleEndian.AppendUint64(b, uint64(len(template)))
	return append(b, template...)
}
