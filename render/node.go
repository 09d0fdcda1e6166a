package render

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall/lenient"
)

// kind is the JSON type of a node.
type kind byte

const (
	nullKind kind = iota
	objectKind
	arrayKind
	stringKind
	numberKind
	trueKind
	falseKind
)

// node is a JSON value read once, in one pass, keeping the order of
// object members. The writers walk it instead of re-reading JSON text, so
// deeply nested arguments cost linear time.
type node struct {
	kind kind
	// text is a string's decoded text or a number as written.
	text    string
	members []member // objectKind
	items   []*node  // arrayKind
}

// member is one key and value of an object.
type member struct {
	key   string
	value *node
}

// get returns the value of the first member named key, or nil.
func (n *node) get(key string) *node {
	if n == nil {
		return nil
	}
	for _, m := range n.members {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// str returns a string node's text, or "".
func (n *node) str() string {
	if n == nil || n.kind != stringKind {
		return ""
	}
	return n.text
}

// emptyObject is the value of missing arguments.
func emptyObject() *node { return &node{kind: objectKind} }

// parseJSON reads text that gjson.Valid accepted.
func parseJSON(text string) *node {
	p := jsonParser{s: text}
	return p.value()
}

// arguments reads a call's arguments as a JSON object: empty or null
// arguments are {}, almost-JSON is repaired by the lenient pipeline, and
// anything that still is not an object is {} (a toolcall.Call always holds
// an object; the rule only keeps bad input from breaking the syntax).
func arguments(raw json.RawMessage) *node {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return emptyObject()
	}
	if !gjson.ValidBytes(trimmed) {
		r := lenient.Repair(trimmed, nil)
		if r.Err != nil || !gjson.ValidBytes(r.Output) {
			return emptyObject()
		}
		trimmed = r.Output
	}
	if trimmed[0] != '{' {
		return emptyObject()
	}
	return parseJSON(string(trimmed))
}

// jsonParser is a recursive-descent reader for valid JSON.
type jsonParser struct {
	s   string
	pos int
}

func (p *jsonParser) space() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value() *node {
	p.space()
	if p.pos >= len(p.s) {
		return &node{kind: nullKind}
	}
	switch c := p.s[p.pos]; c {
	case '{':
		p.pos++
		n := &node{kind: objectKind}
		for {
			p.space()
			if p.pos >= len(p.s) || p.s[p.pos] == '}' {
				p.pos++
				return n
			}
			if p.s[p.pos] == ',' {
				p.pos++
				continue
			}
			key := p.string()
			p.space()
			if p.pos < len(p.s) && p.s[p.pos] == ':' {
				p.pos++
			}
			n.members = append(n.members, member{key: key, value: p.value()})
		}
	case '[':
		p.pos++
		n := &node{kind: arrayKind}
		for {
			p.space()
			if p.pos >= len(p.s) || p.s[p.pos] == ']' {
				p.pos++
				return n
			}
			if p.s[p.pos] == ',' {
				p.pos++
				continue
			}
			n.items = append(n.items, p.value())
		}
	case '"':
		return &node{kind: stringKind, text: p.string()}
	case 't':
		p.pos += 4
		return &node{kind: trueKind}
	case 'f':
		p.pos += 5
		return &node{kind: falseKind}
	case 'n':
		p.pos += 4
		return &node{kind: nullKind}
	default:
		start := p.pos
		for p.pos < len(p.s) {
			c := p.s[p.pos]
			if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
				p.pos++
				continue
			}
			break
		}
		return &node{kind: numberKind, text: p.s[start:p.pos]}
	}
}

// string reads a string literal at p.pos and decodes it.
func (p *jsonParser) string() string {
	if p.pos >= len(p.s) || p.s[p.pos] != '"' {
		return ""
	}
	p.pos++
	start := p.pos
	plain := true
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			p.pos++
		}
		p.pos++
	}
	body := p.s[start:min(p.pos, len(p.s))]
	p.pos++
	if plain {
		return body
	}
	return unescapeJSON(body)
}

// unescapeJSON decodes the escapes of a valid JSON string body.
func unescapeJSON(body string) string {
	b := make([]byte, 0, len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			b = append(b, c)
			continue
		}
		i++
		switch body[i] {
		case 'n':
			b = append(b, '\n')
		case 't':
			b = append(b, '\t')
		case 'r':
			b = append(b, '\r')
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'u':
			r, size := hex4(body[i+1:])
			i += size
			if utf16.IsSurrogate(r) && i+2 < len(body) && body[i+1] == '\\' && body[i+2] == 'u' {
				if lo, n := hex4(body[i+3:]); n == 4 {
					if pair := utf16.DecodeRune(r, lo); pair != utf8.RuneError {
						r = pair
						i += 2 + n
					}
				}
			}
			if utf16.IsSurrogate(r) {
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
		default: // " \ /
			b = append(b, body[i])
		}
	}
	return string(b)
}

// hex4 reads four hex digits; size is how many bytes were used.
func hex4(s string) (rune, int) {
	if len(s) < 4 {
		return utf8.RuneError, 0
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	if err != nil {
		return utf8.RuneError, 0
	}
	return rune(v), 4
}
