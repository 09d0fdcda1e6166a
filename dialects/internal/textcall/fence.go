package textcall

import "strings"

// Fence is a Markdown code fence found in text.
type Fence struct {
	// Start and End span the whole fence, backticks included.
	Start, End int
	// BodyStart and BodyEnd span what is between the opening line and the
	// closing backticks.
	BodyStart, BodyEnd int
	// Lang is the info word after the opening backticks, in lower case.
	Lang string
	// Closed is false when the text ends before the closing backticks.
	Closed bool
}

// IsFenceAt reports whether text[i:limit] starts with three backticks.
func IsFenceAt(text string, i, limit int) bool {
	return limit-i >= 3 && text[i:i+3] == "```"
}

// FenceAt reads the fence whose opening backticks are at text[i], ending
// before limit. The info word may be followed by the body on the same line
// ("```json {…}```"). The fence closes at the first three backticks that
// begin or end a line, so backticks inside a JSON string do not close it; a
// fence never closed runs to limit. The scan stops at the close, so reading
// fence after fence is linear.
func FenceAt(text string, i, limit int) Fence {
	f := Fence{Start: i}
	j := i
	for j < limit && text[j] == '`' {
		j++
	}
	langStart := j
	for j < limit && j-langStart < 32 && isLangByte(text[j]) {
		j++
	}
	f.Lang = strings.ToLower(text[langStart:j])
	k := j
	for k < limit && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r') {
		k++
	}
	if k < limit && text[k] == '\n' {
		j = k + 1
	}
	f.BodyStart = j
	f.BodyEnd, f.End = limit, limit
	for from := j; from < limit; {
		c := strings.Index(text[from:limit], "```")
		if c < 0 {
			break
		}
		c += from
		e := c
		for e < limit && text[e] == '`' {
			e++
		}
		if beginsLine(text, j, c) || endsLine(text, e, limit) {
			f.BodyEnd, f.End, f.Closed = c, e, true
			break
		}
		from = e
	}
	if !f.Closed {
		// A fence never closed whose last line is one or two backticks:
		// the text ends inside the closing backticks, which are not body.
		k := limit
		for k > j && limit-k < 2 && text[k-1] == '`' {
			k--
		}
		if k < limit && beginsLine(text, j, k) {
			f.BodyEnd = k
		}
	}
	return f
}

// beginsLine reports whether only spaces or tabs separate at from the start
// of its line (or from floor, the start of the body).
func beginsLine(text string, floor, at int) bool {
	for at > floor && (text[at-1] == ' ' || text[at-1] == '\t') {
		at--
	}
	return at == floor || text[at-1] == '\n'
}

// endsLine reports whether only spaces or tabs separate at from the end of
// its line (or from limit).
func endsLine(text string, at, limit int) bool {
	for at < limit && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r') {
		at++
	}
	return at == limit || text[at] == '\n'
}

// FenceOpenBefore returns where a fence opening ("```xml") starts when only
// whitespace separates its end from at; -1 if there is none after floor.
func FenceOpenBefore(text string, floor, at int) int {
	k := at
	for k > floor && IsSpace(text[k-1]) {
		k--
	}
	l := k
	for l > floor && k-l < 32 && isLangByte(text[l-1]) {
		l--
	}
	if l-floor < 3 || text[l-3:l] != "```" {
		return -1
	}
	l -= 3
	for l > floor && text[l-1] == '`' {
		l--
	}
	return l
}

// IsJSONLang reports whether a fence's info word announces JSON (or
// nothing).
func IsJSONLang(lang string) bool {
	switch lang {
	case "", "json", "json5", "jsonc", "jsonl", "javascript", "js", "tool_call", "toolcall", "tool_calls":
		return true
	}
	return false
}

func isLangByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '+' || c == '.'
}
