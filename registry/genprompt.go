package registry

import (
	"regexp"
	"strings"

	"github.com/dialectkit/toolcall/dialects"
)

// promptPiece is text a Jinja generation prompt may write: raw text, one
// expression's output ({{ … }}: its string literals and the variables set
// to one, joined; each branch of an inline if on its own), or the string
// literals of a set statement (text gathered to be written later). depth
// is how many conditions and loops inside the prompt's own block it lies
// in: 0 is written whenever the prompt is. unresolved says the piece's
// output cannot be known (a macro call, a variable the template does not
// set to a literal).
type promptPiece struct {
	text       string
	depth      int
	unresolved bool
}

// generationPrompt returns the pieces the add_generation_prompt block of a
// Jinja template may write, in order, when the mention of
// add_generation_prompt at at lies in an {% if … %} tag (the block runs to
// its else, elif or endif); ok is false otherwise.
func generationPrompt(template string, at int) (pieces []promptPiece, ok bool) {
	start := strings.LastIndex(template[:at], "{%")
	if start < 0 || strings.Contains(template[start:at], "%}") {
		return nil, false
	}
	n := strings.Index(template[at:], "%}")
	if n < 0 {
		return nil, false
	}
	if head := strings.Trim(template[start+2:at+n], "-+ \t\r\n"); !strings.HasPrefix(head, "if ") {
		return nil, false
	}
	vars := setLiterals(template)
	depth := 0
	pos := at + n + 2
	for pos < len(template) {
		k := nextTag(template, pos)
		if k < 0 {
			k = len(template)
		}
		if raw := template[pos:k]; strings.TrimSpace(raw) != "" {
			pieces = append(pieces, promptPiece{text: raw, depth: depth})
		}
		if k == len(template) {
			break
		}
		closer := map[byte]string{'{': "}}", '%': "%}", '#': "#}"}[template[k+1]]
		e := strings.Index(template[k+2:], closer)
		if e < 0 {
			return nil, false
		}
		body := strings.Trim(template[k+2:k+2+e], "-+ \t\r\n")
		pos = k + 2 + e + 2
		switch template[k+1] {
		case '{':
			pieces = append(pieces, expressionPieces(body, depth, vars)...)
		case '%':
			word, _, _ := strings.Cut(body, " ")
			switch word {
			case "if", "for", "macro", "call", "filter":
				depth++
			case "elif", "else":
				if depth == 0 {
					return pieces, true // the branch without a generation prompt
				}
			case "endif", "endfor", "endmacro", "endcall", "endfilter":
				if depth == 0 {
					return pieces, true
				}
				depth--
			case "set":
				for _, lit := range stringLiterals(body) {
					pieces = append(pieces, promptPiece{text: lit, depth: depth})
				}
			}
		}
	}
	return pieces, true
}

// nextTag returns where the next Jinja tag ({{, {%, {#) at or after pos
// begins, or -1.
func nextTag(s string, pos int) int {
	for {
		i := strings.IndexByte(s[pos:], '{')
		if i < 0 || pos+i+1 >= len(s) {
			return -1
		}
		if c := s[pos+i+1]; c == '{' || c == '%' || c == '#' {
			return pos + i
		}
		pos += i + 1
	}
}

// setLiteralRE matches a set statement that gives a variable a string
// literal.
var setLiteralRE = regexp.MustCompile(`\{%[-+]?\s*set\s+([A-Za-z_]\w*)\s*=\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\s*[-+]?%\}`)

// setLiterals returns the variables a template sets to a string literal,
// with their values; a variable set to two values is left out.
func setLiterals(template string) map[string]string {
	vars := map[string]string{}
	twice := map[string]bool{}
	for _, m := range setLiteralRE.FindAllStringSubmatch(template, -1) {
		v := unquote(m[2])
		if old, ok := vars[m[1]]; ok && old != v {
			twice[m[1]] = true
		}
		vars[m[1]] = v
	}
	for name := range twice {
		delete(vars, name)
	}
	return vars
}

// exprToken is a token of a Jinja expression: a string literal (lit), a
// name, or any other byte.
type exprToken struct {
	lit, name string
	isLit     bool
	other     byte
}

