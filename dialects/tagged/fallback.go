package tagged

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/schema"
)

// maxTrailingTries bounds the candidate starts tried for a trailing JSON
// call, so that text with many lines starting with '{' stays linear.
const maxTrailingTries = 8

// trailingJSONCall finds a JSON call object that ends content and starts a
// line: {"name": …, "arguments": {…}}. It must be strict JSON, name a tool
// (a declared one, when tools are declared) and carry an arguments object.
// It returns the call and the content before it.
func trailingJSONCall(content string, opts *dialects.Options) (dialects.RawCall, string, bool) {
	body := strings.TrimRight(content, " \t\r\n")
	if !strings.HasSuffix(body, "}") {
		return dialects.RawCall{}, "", false
	}
	// Only one '{' can start an object that ends the text, so the search
	// may go backwards from the end, trying a bounded number of starts.
	end := len(body)
	for tries := 0; tries < maxTrailingTries; {
		i := strings.LastIndexByte(body[:end], '{')
		if i < 0 {
			break
		}
		end = i
		if !atLineStart(body, i) {
			continue
		}
		tries++
		candidate, stray := body[i:], false
		if !lenient.ValidString(candidate) {
			// A brace too many after the object ({…}}) is its
			// punctuation: drop closing brackets while that makes it JSON.
			for n := 0; n < maxStrayClosers && !lenient.ValidString(candidate); n++ {
				trimmed := strings.TrimRight(candidate[:len(candidate)-1], " \t\r\n")
				if last := candidate[len(candidate)-1]; last != '}' && last != ']' || trimmed == "" {
					break
				}
				candidate, stray = trimmed, true
			}
			if !lenient.ValidString(candidate) {
				continue
			}
		}
		rc, ok := jsonCall(gjson.Parse(candidate), opts.Tools)
		if !ok {
			return dialects.RawCall{}, "", false
		}
		if stray {
			calls := []dialects.RawCall{rc}
			textcall.NoteStrayClosers(calls)
			rc = calls[0]
		}
		rc.Offset = i
		return rc, strings.TrimRight(body[:i], " \t\r\n"), true
	}
	return dialects.RawCall{}, "", false
}

// maxStrayClosers bounds the closing brackets too many dropped after a
// trailing call object.
const maxStrayClosers = 3

// jsonCall reads a call object that has a name and an arguments object.
func jsonCall(obj gjson.Result, tools *schema.Set) (dialects.RawCall, bool) {
	rc, ok := callobject.Read(obj.Raw, 0, nil)
	if !ok || rc.Name == "" || !gjson.Parse(rc.Arguments).IsObject() {
		return rc, false
	}
	if tools != nil && tools.Len() > 0 {
		if _, found := tools.Lookup(rc.Name); !found {
			if _, found := tools.LookupFold(rc.Name); !found {
				return rc, false
			}
		}
	}
	return rc, true
}

func atLineStart(s string, i int) bool {
	for i > 0 {
		switch s[i-1] {
		case ' ', '\t':
			i--
		case '\n', '\r':
			return true
		default:
			return false
		}
	}
	return true
}

// resolveAlias renames a call to the one declared tool whose name matches
// when case, '_', '-', '.' and spaces are ignored. Nothing happens when
// the name is declared as written, or when no tool or more than one tool
// matches.
func resolveAlias(rc *dialects.RawCall, tools *schema.Set) {
	if tools == nil || tools.Len() == 0 || rc.Name == "" {
		return
	}
	if _, ok := tools.Lookup(rc.Name); ok {
		return
	}
	key := aliasKey(rc.Name)
	found := ""
	for _, n := range tools.Names() {
		if aliasKey(n) != key {
			continue
		}
		if found != "" {
			return
		}
		found = n
	}
	if found == "" {
		return
	}
	rc.Name = found
	rc.Repairs = append(rc.Repairs, toolcall.Repair{Kind: toolcall.RepairNameNormalized, Offset: rc.Offset, CallIndex: -1,
		Detail: "name resolved to a declared tool ignoring case and separators"})
}

func aliasKey(name string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(name) {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			continue
		case 'A' <= r && r <= 'Z':
			r += 'a' - 'A' // ASCII only: Unicode lowering maps lookalikes to letters
		}
		b.WriteRune(r)
	}
	return b.String()
}
