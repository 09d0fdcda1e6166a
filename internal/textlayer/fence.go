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

// InfoAt returns the info word (InfoWord) of a fence whose opening run
// ends at text[i], and whether text holds all of it: a byte that is no
// part of it follows, the word is as long as one is read, or final says
// text is whole. A reader that reads an output as it arrives holds the
// fence until it knows.
func InfoAt(text string, i int, final bool) (info string, known bool) {
	info = InfoWord(text[i:])
	return info, final || i+len(info) < len(text) || len(info) == maxInfo
}

// ClosesFence reports whether line closes a fence opened by a run of n
// bytes ch: blanks around a run of ch only, at least n long.
func ClosesFence(line string, ch byte, n int) bool {
	line = strings.TrimSpace(line)
	return len(line) >= n && n >= 3 && strings.Trim(line, string(ch)) == ""
}

// CloseRunAt reports whether a run that closes a fence opened by the byte
// ch (a backtick or a tilde) starts at text[i]: three of ch or more, as
// FenceAt closes. It returns the end of the run.
func CloseRunAt(text string, i int, ch byte) (end int, ok bool) {
	if !IsFenceByte(ch) || !strings.HasPrefix(text[i:], closeRun(ch)) {
		return i, false
	}
	return RunEnd(text, i, len(text)), true
}

// CutInRun reports whether text[i:] is the first one or two bytes of a
// fence's run, with nothing after them: the text may end inside a closing
// run.
func CutInRun(text string, i int) bool {
	rest := text[i:]
	return len(rest) > 0 && len(rest) < 3 && IsFenceByte(rest[0]) && strings.Trim(rest, rest[:1]) == ""
}

// IsFenceByte reports whether c is a byte a fence's runs are made of: a
// backtick or a tilde.
func IsFenceByte(c byte) bool { return c == '`' || c == '~' }

// RunEnd returns the end of the run of text[i]'s byte that starts at
// text[i], before limit.
func RunEnd(text string, i, limit int) int {
	j := i
	for j < limit && text[j] == text[i] {
		j++
	}
	return j
}

// IsFenceAt reports whether a fence's opening run starts at text[i],
// before limit: three backticks or more wherever they stand (a model
// writes "```json {…}```" inside a line), or three tildes or more that
// begin their line in text, after at most MaxFenceIndent spaces (as
// CommonMark: a run of tildes inside a line is prose). The start of text
// counts as the start of a line; a reader that does not hold the line's
// start asks OpensFence.
func IsFenceAt(text string, i, limit int) bool {
	k := i
	for k > 0 && i-k < MaxFenceIndent && text[k-1] == ' ' {
		k--
	}
	return OpensFence(text, i, limit, k == 0 || text[k-1] == '\n')
}

// OpensFence is IsFenceAt for a reader that knows whether only up to
// MaxFenceIndent spaces stand between text[i] and the start of its line
// (lineStart).
func OpensFence(text string, i, limit int, lineStart bool) bool {
	if limit-i < 3 || !IsFenceByte(text[i]) || text[i+1] != text[i] || text[i+2] != text[i] {
		return false
	}
	return text[i] == '`' || lineStart
}

// IndexFence returns the offset of the first fence opening run
// (IsFenceAt) in text[from:to], or -1.
func IndexFence(text string, from, to int) int {
	for i := from; i < to; {
		k := strings.IndexAny(text[i:to], "`~")
		if k < 0 {
			return -1
		}
		i += k
		if IsFenceAt(text, i, to) {
			return i
		}
		i = RunEnd(text, i, to)
	}
	return -1
}

// FenceLine reports whether line, blanks aside, begins with a fence's
// run: three backticks or more, or three tildes or more.
func FenceLine[T string | []byte](line T) bool {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return len(line)-i >= 3 && IsFenceByte(line[i]) && line[i+1] == line[i] && line[i+2] == line[i]
}

// FenceAt reads the fence whose opening run (IsFenceAt) is at text[i],
// ending before limit. The info word may be followed by the body on the
// same line ("```json {…}```"). The fence closes at the first run of three
// or more of its opening byte (backticks, or tildes) that begins or ends a
// line, so backticks inside a string of its body do not close it, and a
// model's "f()```" does; a fence never closed runs to limit. The scan
// stops at the close, so reading fence after fence is linear.
func FenceAt(text string, i, limit int) Fence {
	f := Fence{Start: i}
	j := RunEnd(text, i, limit)
	run := closeRun(text[i])
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
		c := strings.Index(text[from:limit], run)
		if c < 0 {
			break
		}
		c += from
		e := RunEnd(text, c, limit)
		if beginsLine(text, j, c) || endsLine(text, e, limit) {
			f.BodyEnd, f.End, f.Closed = c, e, true
			break
		}
		from = e
	}
	if !f.Closed {
		// A fence never closed whose last line is one or two bytes of
		// its run: the text ends inside the closing run, which is not
		// body.
		k := limit
		for k > j && limit-k < 2 && text[k-1] == run[0] {
			k--
		}
		if k < limit && beginsLine(text, j, k) {
			f.BodyEnd = k
		}
	}
	return f
}

// FenceOpenBefore returns where a fence's opening ("```xml", IsFenceAt)
// starts when only blanks and line breaks separate its end from at; -1 if
// there is none after floor.
func FenceOpenBefore(text string, floor, at int) int {
	k := at
	for k > floor && IsSpace(text[k-1]) {
		k--
	}
	l := k
	for l > floor && k-l < maxInfo && isInfoByte(text[l-1]) {
		l--
	}
	if l-floor < 3 || !IsFenceByte(text[l-1]) || text[l-3:l] != closeRun(text[l-1]) {
		return -1
	}
	ch := text[l-1]
	l -= 3
	for l > floor && text[l-1] == ch {
		l--
	}
	if !OpensFence(text, l, k, beginsLine(text, floor, l)) {
		return -1
	}
	return l
}

// closeRun returns the shortest run that closes a fence opened by a run of
// c: three of it.
func closeRun(c byte) string {
	if c == '~' {
		return "~~~"
	}
	return "```"
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

// OpenRun reports whether a fence's opening run (IsFenceAt) starts at
// s[i], and returns the offset after the run and its info word.
func OpenRun(s string, i int) (int, bool) {
	if !IsFenceAt(s, i, len(s)) {
		return i, false
	}
	j := RunEnd(s, i, len(s))
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
	if r+3 > len(s) || s[r:r+3] != closeRun(s[j]) {
		return from, to
	}
	return j, RunEnd(s, r, len(s))
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
		j := RunEnd(text, 0, len(text))
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
	run := closeRun(text[0])
	for s.from < len(text) {
		c := strings.Index(text[s.from:], run)
		if c < 0 {
			// A run may yet start only at the last bytes, if they are
			// the fence's own.
			k := len(text)
			for k > s.from && len(text)-k < 2 && text[k-1] == run[0] {
				k--
			}
			s.from = max(s.from, k)
			break
		}
		c += s.from
		e := RunEnd(text, c, len(text))
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

// Body returns, after a Next that did not close the fence, where its body
// starts and how far the text given is known to be body: no closing run
// starts before known, so a reader may read the body up to it while the
// fence is still open. ok is false while the opening line is not read
// whole (its info word or the blanks after it may go on).
func (s *FenceScan) Body() (start, known int, ok bool) {
	return s.body, s.from, s.body > 0
}