// tokenize splits a Jinja expression into tokens; a name keeps its dotted
// attributes (ns.out).
func tokenize(expr string) []exprToken {
	var out []exprToken
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(expr) && expr[j] != c {
				if expr[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(expr))
			out = append(out, exprToken{lit: unquote(expr[i:end]), isLit: true})
			i = end
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i
			for j < len(expr) && (expr[j] == '_' || expr[j] == '.' || 'a' <= expr[j] && expr[j] <= 'z' || 'A' <= expr[j] && expr[j] <= 'Z' || '0' <= expr[j] && expr[j] <= '9') {
				j++
			}
			out = append(out, exprToken{name: expr[i:j]})
			i = j
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		default:
			out = append(out, exprToken{other: c})
			i++
		}
	}
	return out
}

// stringLiterals returns the string literals of a Jinja statement.
func stringLiterals(body string) []string {
	var out []string
	for _, t := range tokenize(body) {
		if t.isLit {
			out = append(out, t.lit)
		}
	}
	return out
}

// jinjaWords are the names of a Jinja expression that write nothing.
var jinjaWords = map[string]bool{
	"if": true, "else": true, "not": true, "and": true, "or": true, "is": true, "in": true,
	"defined": true, "none": true, "None": true, "true": true, "false": true, "True": true, "False": true,
	// Special tokens the caller passes, never a reasoning tag.
	"bos_token": true, "eos_token": true,
}

// expressionPieces returns what the expression body of a {{ … }} tag at
// depth may write: its literals and resolved variables joined, or, for an
// inline if, each branch on its own, one level deeper. Names in the
// condition of an inline if, filter names and jinjaWords write nothing; a
// call (raise_exception excepted) or a name vars does not hold makes the
// piece unresolved.
func expressionPieces(body string, depth int, vars map[string]string) []promptPiece {
	toks := tokenize(body)
	for _, t := range toks {
		if t.name == "raise_exception" {
			return nil
		}
	}
	var out []promptPiece
	cur := promptPiece{depth: depth}
	cond, inline := false, false
	for i, t := range toks {
		switch {
		case t.name == "if" || t.name == "else":
			inline = true
			if cur.text != "" || cur.unresolved {
				out = append(out, cur)
			}
			cur = promptPiece{depth: depth}
			cond = t.name == "if"
		case cond:
			// The condition of an inline if writes nothing.
		case t.isLit:
			cur.text += t.lit
		case t.name != "":
			if i > 0 && toks[i-1].other == '|' || jinjaWords[t.name] {
				continue // a filter, or a word that writes nothing
			}
			if v, ok := vars[t.name]; ok && !(i+1 < len(toks) && toks[i+1].other == '(') {
				cur.text += v
				continue
			}
			cur.unresolved = true
		}
	}
	if cur.text != "" || cur.unresolved {
		out = append(out, cur)
	}
	if inline {
		for i := range out {
			out[i].depth = depth + 1
		}
	}
	return out
}

// unquote returns the text of a Jinja string literal, quotes included,
// with the escapes \n, \t, \\ and \' or \" decoded.
func unquote(lit string) string {
	if len(lit) < 2 {
		return ""
	}
	s := lit[1 : len(lit)-1]
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// readStart reads the reasoning start from a generation prompt's pieces
// (TemplateReasoningStart): open when some wrapper's last opening tag that
// no closing tag follows in its own piece is written unconditionally and
// no closing tag follows it; closed when no piece leaves a block open, or
// one that is left open is then closed unconditionally; neither when a
// condition decides, or when a piece cannot be resolved.
func readStart(pieces []promptPiece, tags []dialects.ReasoningTags) (open, closed bool) {
	depends := false
	for _, p := range pieces {
		depends = depends || p.unresolved
	}
	for _, t := range tags {
		last := -1
		for i, p := range pieces {
			if j := strings.LastIndex(p.text, t.Open); j >= 0 && !strings.Contains(p.text[j:], t.Close) {
				last = i
			}
		}
		if last < 0 {
			continue
		}
		state := "open"
		if pieces[last].depth > 0 {
			state = "depends"
		}
		for _, p := range pieces[last+1:] {
			if strings.Contains(p.text, t.Close) {
				if p.depth > 0 {
					state = "depends"
				} else if state == "open" {
					state = "closed"
				}
			}
		}
		switch state {
		case "open":
			open = true
		case "depends":
			depends = true
		}
	}
	switch {
	case depends:
		return false, false
	case open:
		return true, false
	}
	return false, true
}
