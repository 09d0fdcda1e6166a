// Package textlayer is the shared text layer of the readers of model output:
// what a code fence is, what its info string says, and where a candidate
// call stands in the text around it. The dialect engines, the stream and
// Code Mode (package codemode) read these notions here, each defined once.
package textlayer

import "strings"

// MaxFenceIndent is the deepest indentation at which a line opens a fence
// at the top level of a text (CommonMark allows three spaces).
const MaxFenceIndent = 3

// maxInfo bounds the info word read after a fence's opening run.
const maxInfo = 32

// Fence is a Markdown code fence found in a text.
type Fence struct {
	// Start and End span the whole fence, its opening run and its closing
	// run included.
	Start, End int
	// BodyStart and BodyEnd span what is between the opening line and the
	// closing run.
	BodyStart, BodyEnd int
	// Info is the info word after the opening run, in lower case.
	Info string
	// Closed is false when the text ends before the closing run.
	Closed bool
}

// OpenLine reports whether the line text[start:end] opens a fence: at most
// maxIndent spaces, then a run of three backticks or more, or of three
// tildes or more, with no backtick after a run of backticks on the line
// (CommonMark: "```x```" is inline code). It returns where the run
// starts, the run's byte and length, and the info word after it (lower
// case, up to a blank or '{').
func OpenLine(text string, start, end, maxIndent int) (at int, ch byte, n int, info string, ok bool) {
	i := start
	for i < end && i-start < maxIndent && text[i] == ' ' {
		i++
	}
	if end-i < 3 || (text[i] != '`' && text[i] != '~') {
		return i, 0, 0, "", false
	}
	ch = text[i]
	for n = 0; i+n < end && text[i+n] == ch; n++ {
	}
	if n < 3 {
		return i, 0, 0, "", false
	}
	rest := text[i+n : end]
	if ch == '`' && strings.IndexByte(rest, '`') >= 0 {
		return i, 0, 0, "", false // "```x```" on one line is inline code
	}
	return i, ch, n, InfoWord(rest), true
}

// InfoWord returns the info word at the start of s, the text right after a
// fence's opening run: letters, digits and "_-+.", at most maxInfo bytes,
// in lower case, written right after the run ("```python title=x" is
// python); a blank after the run leaves the fence unlabelled, so "``` but
// not that one." carries prose, no label.
func InfoWord(s string) string {
	j := 0
	for j < len(s) && j < maxInfo && isInfoByte(s[j]) {
		j++
	}
	return strings.ToLower(s[:j])
}

// ClosesFence reports whether line closes a fence opened by a run of n
// bytes ch: blanks around a run of ch only, at least n long.
func ClosesFence(line string, ch byte, n int) bool {
	line = strings.TrimSpace(line)
	return len(line) >= n && n >= 3 && strings.Trim(line, string(ch)) == ""
}

// IsCloseLine reports whether line closes a backtick fence: a run of three
// backticks or more, blanks around it.
func IsCloseLine(line string) bool { return ClosesFence(line, '`', 3) }

// IsFenceAt reports whether text[i:limit] starts with three backticks.
func IsFenceAt(text string, i, limit int) bool {
	return limit-i >= 3 && text[i:i+3] == "```"
}

