// Package sofar holds what every family's Reader keeps of its output: the
// text it has been given so far, and whether the output has ended.
package sofar

import "strings"

// Output is the output a Reader has been given so far. The first delta is
// held as it came, not copied, while it is the whole output, so a one-shot
// read (dialects.Read) copies nothing; from the second delta on the text
// is kept in a strings.Builder, read without a copy, whose array grows by
// doubling, so keeping it costs time linear in its length however it is
// cut. The zero value is an output of which nothing has come yet. An
// Output must not be copied once written to.
type Output struct {
	first string
	b     strings.Builder
	ended bool
}

// Write adds delta to the output and returns the output so far. ok is
// false, and nothing is added, when delta is empty or the output has ended
// (Write after Close): the Reader has nothing new to read.
func (o *Output) Write(delta string) (text string, ok bool) {
	if delta == "" || o.ended {
		return "", false
	}
	if o.b.Len() == 0 {
		if o.first == "" {
			o.first = delta
			return delta, true
		}
		o.b.Grow(max(2*(len(o.first)+len(delta)), minCap))
		o.b.WriteString(o.first)
		o.first = ""
	}
	if o.b.Cap()-o.b.Len() < len(delta) {
		// Grow doubles the array; WriteString alone would append, which
		// grows a long array by a quarter at a time (about five times
		// the output allocated, four times copied).
		o.b.Grow(len(delta))
	}
	o.b.WriteString(delta)
	return o.b.String(), true
}

// minCap is the least capacity of the array: a short output grows it
// once or not at all.
const minCap = 512

// Text returns the output so far.
func (o *Output) Text() string {
	if o.b.Len() == 0 {
		return o.first
	}
	return o.b.String()
}

// Close ends the output and returns it whole. ok is false when it had
// ended already: a Reader's second Close has nothing left to decide.
func (o *Output) Close() (text string, ok bool) {
	if o.ended {
		return "", false
	}
	o.ended = true
	return o.Text(), true
}
