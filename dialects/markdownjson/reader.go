package markdownjson

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// The tags of the reasoning block the dialect reads.
var think = dialects.Think

// modes of a reader: what the bytes at its read offset are.
const (
	// undecided: neither Options.ReasoningOpen nor ReasoningClosed is
	// set and the output has not opened with a call fence, so a closing
	// tag before any opening one would make everything before it
	// reasoning (dialects.ImplicitReasoningIn): the text is held until a
	// tag decides, or the output ends.
	undecided = iota
	// reasoning: inside a reasoning block.
	reasoning
	// content: answer text, where a fence or a reasoning block may open.
	content
	// fence: inside a code fence, held until it closes.
	fence
)

// reader is the dialect's Reader: one pass over the output, a fence read
// as calls once it closes (or the output ends), the text around it
// streamed as soon as no later byte can change it.
type reader struct {
	opts *dialects.Options
	tc   textcall.Reader // reads fence bodies; counts failed repairs
	out  []dialects.Piece
	outs [4]dialects.Piece // out's first array

	// cur is the text being read, consumed up to at: the last delta, or,
	// while bytes are held across deltas, buf's text.
	cur   string
	at    int
	base  int // the offset in the output of cur's first byte
	buf   strings.Builder
	inBuf bool
	mode  int

	from  int // undecided, reasoning: where to look on for a tag, from at
	scan  textlayer.FenceScan
	calls int // calls returned
	mark  bool

	// The answer text, as textcall.Joiner rejoins it around the fences
	// taken out: trailing blanks are held until text follows them.
	skip    bool   // drop blanks: a reasoning block was just taken out
	cut     bool   // a call fence was taken out and no text followed yet
	newline bool   // the blanks dropped at that cut held a line break
	any     bool   // answer text was returned
	blanks  []byte // answer blanks held
	started bool   // reasoning text returned in the current block
	rblanks []byte // reasoning blanks held

	// The prose a fence follows (dialects.PresentedAsExample): the last
	// line with text that opens no fence, and the current line so far.
	prose string
	line  []byte
}

// NewReader returns a Reader of one output.
func (markdownJSON) NewReader(opts *dialects.Options) dialects.Reader {
	if opts == nil {
		opts = &dialects.Options{}
	}
	r := &reader{opts: opts, tc: textcall.MakeReader("", opts), mode: content}
	r.out = r.outs[:0]
	switch {
	case opts.ReasoningOpen:
		r.mode = reasoning
	case !opts.ReasoningClosed:
		r.mode = undecided
	}
	return r
}

func (r *reader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	switch {
	case r.at == len(r.cur):
		// Nothing is held: the delta is read where it is.
		r.base += len(r.cur)
		r.cur, r.at, r.inBuf = delta, 0, false
		r.buf.Reset()
	case !r.inBuf:
		r.base += r.at
		r.buf.WriteString(r.cur[r.at:])
		r.buf.WriteString(delta)
		r.cur, r.at, r.inBuf = r.buf.String(), 0, true
	default:
		r.buf.WriteString(delta)
		r.cur = r.buf.String()
	}
	r.step(false)
	return r.out
}

func (r *reader) Close() []dialects.Piece {
	r.out = r.out[:0]
	r.step(true)
	if !r.cut && len(r.blanks) > 0 {
		r.emit(dialects.PieceContent, string(r.blanks))
	}
	return r.out
}

// step reads what it can of in[at:]; final says the output ended.
func (r *reader) step(final bool) {
	for {
		text := r.cur
		var more bool
		switch r.mode {
		case undecided:
			more = r.undecided(text, final)
		case reasoning:
			more = r.reasoning(text, final)
		case content:
			more = r.content(text, final)
		default:
			more = r.fence(text, final)
		}
		if !more {
			break
		}
	}
	// Drop what was consumed once it is most of what is kept.
	if r.inBuf && r.at > 1<<12 && r.at > len(r.cur)/2 {
		rest := r.cur[r.at:]
		r.buf.Reset()
		r.buf.WriteString(rest)
		r.base += r.at
		r.cur, r.at = r.buf.String(), 0
	}
}

