package harmony

import (
	"strings"
	"unicode"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/schema"
)

// functionsNamespace is the namespace harmony puts developer tools in.
const functionsNamespace = "functions."

// resolveName turns a recipient into a tool name.
//
// "functions.NAME" is NAME; other recipients ("browser.search", "python")
// are tool names as they stand. Harmony tool names are TypeScript
// identifiers, so servers rename tools whose names are not (Ollama's
// convertToValidChars: "read-file" → "read_file"), and the model answers
// with the renamed form. With tools declared, a name that matches none of
// them exactly is mapped back to the one declared tool whose identifier
// form matches, ignoring case; the mapping is recorded. Anything less
// certain is left for the name check to reject.
func resolveName(recipient string, tools *schema.Set) (string, []toolcall.Repair) {
	if tools == nil || tools.Len() == 0 {
		return strings.TrimPrefix(recipient, functionsNamespace), nil
	}
	if _, ok := tools.Lookup(recipient); ok {
		return recipient, nil // a declared tool whose name has a dot
	}
	name := strings.TrimPrefix(recipient, functionsNamespace)
	if _, ok := tools.Lookup(name); ok {
		return name, nil
	}
	key := identifierKey(name)
	if key == "" {
		return name, nil
	}
	found := ""
	for _, declared := range tools.Names() {
		if identifierKey(declared) != key {
			continue
		}
		if found != "" {
			return name, nil // two declared tools share the form: do not guess
		}
		found = declared
	}
	if found == "" {
		return name, nil
	}
	return found, []toolcall.Repair{{Kind: toolcall.RepairNameNormalized, Offset: -1, CallIndex: -1,
		Detail: "harmony identifier mapped back to a declared tool name"}}
}

// identifierKey is the form of a name that a harmony renderer would show the
// model, with ASCII letters lower-cased: space, '-' and '.' become '_', other characters that
// cannot be in an identifier are dropped, and a leading digit gets an '_'.
func identifierKey(name string) string {
	var b strings.Builder
	b.Grow(len(name) + 1)
	for _, r := range name {
		switch {
		case r == ' ' || r == '-' || r == '.':
			b.WriteByte('_')
		case 'A' <= r && r <= 'Z':
			// Only ASCII letters are lowered: Unicode lowering maps the
			// Kelvin sign to 'k' and would let a lookalike reach a tool.
			b.WriteRune(r + 'a' - 'A')
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '$':
			b.WriteRune(r)
		}
	}
	k := b.String()
	if k != "" && k[0] >= '0' && k[0] <= '9' {
		k = "_" + k
	}
	return k
}
