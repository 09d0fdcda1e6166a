package textcall

// Joiner accumulates the text left around markup that was taken out (a
// call, a reasoning block). At each cut the whitespace on both sides is
// dropped, as peers trim before a tool tag, so "Let me check.\n<tool_call>…"
// gives "Let me check."; when text remains on both sides it is rejoined with
// one newline if the dropped whitespace held one, else one space. Text with
// no cut is kept byte for byte.
type Joiner struct {
	buf []byte
	// one is the text so far while it is a single piece written as is
	// (buf is then empty): an output without markup is its own content,
	// not a copy of it.
	one     string
	pending bool // a cut was made and no text has followed it yet
	newline bool // the whitespace dropped at the pending cut held a newline
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
		end := len(j.one)
		for end > 0 && IsSpace(j.one[end-1]) {
			if j.one[end-1] == '\n' {
				j.newline = true
			}
			end--
		}
		j.one = j.one[:end]
		j.pending = true
		return
	}
	end := len(j.buf)
	for end > 0 && IsSpace(j.buf[end-1]) {
		if j.buf[end-1] == '\n' {
			j.newline = true
		}
		end--
	}
	j.buf = j.buf[:end]
	j.pending = true
}

// Empty reports whether nothing has been written but blanks.
func (j *Joiner) Empty() bool { return len(j.buf) == 0 && j.one == "" }

// Write appends text.
func (j *Joiner) Write(s string) {
	if s == "" {
		return
	}
	if j.pending {
		i := 0
		for i < len(s) && IsSpace(s[i]) {
			if s[i] == '\n' {
				j.newline = true
			}
			i++
		}
		if i == len(s) {
			return
		}
		s = s[i:]
		if len(j.buf) > 0 || j.one != "" {
			j.spill()
			if j.newline {
				j.buf = append(j.buf, '\n')
			} else {
				j.buf = append(j.buf, ' ')
			}
		}
		j.pending, j.newline = false, false
	}
	if len(j.buf) == 0 && j.one == "" {
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
