package textcall

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/textlayer"
)

// Rejoin is the rule of a cut in text, the text left around markup that
// was taken out (a call, a reasoning block): at each cut the whitespace on
// both sides is dropped, as peers trim before a tool tag, so "Let me
// check.\n<tool_call>…" gives "Let me check."; when text remains on both
// sides it is rejoined with one newline if the dropped whitespace held
// one, else one space. Text with no cut is kept byte for byte. Joiner
// applies it to text it accumulates; a Reader that returns text as it
// arrives applies it to the pieces it returns.
type Rejoin struct {
	pending bool // a cut was made and no text has followed it yet
	newline bool // the whitespace dropped at the pending cut held a newline
}

// Cut records a cut made after text whose trailing whitespace, dropped,
// held a newline or not.
func (c *Rejoin) Cut(newline bool) {
	c.pending, c.newline = true, c.newline || newline
}

// Pending reports whether a cut was made and no text has followed it.
func (c *Rejoin) Pending() bool { return c.pending }

// Front reads s, text written after what came before (before says some
// text did): with a cut pending, s's leading whitespace is dropped, and
// sep is what rejoins the rest with the text before ("" when there is
// none). ok is false when s is all whitespace dropped: the cut stays
// pending.
func (c *Rejoin) Front(s string, before bool) (sep, rest string, ok bool) {
	if !c.pending {
		return "", s, true
	}
	i := 0
	for i < len(s) && textlayer.IsSpace(s[i]) {
		if s[i] == '\n' {
			c.newline = true
		}
		i++
	}
	if i == len(s) {
		return "", "", false
	}
	switch {
	case !before:
	case c.newline:
		sep = "\n"
	default:
		sep = " "
	}
	c.pending, c.newline = false, false
	return sep, s[i:], true
}

// TrimTrailing returns the length of s without its trailing whitespace,
// and whether that whitespace holds a newline.
func TrimTrailing(s string) (n int, newline bool) {
	n = len(s)
	for n > 0 && textlayer.IsSpace(s[n-1]) {
		n--
	}
	return n, strings.IndexByte(s[n:], '\n') >= 0
}

// Joiner accumulates the text left around markup that was taken out, cut
// and rejoined by the rule of Rejoin.
type Joiner struct {
	buf []byte
	// one is the text so far while it is a single piece written as is
	// (buf is then empty): an output without markup is its own content,
	// not a copy of it.
	one string
	cut Rejoin
}

// spill moves the single piece into the buffer.
func (j *Joiner) spill() {
	if j.one != "" {
		j.buf = append(j.buf, j.one...)
		j.one = ""
	}
}

// Cut marks that markup was taken out here.
func (j *Joiner) Cut() {
	if j.one != "" {
		n, nl := TrimTrailing(j.one)
		j.one = j.one[:n]
		j.cut.Cut(nl)
		return
	}
	end, nl := len(j.buf), false
	for end > 0 && textlayer.IsSpace(j.buf[end-1]) {
		nl = nl || j.buf[end-1] == '\n'
		end--
	}
	j.buf = j.buf[:end]
	j.cut.Cut(nl)
}

// Empty reports whether nothing has been written but blanks.
func (j *Joiner) Empty() bool { return len(j.buf) == 0 && j.one == "" }

// Write appends text.
func (j *Joiner) Write(s string) {
	if s == "" {
		return
	}
	sep, s, ok := j.cut.Front(s, !j.Empty())
	if !ok {
		return
	}
	if sep != "" {
		j.spill()
		j.buf = append(j.buf, sep...)
	}
	if j.Empty() {
		j.one = s
		return
	}
	j.spill()
	j.buf = append(j.buf, s...)
}

// String returns the text accumulated so far.
func (j *Joiner) String() string {
	if j.one != "" {
		return j.one
	}
	return string(j.buf)
}
