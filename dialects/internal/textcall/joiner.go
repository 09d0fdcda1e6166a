package textcall

// Joiner accumulates the text left around markup that was taken out (a
// call, a reasoning block). At each cut the whitespace on both sides is
// dropped, as peers trim before a tool tag, so "Let me check.\n<tool_call>…"
// gives "Let me check."; when text remains on both sides it is rejoined with
// one newline if the dropped whitespace held one, else one space. Text with
// no cut is kept byte for byte.
type Joiner struct {
	buf     []byte
	pending bool // a cut was made and no text has followed it yet
	newline bool // the whitespace dropped at the pending cut held a newline
}

// Cut marks that markup was taken out here.
func (j *Joiner) Cut() {
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
		if len(j.buf) > 0 {
			if j.newline {
				j.buf = append(j.buf, '\n')
			} else {
				j.buf = append(j.buf, ' ')
			}
		}
		j.pending, j.newline = false, false
	}
	j.buf = append(j.buf, s...)
}

// String returns the text accumulated so far.
func (j *Joiner) String() string { return string(j.buf) }
