// Package callname holds the one rule of what a tool name is, with tools
// declared and without: Finish checks every call's name with it, and the
// engines that decide whether text is a call ask it whether a name would
// pass.
package callname

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/schema"
)

// MaxLength is the longest tool name accepted (OpenAI's limit).
const MaxLength = 64

// Check validates a tool name. With tools declared, a name that matches
// one exactly is always accepted; MCP combined names "server___tool" match
// across the server prefix (schema.Set.LookupServer): a name without a
// server matches the one declared tool of that name on some server, and a
// combined name matches the tool declared without a server, each renamed to
// the declared name (and the rename recorded), while a name that tools of
// several servers share is unknown (TLP-005, Known listing them); a name
// that matches one only when the case of ASCII letters is ignored is
// renamed (and the rename recorded, see schema.Set.LookupFold), and any
// other name is unknown. Without tools, the name must be non-empty, at most
// 64 bytes, made of letters and digits (of any script) and "_-.:", start
// and end with a letter, a digit or '_', and hold no "..".
//
// A failure is a *toolcall.Error whose code says why: CodeMissingFunction
// (empty), CodeNameTooLong, CodeInvalidName or CodeUnknownTool.
func Check(name string, tools *schema.Set) (string, []toolcall.Repair, *toolcall.Error) {
	trimmed := strings.TrimSpace(name)
	var repairs []toolcall.Repair
	if trimmed != name {
		repairs = append(repairs, toolcall.Repair{Kind: toolcall.RepairNameNormalized, Offset: -1, Detail: "whitespace trimmed"})
		name = trimmed
	}
	if name == "" {
		return "", nil, toolcall.NewError(toolcall.CodeMissingFunction, "tool name is empty")
	}
	if tools != nil && tools.Len() > 0 {
		if _, ok := tools.Lookup(name); ok {
			return name, repairs, nil
		}
		switch m := tools.LookupServer(name); {
		case len(m) == 1:
			detail := "matched the declared tool of that name on its server"
			if server, _ := toolcall.SplitName(name); server != "" {
				detail = "server prefix dropped: the tool is declared without a server"
			}
			repairs = append(repairs, toolcall.Repair{Kind: toolcall.RepairNameNormalized, Offset: -1, Detail: detail})
			return m[0], repairs, nil
		case len(m) > 1:
			e := toolcall.NewError(toolcall.CodeUnknownTool, fmt.Sprintf("tool name %s matches tools of several servers: %s; name the server too",
				quoteName(name), strings.Join(m, ", ")))
			e.Known = m
			return "", nil, e
		}
		if alt, ok := tools.LookupFold(name); ok {
			repairs = append(repairs, toolcall.Repair{Kind: toolcall.RepairNameNormalized, Offset: -1, Detail: "case folded to a declared name"})
			return alt, repairs, nil
		}
	}
	if len(name) > MaxLength {
		return "", nil, toolcall.NewError(toolcall.CodeNameTooLong, fmt.Sprintf("tool name is %d bytes long, the limit is %d", len(name), MaxLength))
	}
	for i, r := range name {
		if !validNameRune(r) {
			return "", nil, toolcall.NewError(toolcall.CodeInvalidName, fmt.Sprintf("tool name has an invalid character at byte %d", i))
		}
	}
	if msg := implausibleName(name); msg != "" {
		return "", nil, toolcall.NewError(toolcall.CodeInvalidName, "tool name "+msg)
	}
	if tools != nil && tools.Len() > 0 {
		e := toolcall.NewError(toolcall.CodeUnknownTool, "no declared tool is named "+quoteName(name))
		e.Known = tools.Names()
		return "", nil, e
	}
	return name, repairs, nil
}

func quoteName(s string) string { return fmt.Sprintf("%q", s) }

// validNameRune accepts letters and digits of any script (models are asked
// to call tools named in their users' languages) and "_-.:". A path
// separator is not a name character: a name is an identifier, not a path.
func validNameRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) ||
		r == '_' || r == '-' || r == '.' || r == ':'
}

// implausibleName says why a name made of valid characters is still not an
// identifier ("" when it is one): it must start and end with a letter, a
// digit or '_' ("Summary:" is prose), and hold no "..".
func implausibleName(name string) string {
	first, _ := utf8.DecodeRuneInString(name)
	last, _ := utf8.DecodeLastRuneInString(name)
	switch {
	case strings.Contains(name, ".."):
		return `holds ".."`
	case !identRune(first):
		return "does not start with a letter, a digit or '_'"
	case !identRune(last):
		return "does not end with a letter, a digit or '_'"
	}
	return ""
}

func identRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
