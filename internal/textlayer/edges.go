package textlayer

import "strings"

// Edges is the rule of the content's edges, one for every family, named
// or detected, one-shot or streamed: the spaces (IsSpace) that begin the
// content and those that end it are not content; the spaces between its
// text are, as written, and so is every other character (U+00A0, '\f',
// '\v' are text). dialects.Read applies it to the content pieces of a
// Reader and a stream to its content events, as they come: the spaces
// that begin the content are dropped, and the spaces that end what came so
// far are held until text follows them (they go out before that text) or
// the output ends (they are dropped). The zero Edges is at the start of an
// output.
type Edges struct {
	begun bool
	held  Joined
}

// Next takes s, the content's next piece, and returns what goes out now:
// held, the spaces held from before that text now follows, then text, s
// without the spaces that begin the content or end s. Both are "" when
// nothing goes out.
func (e *Edges) Next(s string) (held, text string) {
	if !e.begun {
		if s = TrimLeft(s); s == "" {
			return "", ""
		}
		e.begun = true
	}
	t := TrimRight(s)
	if t == "" {
		e.held.Add(s)
		return "", ""
	}
	held = e.held.String()
	e.held = Joined{}
	e.held.Add(s[len(t):])
	return held, t
}

// Fork returns an Edges that goes on from where e is, by itself: what
// either is given after leaves the other as it was (a reading peeked
// from the content so far).
func (e *Edges) Fork() Edges {
	f := Edges{begun: e.begun}
	f.held.Add(e.held.String())
	return f
}

// Joined concatenates pieces of text, copying nothing while there is one.
// The zero Joined is empty.
type Joined struct {
	one  string
	more strings.Builder
	n    int
}

// Add appends s.
func (j *Joined) Add(s string) {
	if s == "" {
		return
	}
	switch j.n++; j.n {
	case 1:
		j.one = s
	case 2:
		j.more.WriteString(j.one)
		fallthrough
	default:
		j.more.WriteString(s)
	}
}

// String returns the pieces joined.
func (j *Joined) String() string {
	if j.n <= 1 {
		return j.one
	}
	return j.more.String()
}
