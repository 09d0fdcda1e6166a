package probe

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dialectkit/toolcall"
)

// TemplateFile is a chat template read from a file, with what else the
// file said about the model.
type TemplateFile struct {
	// Template is the chat template text.
	Template string `json:"-"`
	// Format is what the file was: "gguf", "tokenizer_config.json",
	// "ollama /api/show", "json string" or "text".
	Format string `json:"format"`
	// Name is the template's name when the file held several
	// ("tool_use", "default").
	Name string `json:"name,omitempty"`
	// Parser and Renderer are Ollama's built-in parser and renderer names,
	// from an /api/show answer.
	Parser   string `json:"parser,omitempty"`
	Renderer string `json:"renderer,omitempty"`
}

// ReadTemplateFile reads a chat template from a file; see ReadTemplate.
func ReadTemplateFile(path string) (*TemplateFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	if magic, err := br.Peek(4); err == nil && string(magic) == ggufMagic {
		tmpl, name, err := readGGUFTemplate(br)
		if err != nil {
			return nil, err
		}
		return &TemplateFile{Template: tmpl, Format: "gguf", Name: name}, nil
	}
	data, err := io.ReadAll(io.LimitReader(br, maxTemplateFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxTemplateFile {
		return nil, toolcall.NewError(toolcall.CodeTooLarge, fmt.Sprintf("the template file is larger than %d bytes and is not a GGUF file", maxTemplateFile))
	}
	return ReadTemplate(data)
}

// maxTemplateFile bounds a template file that is not a GGUF model: chat
// templates are kilobytes, a tokenizer_config.json rarely above a few
// megabytes.
const maxTemplateFile = 32 << 20

// ReadTemplate reads a chat template from what a user has at hand: a GGUF
// model file (its tokenizer.chat_template, or the tool_use template when
// there is one), a Hugging Face tokenizer_config.json (chat_template as a
// string or as a list of named templates), an Ollama /api/show answer
// (template, with parser and renderer), a JSON string, or the template
// text itself (Jinja or Ollama Go). Errors are TLP-016.
func ReadTemplate(data []byte) (*TemplateFile, error) {
	if bytes.HasPrefix(data, []byte(ggufMagic)) {
		tmpl, name, err := readGGUFTemplate(bufio.NewReader(bytes.NewReader(data)))
		if err != nil {
			return nil, err
		}
		return &TemplateFile{Template: tmpl, Format: "gguf", Name: name}, nil
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '"' {
		var s string
		if json.Unmarshal(trimmed, &s) == nil {
			return &TemplateFile{Template: s, Format: "json string"}, nil
		}
	}
	if len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		return templateFromJSON(trimmed)
	}
	return &TemplateFile{Template: string(data), Format: "text"}, nil
}

// templateFromJSON reads a tokenizer_config.json or an /api/show answer.
func templateFromJSON(data []byte) (*TemplateFile, error) {
	var doc struct {
		ChatTemplate json.RawMessage `json:"chat_template"`
		Template     *string         `json:"template"`
		Parser       string          `json:"parser"`
		Renderer     string          `json:"renderer"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, toolcall.Errorf(toolcall.CodeInvalidInput, err, "the template file is JSON, but neither a tokenizer_config.json nor an /api/show answer")
	}
	if len(doc.ChatTemplate) > 0 {
		var s string
		if json.Unmarshal(doc.ChatTemplate, &s) == nil {
			return &TemplateFile{Template: s, Format: "tokenizer_config.json"}, nil
		}
		var named []struct {
			Name     string `json:"name"`
			Template string `json:"template"`
		}
		if json.Unmarshal(doc.ChatTemplate, &named) == nil && len(named) > 0 {
			best := 0
			for i, n := range named {
				if n.Name == "tool_use" {
					best = i
					break
				}
				if n.Name == "default" {
					best = i
				}
			}
			return &TemplateFile{Template: named[best].Template, Format: "tokenizer_config.json", Name: named[best].Name}, nil
		}
		return nil, toolcall.NewError(toolcall.CodeInvalidInput, "chat_template is neither a string nor a list of named templates")
	}
	if doc.Template != nil || doc.Parser != "" || doc.Renderer != "" {
		t := &TemplateFile{Format: "ollama /api/show", Parser: doc.Parser, Renderer: doc.Renderer}
		if doc.Template != nil {
			t.Template = *doc.Template
		}
		return t, nil
	}
	return nil, toolcall.NewError(toolcall.CodeInvalidInput, "the JSON file has no chat_template (tokenizer_config.json) and no template (/api/show)")
}

// GGUF metadata: the header, then key/value pairs; the chat template is
// the string tokenizer.chat_template (and tokenizer.chat_template.NAME for
// named ones). Little endian throughout. Version 1 used 32-bit counts and
// lengths, versions 2 and 3 64-bit.
const ggufMagic = "GGUF"

// GGUF value types.
const (
	ggufUint8 = iota
	ggufInt8
	ggufUint16
	ggufInt16
	ggufUint32
	ggufInt32
	ggufFloat32
	ggufBool
	ggufString
	ggufArray
	ggufUint64
	ggufInt64
	ggufFloat64
)

// Limits on GGUF metadata, far above real files (the largest arrays are
// tokenizer vocabularies of a few hundred thousand entries).
const (
	maxGGUFKeys      = 1 << 20
	maxGGUFKeyLen    = 1 << 16
	maxGGUFString    = 64 << 20
	maxGGUFArray     = 1 << 28
	maxGGUFArrayNest = 4
)

// ggufReader reads GGUF metadata, counting the offset for errors.
type ggufReader struct {
	r       *bufio.Reader
	version uint32
	off     int64
}

func (g *ggufReader) fail(what string) error {
	e := toolcall.NewError(toolcall.CodeInvalidInput, "GGUF metadata: "+what)
	e.Offset = int(g.off)
	return e
}

func (g *ggufReader) read(p []byte) error {
	n, err := io.ReadFull(g.r, p)
	g.off += int64(n)
	if err != nil {
		return g.fail("the file ends inside the metadata")
	}
	return nil
}

func (g *ggufReader) u32() (uint32, error) {
	var b [4]byte
	if err := g.read(b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

func (g *ggufReader) u64() (uint64, error) {
	var b [8]byte
	if err := g.read(b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// count reads a count or a length: 32 bits in version 1, 64 after.
func (g *ggufReader) count() (uint64, error) {
	if g.version == 1 {
		n, err := g.u32()
		return uint64(n), err
	}
	return g.u64()
}

func (g *ggufReader) skip(n uint64) error {
	m, err := g.r.Discard(int(n))
	g.off += int64(m)
	if err != nil {
		return g.fail("the file ends inside the metadata")
	}
	return nil
}

// str reads a string of at most limit bytes.
func (g *ggufReader) str(limit uint64) (string, error) {
	n, err := g.count()
	if err != nil {
		return "", err
	}
	if n > limit {
		return "", g.fail(fmt.Sprintf("a string of %d bytes is longer than the limit of %d", n, limit))
	}
	b := make([]byte, n)
	if err := g.read(b); err != nil {
		return "", err
	}
	return string(b), nil
}

// skipValue skips a value of type typ.
func (g *ggufReader) skipValue(typ uint32, depth int) error {
	switch typ {
	case ggufUint8, ggufInt8, ggufBool:
		return g.skip(1)
	case ggufUint16, ggufInt16:
		return g.skip(2)
	case ggufUint32, ggufInt32, ggufFloat32:
		return g.skip(4)
	case ggufUint64, ggufInt64, ggufFloat64:
		return g.skip(8)
	case ggufString:
		n, err := g.count()
		if err != nil {
			return err
		}
		if n > maxGGUFString {
			return g.fail(fmt.Sprintf("a string of %d bytes is longer than the limit of %d", n, maxGGUFString))
		}
		return g.skip(n)
	case ggufArray:
		if depth >= maxGGUFArrayNest {
			return g.fail("arrays nested too deep")
		}
		elem, err := g.u32()
		if err != nil {
			return err
		}
		n, err := g.count()
		if err != nil {
			return err
		}
		if n > maxGGUFArray {
			return g.fail(fmt.Sprintf("an array of %d elements is longer than the limit of %d", n, maxGGUFArray))
		}
		for range n {
			if err := g.skipValue(elem, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return g.fail(fmt.Sprintf("unknown value type %d", typ))
}

// readGGUFTemplate returns the chat template of a GGUF file: the tool_use
// template when the file has one, else the default one, and its name.
func readGGUFTemplate(r *bufio.Reader) (string, string, error) {
	g := &ggufReader{r: r}
	var magic [4]byte
	if err := g.read(magic[:]); err != nil || string(magic[:]) != ggufMagic {
		return "", "", g.fail("not a GGUF file")
	}
	v, err := g.u32()
	if err != nil {
		return "", "", err
	}
	if v < 1 || v > 3 {
		return "", "", g.fail(fmt.Sprintf("version %d is not 1, 2 or 3", v))
	}
	g.version = v
	if _, err := g.count(); err != nil { // tensor count
		return "", "", err
	}
	keys, err := g.count()
	if err != nil {
		return "", "", err
	}
	if keys > maxGGUFKeys {
		return "", "", g.fail(fmt.Sprintf("%d metadata keys is more than the limit of %d", keys, maxGGUFKeys))
	}
	templates := map[string]string{}
	for range keys {
		key, err := g.str(maxGGUFKeyLen)
		if err != nil {
			return "", "", err
		}
		typ, err := g.u32()
		if err != nil {
			return "", "", err
		}
		name, isTemplate := strings.CutPrefix(key, "tokenizer.chat_template")
		if isTemplate && typ == ggufString && (name == "" || strings.HasPrefix(name, ".")) {
			s, err := g.str(maxGGUFString)
			if err != nil {
				return "", "", err
			}
			templates[strings.TrimPrefix(name, ".")] = s
			continue
		}
		if err := g.skipValue(typ, 0); err != nil {
			return "", "", err
		}
	}
	if t, ok := templates["tool_use"]; ok {
		return t, "tool_use", nil
	}
	if t, ok := templates[""]; ok {
		return t, "", nil
	}
	return "", "", toolcall.NewError(toolcall.CodeInvalidInput, "the GGUF file has no tokenizer.chat_template")
}