// undecided reads text held while a closing tag may still make it
// reasoning; it reports whether the mode changed.
func (r *reader) undecided(text string, final bool) bool {
	s := text[r.at:]
	t := strings.TrimLeft(s, " \t\r\n")
	for _, f := range callFences {
		n := min(len(t), len(f))
		if n > 0 && strings.EqualFold(t[:n], f[:n]) {
			if n == len(f) {
				r.mode = content // the output opens with a call: no block is open
				return true
			}
			if !final {
				return false
			}
		}
	}
	o, c := strings.Index(s[r.from:], think.Open), strings.Index(s[r.from:], think.Close)
	switch {
	case c >= 0 && (o < 0 || c < o):
		c += r.from
		r.reason(s[:c])
		r.endBlock(c + len(think.Close))
	case o >= 0 || final:
		r.mode, r.from = content, 0 // read as answer text from the start
	default:
		r.from = max(r.from, len(s)-len(think.Close)+1)
		return false
	}
	return true
}

// reasoning reads a reasoning block up to its closing tag.
func (r *reader) reasoning(text string, final bool) bool {
	s := text[r.at:]
	c := strings.Index(s[r.from:], think.Close)
	if c < 0 {
		if final {
			r.reason(s)
			r.at, r.rblanks, r.started = len(text), r.rblanks[:0], false
			return false
		}
		keep := partialAt(s, think.Close)
		r.reason(s[:keep])
		r.at += keep
		r.from = 0
		return false
	}
	c += r.from
	r.reason(s[:c])
	r.endBlock(c + len(think.Close))
	return true
}

// endBlock ends a reasoning block whose closing tag ends at in[at+n].
func (r *reader) endBlock(n int) {
	r.at += n
	r.rblanks, r.started, r.from = r.rblanks[:0], false, 0
	r.mode, r.skip = content, true
}

// content reads answer text up to a fence or a reasoning block.
func (r *reader) content(text string, final bool) bool {
	s := text[r.at:]
	for k := 0; ; k++ {
		i := strings.IndexAny(s[k:], "<`")
		if i < 0 {
			r.text(s)
			r.at = len(text)
			return false
		}
		k += i
		switch {
		case strings.HasPrefix(s[k:], think.Open):
			r.text(s[:k])
			r.at += k + len(think.Open)
			r.mode, r.from = reasoning, 0
			return true
		case strings.HasPrefix(s[k:], "```"):
			r.text(s[:k])
			r.at += k
			r.mode, r.scan = fence, textlayer.FenceScan{}
			return true
		case !final && partialAt(s[k:], think.Open) == 0, !final && strings.Trim(s[k:], "`") == "":
			r.text(s[:k]) // the delta ends inside a tag or a fence's opening run
			r.at += k
			return false
		}
	}
}

// partialAt returns where s ends with a part of tag, or len(s).
func partialAt(s, tag string) int {
	for k := max(0, len(s)-len(tag)+1); k < len(s); k++ {
		if strings.HasPrefix(tag, s[k:]) {
			return k
		}
	}
	return len(s)
}

// fence reads a fence once it closes: calls when it holds nothing but call
// objects under a label that the table reads as a call, text otherwise.
func (r *reader) fence(text string, final bool) bool {
	s := text[r.at:]
	f, ok := r.scan.Next(s, final)
	if !ok {
		return false
	}
	region := s[:f.End]
	at := r.base + r.at
	r.at += f.End
	r.mode = content
	var calls []dialects.RawCall
	if textlayer.Is(textlayer.Fenced, textlayer.LabelOf(f.Info), textlayer.OwnLine, false, textlayer.JSONFamily, true, false) && !r.example() {
		r.tc.Text = region
		var used int
		calls, used, ok = r.tc.Framed(f.BodyStart, f.BodyEnd, true)
		if ok && textcall.SkipSpace(region, used, f.BodyEnd) != f.BodyEnd {
			textcall.NoteStrayClosers(calls)
		}
	}
	r.note(region)
	if !ok || len(calls) == 0 {
		r.answer(region)
		return true
	}
	// A fence holding nothing but call objects is this dialect's own
	// syntax, even when a call then fails its checks: detection keeps the
	// failure, which a retry needs, instead of calling it content.
	if !r.mark {
		r.mark = true
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceMarked})
	}
	r.cutAnswer()
	dialects.KeepText(calls, region)
	for i := range calls {
		c := &calls[i]
		c.Offset = shifted(c.Offset, at)
		if e := coded.As(c.Err); e != nil {
			e.Offset = shifted(e.Offset, at)
		}
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCall, Index: r.calls, Call: c})
		r.calls++
	}
	return true
}

