package probe_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/probe"
)

// gguf writes a GGUF header of the given version with its key/value pairs:
// strings, a uint32, and a string array (a vocabulary) to skip.
func gguf(version uint32, kv map[string]string, vocab int) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	count := func(n int) {
		if version == 1 {
			_ = binary.Write(&b, le, uint32(n))
		} else {
			_ = binary.Write(&b, le, uint64(n))
		}
	}
	str := func(s string) { count(len(s)); b.WriteString(s) }
	b.WriteString("GGUF")
	_ = binary.Write(&b, le, version)
	count(0)           // tensors
	count(len(kv) + 3) // keys
	str("general.architecture")
	_ = binary.Write(&b, le, uint32(8))
	str("llama")
	str("llama.context_length")
	_ = binary.Write(&b, le, uint32(4))
	_ = binary.Write(&b, le, uint32(8192))
	str("tokenizer.ggml.tokens")
	_ = binary.Write(&b, le, uint32(9))
	_ = binary.Write(&b, le, uint32(8))
	count(vocab)
	for i := range vocab {
		str(string(rune('a' + i%26)))
	}
	for _, k := range []string{"tokenizer.chat_template", "tokenizer.chat_template.tool_use"} {
		if v, ok := kv[k]; ok {
			str(k)
			_ = binary.Write(&b, le, uint32(8))
			str(v)
		}
	}
	b.WriteString("tensor data follows")
	return b.Bytes()
}

func TestReadTemplate(t *testing.T) {
	jinja := "{% for m in messages %}<tool_call>{% endfor %}"
	tests := []struct {
		name, in      string
		format, tmpl  string
		named, parser string
	}{
		{name: "text", in: jinja, format: "text", tmpl: jinja},
		{name: "json string", in: `"{{ .Prompt }}"`, format: "json string", tmpl: "{{ .Prompt }}"},
		{name: "tokenizer_config", in: `{"bos_token": "<s>", "chat_template": "` + jinja + `"}`, format: "tokenizer_config.json", tmpl: jinja},
		{name: "named templates", in: `{"chat_template": [{"name": "default", "template": "d"}, {"name": "tool_use", "template": "t"}, {"name": "rag", "template": "r"}]}`,
			format: "tokenizer_config.json", tmpl: "t", named: "tool_use"},
		{name: "api/show", in: `{"template": "{{ .Prompt }}", "parser": "qwen3-coder", "renderer": "qwen3-coder", "capabilities": ["tools"]}`,
			format: "ollama /api/show", tmpl: "{{ .Prompt }}", parser: "qwen3-coder"},
		{name: "gguf v3", in: string(gguf(3, map[string]string{"tokenizer.chat_template": jinja}, 300)), format: "gguf", tmpl: jinja},
		{name: "gguf v1 with tool_use", in: string(gguf(1, map[string]string{"tokenizer.chat_template": "d", "tokenizer.chat_template.tool_use": "t"}, 3)),
			format: "gguf", tmpl: "t", named: "tool_use"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := probe.ReadTemplate([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got.Format != tt.format || got.Template != tt.tmpl || got.Name != tt.named || got.Parser != tt.parser {
				t.Errorf("got %+v (%q)", got, got.Template)
			}
			// The file reader agrees, through its streaming GGUF path.
			path := filepath.Join(t.TempDir(), "t")
			if err := os.WriteFile(path, []byte(tt.in), 0o600); err != nil {
				t.Fatal(err)
			}
			fromFile, err := probe.ReadTemplateFile(path)
			if err != nil || fromFile.Template != tt.tmpl || fromFile.Format != tt.format {
				t.Errorf("ReadTemplateFile: %+v, %v", fromFile, err)
			}
		})
	}
}

// Malformed GGUF headers and JSON give a coded error, never a panic or a
// huge allocation.
func TestReadTemplateHostile(t *testing.T) {
	valid := gguf(3, map[string]string{"tokenizer.chat_template": "x"}, 10)
	huge := append([]byte("GGUF\x03\x00\x00\x00"), make([]byte, 8)...)
	huge = binary.LittleEndian.AppendUint64(huge, 1)
	huge = binary.LittleEndian.AppendUint64(huge, 1<<62) // key length
	hugeArray := append([]byte("GGUF\x03\x00\x00\x00"), make([]byte, 8)...)
	hugeArray = binary.LittleEndian.AppendUint64(hugeArray, 1)
	hugeArray = binary.LittleEndian.AppendUint64(hugeArray, 1)
	hugeArray = append(hugeArray, 'k')
	hugeArray = binary.LittleEndian.AppendUint32(hugeArray, 9)
	hugeArray = binary.LittleEndian.AppendUint32(hugeArray, 0)
	hugeArray = binary.LittleEndian.AppendUint64(hugeArray, 1<<40)
	nested := append([]byte("GGUF\x03\x00\x00\x00"), make([]byte, 8)...)
	nested = binary.LittleEndian.AppendUint64(nested, 1)
	nested = binary.LittleEndian.AppendUint64(nested, 1)
	nested = append(nested, 'k')
	for range 6 {
		nested = binary.LittleEndian.AppendUint32(nested, 9)
		nested = binary.LittleEndian.AppendUint32(nested, 9)
		nested = binary.LittleEndian.AppendUint64(nested, 1)
	}
	inputs := map[string][]byte{
		"truncated":         valid[:len(valid)/2],
		"version 9":         []byte("GGUF\x09\x00\x00\x00"),
		"no template":       gguf(2, nil, 2),
		"huge key":          huge,
		"huge array":        hugeArray,
		"nested arrays":     nested,
		"unknown type":      append(append([]byte("GGUF\x03\x00\x00\x00"), make([]byte, 8)...), 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 'k', 99, 0, 0, 0),
		"json without":      []byte(`{"something": "else"}`),
		"bad chat_template": []byte(`{"chat_template": 42}`),
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			_, err := probe.ReadTemplate(in)
			if !errors.Is(err, toolcall.ErrInvalidInput) {
				t.Errorf("err = %v", err)
			}
		})
	}
	if _, err := probe.ReadTemplateFile(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