// FenceAt reads the fence whose opening backticks are at text[i], ending
// before limit. The info word may be followed by the body on the same line
// ("```json {…}```"). The fence closes at the first run of three backticks
// or more that begins or ends a line, so backticks inside a string of its
// body do not close it, and a model's "f()```" does; a fence never closed
// runs to limit. The scan stops at the close, so reading fence after fence
// is linear.
func FenceAt(text string, i, limit int) Fence {
	f := Fence{Start: i}
	j := i
	for j < limit && text[j] == '`' {
		j++
	}
	langStart := j
	for j < limit && j-langStart < maxInfo && isInfoByte(text[j]) {
		j++
	}
	f.Info = strings.ToLower(text[langStart:j])
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

// FenceOpenBefore returns where a fence's opening ("```xml") starts when
// only blanks and line breaks separate its end from at; -1 if there is
// none after floor.
func FenceOpenBefore(text string, floor, at int) int {
	k := at
	for k > floor && IsSpace(text[k-1]) {
		k--
	}
	l := k
	for l > floor && k-l < maxInfo && isInfoByte(text[l-1]) {
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

func isInfoByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '+' || c == '.'
}

// Label is what a fence's info string says of what the fence holds.
type Label uint8

// The labels of a fence. A fence labelled Code holds a program: never a
// tool call, whatever it holds (Code Mode may report it).
const (
	// Unlabelled: no info string.
	Unlabelled Label = iota
	// JSON: json, json5, jsonc, jsonl.
	JSON
	// CallLabel: a label that names a tool call (tool_call, tool_calls,
	// toolcall, tool_code, function_call, function_calls).
	CallLabel
	// Plain: text, txt, plaintext.
	Plain
	// Markup: xml.
	Markup
	// Code: any other info string, a programming language (python, bash,
	// js, …) or anything unknown.
	Code
)

// LabelOf classifies a fence's info word. Only the labels listed for the
// other classes are data; every other info string names a language, and
// the fence is code.
func LabelOf(info string) Label {
	switch strings.ToLower(info) {
	case "":
		return Unlabelled
	case "json", "json5", "jsonc", "jsonl":
		return JSON
	case "tool_call", "tool_calls", "toolcall", "tool_code", "function_call", "function_calls":
		return CallLabel
	case "text", "txt", "plaintext":
		return Plain
	case "xml":
		return Markup
	}
	return Code
}

// String names the label as docs/dialects.md writes it.
func (l Label) String() string {
	switch l {
	case Unlabelled:
		return "no info string"
	case JSON:
		return "json, json5, jsonc, jsonl"
	case CallLabel:
		return "tool_call, tool_calls, toolcall, tool_code, function_call, function_calls"
	case Plain:
		return "text, txt, plaintext"
	case Markup:
		return "xml"
	}
	return "any other (python, bash, js, …)"
}

// OpenRun reports whether a fence's opening run (three backticks or more)
// starts at s[i], and returns the offset after the run and its info word.
func OpenRun(s string, i int) (int, bool) {
	if !IsFenceAt(s, i, len(s)) {
		return i, false
	}
	j := i
	for j < len(s) && s[j] == '`' {
		j++
	}
	k := j
	for k < len(s) && k-j < maxInfo && isInfoByte(s[k]) {
		k++
	}
	return k, true
}

// Around widens s[from:to], a value, to the fence that holds nothing else:
// a fence's opening run and info word (FenceOpenBefore) and blanks right
// before it, blanks and a closing run right after. It looks back no
// further than floor; a value no fence wraps is returned as it is.
func Around(s string, floor, from, to int) (int, int) {
	j := FenceOpenBefore(s, floor, from)
	if j < 0 {
		return from, to
	}
	r := to
	for r < len(s) && IsSpace(s[r]) {
		r++
	}
	if !IsFenceAt(s, r, len(s)) {
		return from, to
	}
	e := r
	for e < len(s) && s[e] == '`' {
		e++
	}
	return j, e
}

// FenceScan finds the end of a fence as its text arrives, for a reader
// that reads an output delta by delta: Next is given the text from the
// fence's opening run on, longer at each call, and reads each byte a
// bounded number of times over all the calls. It closes the fence where
// FenceAt does. The zero value is ready, for one fence.
type FenceScan struct {
	body int // where the body starts, once known (0: not yet)
	from int // where to look for the next closing run
}

// Next returns the fence text holds (FenceAt(text, 0, len(text))) once
// that cannot change: when its closing run is read, or, with final set
// (the output ends with text), always. Otherwise ok is false.
func (s *FenceScan) Next(text string, final bool) (f Fence, ok bool) {
	if s.body == 0 {
		j := 0
		for j < len(text) && text[j] == '`' {
			j++
		}
		k := j
		for k < len(text) && k-j < maxInfo && isInfoByte(text[k]) {
			k++
		}
		for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r') {
			k++
		}
		if k == len(text) && !final {
			return Fence{}, false // the info word or the blanks after it may go on
		}
		s.body = j + len(InfoWord(text[j:]))
		if k < len(text) && text[k] == '\n' {
			s.body = k + 1
		}
		s.from = s.body
	}
	for s.from < len(text) {
		c := strings.Index(text[s.from:], "```")
		if c < 0 {
			s.from = max(s.from, len(text)-2)
			break
		}
		c += s.from
		e := c
		for e < len(text) && text[e] == '`' {
			e++
		}
		if e == len(text) && !final {
			s.from = c // the run may go on
			break
		}
		if beginsLine(text, s.body, c) {
			return FenceAt(text, 0, len(text)), true
		}
		k := e
		for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r') {
			k++
		}
		if k == len(text) && !final {
			s.from = c // the line may yet end after the run
			break
		}
		if k == len(text) || text[k] == '\n' {
			return FenceAt(text, 0, len(text)), true
		}
		s.from = e
	}
	if final {
		return FenceAt(text, 0, len(text)), true
	}
	return Fence{}, false
}