// shifted shifts an offset in a fence to the output; -1 stays unknown.
func shifted(offset, shift int) int {
	if offset < 0 {
		return offset
	}
	return offset + shift
}

// example reports whether the prose right before the fence that opens
// here presents it as an example (dialects.PresentedAsExample).
func (r *reader) example() bool {
	w := r.prose + "\n" + string(r.line)
	return dialects.PresentedAsExample(w, len(w))
}

// maxLine bounds the part of a line kept for example: the end of the
// sentence that introduces a fence.
const maxLine = 1 << 10

// note reads the lines of s, answer text or a fence, for example: only
// the last line with text and the current line are kept.
func (r *reader) note(s string) {
	last := strings.LastIndexByte(s, '\n')
	if last < 0 {
		r.line = append(r.line, s...)
		if len(r.line) > 4*maxLine {
			// The line's start is prose (the mark keeps it so).
			r.line = append(append(r.line[:0], "…"...), r.line[len(r.line)-maxLine:]...)
		}
		return
	}
	first := strings.IndexByte(s, '\n')
	found := false
	for e := last; e > first && !found; {
		b := strings.LastIndexByte(s[:e], '\n')
		found = r.proseLine(s[b+1 : e])
		e = b
	}
	if !found {
		r.line = append(r.line, s[:first]...)
		r.proseLine(string(r.line))
	}
	r.line = append(r.line[:0], s[last+1:]...)
}

// proseLine keeps l as the prose a next fence follows if it is a line
// with text that opens no fence.
func (r *reader) proseLine(l string) bool {
	if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "```") {
		return false
	}
	r.prose = l[max(0, len(l)-maxLine):]
	return true
}

// text returns s, read in the answer, as answer text.
func (r *reader) text(s string) {
	r.note(s)
	r.answer(s)
}

// answer returns s as answer text, rejoined around the fences taken out.
func (r *reader) answer(s string) {
	if s == "" {
		return
	}
	if r.skip || r.cut {
		i := 0
		for i < len(s) && textcall.IsSpace(s[i]) {
			r.newline = r.newline || s[i] == '\n'
			i++
		}
		if s = s[i:]; s == "" {
			return
		}
		if r.cut && r.any {
			sep := " "
			if r.newline {
				sep = "\n"
			}
			r.emit(dialects.PieceContent, sep)
		}
		r.skip, r.cut, r.newline = false, false, false
	}
	e := len(s)
	for e > 0 && textcall.IsSpace(s[e-1]) {
		e--
	}
	if e > 0 {
		if len(r.blanks) > 0 {
			r.emit(dialects.PieceContent, string(r.blanks))
			r.blanks = r.blanks[:0]
		}
		r.emit(dialects.PieceContent, s[:e])
		r.any = true
	}
	r.blanks = append(r.blanks, s[e:]...)
}

// cutAnswer drops the blanks before a call fence taken out.
func (r *reader) cutAnswer() {
	for _, c := range r.blanks {
		r.newline = r.newline || c == '\n'
	}
	r.blanks, r.cut, r.skip = r.blanks[:0], true, false
}

// reason returns s as reasoning text of the current block, trimmed.
func (r *reader) reason(s string) {
	if !r.started {
		s = strings.TrimLeft(s, " \t\r\n")
	}
	e := len(s)
	for e > 0 && textcall.IsSpace(s[e-1]) {
		e--
	}
	if e > 0 {
		if len(r.rblanks) > 0 {
			r.emit(dialects.PieceReasoning, string(r.rblanks))
			r.rblanks = r.rblanks[:0]
		}
		r.emit(dialects.PieceReasoning, s[:e])
		r.started = true
	}
	if r.started {
		r.rblanks = append(r.rblanks, s[e:]...)
	}
}

func (r *reader) emit(k dialects.PieceKind, s string) {
	r.out = append(r.out, dialects.Piece{Kind: k, Text: s})
}
