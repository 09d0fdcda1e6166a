package hermes

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/textlayer"
)

// tagKind tells what an XML-like tag means to the dialect.
type tagKind uint8

const (
	// kindToolCall is the dialect's own tag, in any case and with small
	// misspellings: <tool_call>, <toolcall>, <TOOL_CALL>, <tool-call>.
	kindToolCall tagKind = iota + 1
	// kindFunction is <function=NAME> or <function name="NAME">: the name
	// is in the tag and the body holds the arguments.
	kindFunction
	// kindWrapper is a tag llama.cpp's Hermes parser also accepts around a
	// call object (<tools>, <tool>, <function_call>, <json>, <xml>,
	// <response>, a bare <function>). Such a tag is claimed only when its
	// body is shaped like a call; otherwise it is text.
	kindWrapper
)

// tagName is what the dialect knows of one tag name: its kind, and its
// family, by which opening and closing tags pair.
type tagName struct {
	kind   tagKind
	family uint8
}

// tagNamed returns what a normalised tag name (lower case, without '_'
// and '-') means, if anything; the names the dialect's templates write
// with '_' are known as written too.
func tagNamed(name string) (tagName, bool) {
	switch name {
	case "toolcall", "tool_call":
		return tagName{kindToolCall, 1}, true
	case "function":
		return tagName{kindFunction, 2}, true
	case "tool":
		return tagName{kindWrapper, 3}, true
	case "tools":
		return tagName{kindWrapper, 4}, true
	case "functioncall", "function_call":
		return tagName{kindWrapper, 5}, true
	case "json":
		return tagName{kindWrapper, 6}, true
	case "xml":
		return tagName{kindWrapper, 7}, true
	case "response":
		return tagName{kindWrapper, 8}, true
	}
	return tagName{}, false
}

// Limits that keep tag recognition bounded per '<'.
const (
	maxTagName  = 24  // longest tag name considered
	maxTagAttrs = 256 // longest attribute text inside a tag
)

// tag is one opening or closing tag found in the text.
type tag struct {
	kind       tagKind
	family     uint8
	closing    bool
	start, end int    // byte span of the tag itself
	name       string // function name given by <function=NAME> or name="NAME"
	id         string // id attribute
}

// tokenize appends to tags the tags the dialect knows in text[start:end],
// in order. Each '<' is examined over a bounded number of bytes, so the
// scan is linear; a tag among known (in order) is not parsed again.
func tokenize(tags []tag, text string, start, end int, known []tag) []tag {
	for pos := start; pos < end; {
		i := strings.IndexByte(text[pos:end], '<')
		if i < 0 {
			break
		}
		i += pos
		for len(known) > 0 && known[0].start < i {
			known = known[1:]
		}
		if len(known) > 0 && known[0].start == i && known[0].end <= end {
			tags = append(tags, known[0])
			pos = known[0].end
			continue
		}
		if t, ok := parseTag(text, i, end); ok {
			tags = append(tags, t)
			pos = t.end
			continue
		}
		pos = i + 1
	}
	return tags
}

// parseTag reads the tag that starts with the '<' at text[i], ending before
// limit. Tags the dialect does not know are not tags to it.
func parseTag(text string, i, limit int) (tag, bool) {
	t := tag{start: i}
	j := i + 1
	if j < limit && text[j] == '/' {
		t.closing = true
		j++
	}
	nameStart := j
	for j < limit && j-nameStart <= maxTagName && isTagNameByte(text[j]) {
		j++
	}
	if j == nameStart || j-nameStart > maxTagName || j >= limit {
		return tag{}, false
	}
	known, ok := lookupTagName(text[nameStart:j])
	if !ok {
		return tag{}, false
	}
	t.kind, t.family = known.kind, known.family
	switch text[j] {
	case '>':
		t.end = j + 1
	case '=':
		// <function=NAME>: the name runs to the '>'.
		if t.closing || t.kind != kindFunction {
			return tag{}, false
		}
		k := tagEnd(text, j+1, limit, 128)
		if k < 0 {
			return tag{}, false
		}
		t.name = unquote(textlayer.TrimSpace(text[j+1 : k]))
		t.end = k + 1
	case ' ', '\t', '\n', '\r':
		k := tagEnd(text, j, limit, maxTagAttrs)
		if k < 0 {
			return tag{}, false
		}
		t.name, t.id = attributes(text[j:k])
		t.end = k + 1
	default:
		return tag{}, false
	}
	if t.kind == kindFunction && t.name == "" && !t.closing {
		// A bare <function> names nothing: it can only wrap a call object.
		t.kind = kindWrapper
	}
	return t, true
}

// tagEnd returns the offset of the '>' that ends a tag whose inside starts
// at from, looking at most max bytes; -1 if there is none or a '<' comes
// first.
func tagEnd(text string, from, limit, max int) int {
	for k := from; k < limit && k-from <= max; k++ {
		switch text[k] {
		case '>':
			return k
		case '<':
			return -1
		}
	}
	return -1
}

// attributes reads name="…" and id="…" from the inside of a tag.
func attributes(s string) (name, id string) {
	for i := 0; i < len(s); {
		for i < len(s) && (textlayer.IsSpace(s[i]) || s[i] == '/') {
			i++
		}
		k := i
		for i < len(s) && isTagNameByte(s[i]) {
			i++
		}
		key := strings.ToLower(s[k:i])
		if key == "" {
			if i < len(s) {
				i++ // a stray byte: step over it
			}
			continue
		}
		if i >= len(s) || s[i] != '=' {
			continue
		}
		i++
		var val string
		if i < len(s) && (s[i] == '"' || s[i] == '\'') {
			q := s[i]
			e := strings.IndexByte(s[i+1:], q)
			if e < 0 {
				val, i = s[i+1:], len(s)
			} else {
				val, i = s[i+1:i+1+e], i+2+e
			}
		} else {
			k := i
			for i < len(s) && !textlayer.IsSpace(s[i]) {
				i++
			}
			val = s[k:i]
		}
		switch key {
		case "name":
			name = textlayer.TrimSpace(val)
		case "id":
			id = textlayer.TrimSpace(val)
		}
	}
	return name, id
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// isTagNameByte reports whether c may stand in a tag name: an ASCII
// letter or digit, '_' or '-'.
func isTagNameByte(c byte) bool { return tagNameBytes[c] }

// tagNameBytes is isTagNameByte's table.
var tagNameBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
	}
	return t
}()

// lookupTagName finds a tag name ignoring ASCII case, '_' and '-', so that
// <tool_call>, <TOOL_CALL>, <toolcall> and <tool-call> are one name.
func lookupTagName(s string) (tagName, bool) {
	if known, ok := tagNamed(s); ok {
		return known, true // written as the table writes it: nothing to normalise
	}
	var buf [maxTagName]byte
	n := 0
	for i := 0; i < len(s) && n < len(buf); i++ {
		switch c := s[i]; {
		case c == '_' || c == '-':
		case c >= 'A' && c <= 'Z':
			buf[n] = c + 'a' - 'A'
			n++
		default:
			buf[n] = c
			n++
		}
	}
	return tagNamed(string(buf[:n]))
}
