package shown

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// ShownScan answers ShownAt for a text that only grows (a stream's
// buffer, or an output read from its start), reading each complete line
// once. The zero value is ready.
//
// It pairs the backtick runs of a paragraph into inline code (inlineScan),
// so that a marker after a run that opened code and has not closed is
// shown, and one after code already closed is not. A fence line ends the
// paragraph, unless code is open: the code may then hold the fence (a
// call whose own syntax has one, written in backticks), and the paragraph
// is read on through it up to the next blank line.
type ShownScan struct {
	pos     int  // the start of the first line not read whole
	at      int  // the last position asked about
	inFence bool // a fence opened on a line read whole is not closed
	fenceAt int  // and where its opening run starts
	fenceCh byte // and the byte of its opening run
	fenceN  int  // and the run's length, which a closing run matches
	across  bool // the paragraph is read on through the fence: code may hold it
	shown   bool // the open fence is presented as an example
	in      inlineScan
	// paraFloor is in.floor where the paragraph starts; stale says that
	// a call told since (Call) starts in text in has read: the paragraph
	// is read again from its start, the call's backticks left out.
	paraFloor int
	stale     bool
	// The quotations of the text, read up to qPos.
	qPos int
	q    quoteState
	// calls are the call regions of the text not yet read past (Call),
	// in order: the backticks in them open no inline code.
	calls []textlayer.Span
	// examples answers PresentedAsExample for the fences asked about.
	examples ExampleScan
}

// Call tells s that text[start:end] is a call, from its opening marker to
// its end, as the dialect reads it: a backtick run that opens inside it
// counts for no inline code, and a line that starts inside it opens no
// fence. Calls come in order, each before the next marker s is asked
// about.
func (s *ShownScan) Call(start, end int) {
	if end > start+1 {
		s.calls = append(s.calls, textlayer.Span{Start: start, End: end})
		s.stale = s.stale || start < s.in.i
	}
}

// Reserve makes room for n more calls told (Call), so that a reader that
// knows how many calls may come does not grow the array call by call.
func (s *ShownScan) Reserve(n int) { s.calls = slices.Grow(s.calls, n) }

// para starts a new paragraph at start.
func (s *ShownScan) para(start int) {
	s.in = inlineScan{start: start, i: start, floor: s.in.floor}
	s.across, s.paraFloor, s.stale = false, s.in.floor, false
}

// Reset readies s for another text, keeping the array of its calls.
func (s *ShownScan) Reset() {
	clear(s.calls)
	*s = ShownScan{calls: s.calls[:0]}
}

// ForkTo makes f a scan that goes on from where s is, by itself: what
// either is told or asked after leaves the other as it was. f keeps its
// own array of calls, reused: the calls s holds are copied into it, so a
// reader that asks ahead from a state it keeps (a unit read again as more
// text arrives) allocates nothing once the array has grown, however many
// calls each reading tells it (a fork sharing the array read only copied
// it whole at its first call).
func (s *ShownScan) ForkTo(f *ShownScan) {
	calls := append(f.calls[:0], s.calls...)
	*f = *s
	f.calls = calls
}

// ShownAt reports whether a marker at text[at] lies in a part that the
// text before it shows rather than makes a call in: inline code of its
// paragraph opened and not closed before it (or closed after it), a
// quotation opened before it, or a fence opened before it that is
// labelled with a programming language or that the prose before it
// presents as an example. It looks no further than the marker: a fence
// with no such prose before it is not shown, whatever prose follows it
// (a family engine decides a call by what precedes it), and the answer
// is the same for every part of the text after the marker. Text must
// extend the text of the previous call, and at should not fall below the
// last at asked (the scan then reads again from the start).
func (s *ShownScan) ShownAt(text string, at int) bool {
	if at < s.at {
		*s = ShownScan{calls: s.calls}
	}
	// No line break lies between pos and the last position asked about.
	from := max(s.pos, s.at)
	s.at = at
	if s.stale && (!s.inFence || s.across) {
		s.in = inlineScan{start: s.in.start, i: s.in.start, floor: s.paraFloor}
		s.in.read(text, s.calls, s.pos, len(text))
	}
	s.stale = false
	lineStart := s.pos
	if nl := strings.LastIndexByte(text[from:at], '\n'); nl >= 0 {
		lineStart = from + nl + 1
		if !s.inFence {
			s.plainLines(text, lineStart)
		}
		for s.pos < lineStart {
			le := s.pos + strings.IndexByte(text[s.pos:lineStart], '\n')
			f, ch, n, info, open := textlayer.OpenLine(text, s.pos, le, textlayer.MaxFenceIndent)
			// A line that starts inside a call region is the call's own
			// text (a DeepSeek call's argument fence): it opens no fence.
			open = open && !lineInCall(s.calls, s.pos)
			switch {
			case open && !s.inFence || s.inFence && textlayer.ClosesFence(text[s.pos:le], s.fenceCh, s.fenceN):
				if s.inFence && !s.across {
					// The fence closes: a new paragraph starts after it.
					if s.shown {
						s.in.floor = le
					}
					s.inFence = false
					s.para(le + 1)
					break
				}
				if !s.inFence {
					s.inFence, s.shown = true, textlayer.LabelOf(info) == textlayer.Code || s.examples.PresentedAsExample(text, f)
					s.fenceAt = f
					s.fenceCh, s.fenceN = ch, n
					if s.in.n == 0 {
						// No code is open to hold the fence: it ends the
						// paragraph; the next starts after it.
						break
					}
					s.across = true
				} else if s.in.n == 0 {
					s.inFence = false // the code that held the fence closed in it
				}
				s.readLine(text, le)
			case strings.TrimSpace(text[s.pos:le]) == "":
				if s.inFence {
					s.across = false // the paragraph read on ends: the fence is a fence
				} else {
					s.para(le)
				}
			case !s.inFence || s.across:
				s.readLine(text, le)
			}
			s.pos = le + 1
		}
		k := 0
		for k < len(s.calls) && s.calls[k].End <= s.in.start {
			k++ // a call before the paragraph: never read again
		}
		if k == len(s.calls) {
			s.calls = s.calls[:0] // its array kept for the calls to come
		} else {
			s.calls = s.calls[k:]
		}
	}
	if !s.inFence || s.across {
		s.in.read(text, s.calls, at, len(text))
	}
	if s.inFence {
		if s.shown {
			return true
		}
		if !s.across {
			// A fence nothing before it presents: its text is read,
			// unless a quotation opened before the fence holds it (the
			// syntax the quotation holds carried it over).
			return s.quoteOpen(text, at, s.fenceAt)
		}
	}
	// A fence that opens on the marker's own line is read no further than
	// the marker (its label is the word right after the fence's run; a
	// backtick after the marker does not make the line inline code), so
	// that the answer does not hang on text yet to come.
	if f, _, _, info, ok := textlayer.OpenLine(text, lineStart, at, textlayer.MaxFenceIndent); ok && f <= at && (textlayer.LabelOf(info) == textlayer.Code || s.examples.PresentedAsExample(text, f)) {
		return true
	}
	return s.in.n > 0 || s.in.i < at || s.in.floor > at || s.quoteOpen(text, at, at)
}

// plainLines reads the whole lines from s.pos to lineStart at once when
// they hold no backtick and no tilde, outside a fence: no fence opens or
// closes in them and no backtick run, so what the line by line reading
// does comes down to starting a paragraph after the last blank line and
// reading the inline code on to lineStart (no run closes in them either).
// The lines are found with a search for each line break, and a line is
// looked at only for its first bytes, to tell a blank one.
func (s *ShownScan) plainLines(text string, lineStart int) {
	region := text[s.pos:lineStart]
	if strings.IndexByte(region, '`') >= 0 || strings.IndexByte(region, '~') >= 0 {
		return
	}
	blank := -1 // the end of the last blank line, at its line break
	for ls := s.pos; ls < lineStart; {
		le := ls + strings.IndexByte(text[ls:lineStart], '\n')
		k := ls
		for k < le && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r') {
			k++
		}
		if k == le || (text[k] <= ' ' || text[k] >= utf8.RuneSelf) && strings.TrimSpace(text[k:le]) == "" {
			blank = le
		}
		ls = le + 1
	}
	if blank >= 0 {
		s.para(blank)
	}
	if blank+1 < lineStart {
		s.in.read(text, s.calls, lineStart, len(text))
	}
	s.pos = lineStart
}

// readLine reads the line from s.pos to le, whole, into the paragraph.
func (s *ShownScan) readLine(text string, le int) {
	s.in.read(text, s.calls, le+1, len(text))
}

// quoteOpen reports whether a quotation (quoteState) opened before the
// offset before (at, or the start of a fence at holds) is not closed
// before at. It reads the text once across calls.
func (s *ShownScan) quoteOpen(text string, at, before int) bool {
	if s.qPos > at {
		s.qPos, s.q = 0, quoteState{}
	}
	s.qPos = s.q.advance(text, s.qPos, at, false)
	q := s.q
	if s.qPos < at {
		// A quote right before the marker, which decides it: read for
		// this answer only, as what stands at at is a marker only here.
		q.advance(text, s.qPos, at, true)
	}
	return q.close != "" && q.shown && q.open < before
}

// quoteState reads the quoted texts of a text, byte by byte, for
// ShownScan, which asks whether a quotation is open at a marker. A quote
// mark begins a quoted text where textlayer.QuoteBegins says, and whether
// that text is a quotation in a sentence (shown) or a string that shows
// nothing (after a colon, or opening its line) is textlayer.QuoteShows's;
// a quote escaped by a backslash neither opens nor closes one. The marker
// asked about stands right after the text read: a quote right before it
// is glued to it.
//
// A quoted text that holds a call holds the call's own syntax, so its
// brackets and strings are the syntax's: inside a bracket, a fence or a tag opened
// since the quotation opened (textlayer.SyntaxOpens), until its partner
// (a tag's is its '>'), an ASCII quote that may begin a quoted text opens
// a string of the syntax, which ends where a JSON or Python string in one
// quote ends: at the next such quote not escaped by a backslash
// (jsonscan.Escaped), or at a line break. The quotation's own closing
// quote is its partner outside them that may end a quoted text
// (textlayer.QuoteEnds), whatever follows it.
//
// A quotation ends with its line unless the syntax it holds is open at
// the line break, as a call written over several lines is: a bracket, a
// fence (a run of three backticks or more, to the next such run) or a
// tag not closed, or an element that a tag opened ("<tool_call>", "<｜…｜>")
// and no closing tag ("</tool_call>") or "/>" closed. Whatever is open, a
// blank line ends it.
type quoteState struct {
	close string // the closing quote awaited; "" when none is open
	open  int    // the offset of the opening quote, while close != ""
	shown bool   // a quotation in a sentence, not a string (textlayer.QuoteShows)
	fence bool   // a fence's run opened since the quotation opened, not closed
	depth int    // brackets opened since the quotation opened and not closed
	elems int    // elements opened by tags since the quotation opened and not closed
	tag   bool   // inside a tag, before its '>'
	str   byte   // the quote of the string of the syntax read, 0 outside one
	line  int    // the start of the line being read
	word  int    // the start of the run of bytes that are not blanks being read
	text  bool   // the line being read holds more than blanks, in a quotation
}

// advance reads text[from:to] and returns where it stopped: to, or the
// offset of a quote mark or a '<' that the bytes after it decide and that
// text does not hold yet, read again from there once it does. A quote
// mark that ends at to is read only when marker says that a marker stands
// at to (q.sides); otherwise advance stops at it.
func (q *quoteState) advance(text string, from, to int, marker bool) int {
	next := [3]int{-1, -1, -1} // where each opening quote byte occurs next, from i
	for i := from; i < to; i++ {
		if q.close == "" {
			// Outside a quotation only a quote is looked for, and the
			// starts of its line and of its run of bytes that are not
			// blanks.
			k := to
			for n, b := range [3]byte{'"', '\'', 0xE2} {
				if next[n] < i {
					if next[n] = strings.IndexByte(text[i:to], b); next[n] < 0 {
						next[n] = to
					} else {
						next[n] += i
					}
				}
				k = min(k, next[n])
			}
			if nl := strings.LastIndexByte(text[i:k], '\n'); nl >= 0 {
				q.line, q.word = i+nl+1, i+nl+1
			}
			// The run before the quote, read back to a blank at most
			// as far as i: each byte is read once.
			w := k
			for w > i && !textlayer.IsSpace(text[w-1]) {
				w--
			}
			if w > i {
				q.word = w
			}
			if i = k; i == to {
				return to
			}
			if text[i] == 0xE2 && i+3 > len(text) {
				return i // a character cut short
			}
			cq, n := openQuote(text, i)
			if n == 0 {
				i += 2 // another character
				continue
			}
			prev, next, syntax, known := q.sides(text, i, n, to, marker)
			if !known {
				return i // what follows the quote decides
			}
			if !jsonscan.Escaped(text, i) && textlayer.QuoteBegins(prev, next, syntax) {
				shown := textlayer.QuoteShows(text, q.line, q.word, i)
				*q = quoteState{close: cq, open: i, shown: shown, line: q.line, word: q.word, text: true}
			}
			i += n - 1
			continue
		}
		c := text[i]
		if quoteClass[c] == quoteWord {
			// A run of bytes that only say the line holds text, read at
			// once.
			for i+1 < to && quoteClass[text[i+1]] == quoteWord {
				i++
			}
			q.text = true
			continue
		}
		switch c {
		case '\n':
			q.str = 0 // a string of the syntax ends at a line break
			if !q.text || q.depth == 0 && q.elems == 0 && !q.tag && !q.fence {
				q.close = "" // nothing of the syntax carries it over, or a blank line
			}
			q.line, q.word, q.text = i+1, i+1, false
			continue
		case ' ', '\t', '\r':
			q.word = i + 1
		default:
			q.text = true
		}
		if q.str != 0 {
			if c == q.str && !jsonscan.Escaped(text, i) {
				q.str = 0
			}
			continue
		}
		switch c {
		case ')', ']', '}':
			q.depth = max(q.depth-1, 0)
		case '>':
			if q.tag {
				q.tag = false
				if text[i-1] == '/' {
					q.elems = max(q.elems-1, 0) // an element closed by its own tag
				}
			}
		case '`':
			e := textlayer.RunEnd(text, i, len(text))
			if e == len(text) || e > to {
				return i // the run may go on, or the marker stands in it
			}
			if !textlayer.CodeSpanRun(e - i) {
				q.fence = !q.fence // a fence's run, wherever it stands
			}
			i = e - 1
		case '(', '[', '{', '<':
			if q.tag {
				break
			}
			opens, closing, known := textlayer.SyntaxOpens(text, i)
			switch {
			case !known:
				return i // the bytes after it decide
			case c != '<':
				q.depth += btoi(opens)
			case closing:
				q.tag, q.elems = true, max(q.elems-1, 0)
			case opens:
				q.tag = true
				q.elems++
			}
		case '"', '\'', 0xE2:
			if c == 0xE2 {
				if i+3 > len(text) {
					return i // a character cut short
				}
				if !strings.HasPrefix(text[i:], q.close) {
					i += 2 // another character: no quote of the syntax
					continue
				}
			}
			n := max(len(q.close), 1)
			if c != 0xE2 {
				n = 1
			}
			prev, next, syntax, known := q.sides(text, i, n, to, marker)
			switch {
			case !known:
				return i // what follows the quote decides
			case jsonscan.Escaped(text, i):
			case q.depth > 0 || q.tag || q.fence:
				if c != 0xE2 && textlayer.QuoteBegins(prev, next, syntax) {
					q.str = c // a string of the syntax
				}
			case text[i:i+n] == q.close && textlayer.QuoteEnds(prev, next):
				q.close = ""
			}
			i += n - 1
		}
	}
	return to
}

// The classes of the bytes a quotation's reading tells apart: blanks and
// line breaks, the bytes its switch reads one at a time, and the rest,
// which only say that the line holds text.
const (
	quoteWord uint8 = iota
	quoteBlank
	quoteSpecial
)

// quoteClass is the class of each byte (quoteWord, quoteBlank,
// quoteSpecial).
var quoteClass = func() (t [256]uint8) {
	for _, c := range []byte(" \t\r\n") {
		t[c] = quoteBlank
	}
	for _, c := range []byte("\"'()[]{}<>`") {
		t[c] = quoteSpecial
	}
	t[0xE2] = quoteSpecial
	return t
}()

// sides returns the bytes right before and right after the quote mark
// text[i:i+n] for textlayer.QuoteBegins and QuoteEnds (0 for a blank, a
// line break, or the start of the line), and whether what follows it
// opens the syntax a call is written in (textlayer.SyntaxOpens). A quote
// right before the marker at to is glued to it, and a marker begins the
// syntax a call is written in, whatever of it the text holds yet. known
// is false when the text ends before what decides.
func (q *quoteState) sides(text string, i, n, to int, marker bool) (prev, next byte, syntax, known bool) {
	if i > q.line && !textlayer.IsSpace(text[i-1]) {
		prev = text[i-1]
	}
	switch j := i + n; {
	case j > to:
		return prev, 0, false, false // the quote mark is not whole before the marker
	case j == to:
		return prev, 'x', true, marker // the marker, whatever of it has arrived
	case j < len(text):
		if !textlayer.IsSpace(text[j]) {
			next = text[j]
		}
		syntax, _, known = textlayer.SyntaxOpens(text, j)
		return prev, next, syntax, known
	}
	return prev, 0, false, false
}

// btoi is 1 for true and 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// openQuote returns the closing quote for an opening quote at text[i] and
// the opening quote's length, or "", 0.
func openQuote(text string, i int) (string, int) {
	switch {
	case text[i] == '"':
		return `"`, 1
	case text[i] == '\'':
		return "'", 1
	case strings.HasPrefix(text[i:], "\u201C"):
		return "\u201D", 3
	case strings.HasPrefix(text[i:], "\u2018"):
		return "\u2019", 3
	}
	return "", 0
}

// inlineScan pairs the backtick runs of a paragraph into inline code for
// ShownScan, as CommonMark pairs code spans: a run of n backticks opens
// code (textlayer.CodeSpanRun: a run of one or two, and none inside a
// call, inCall), and the next run of exactly n backticks, not part of a
// longer run, closes it, whatever stands around either; the next run is
// looked for after it. Code never runs past its paragraph (ShownScan
// starts a new scan after a blank line or a fence). A run with no closer
// so far leaves the code open: a marker after it is shown, as it may be.
//
// A scan reads as far as it is told and stops where what it has read does
// not decide yet (a run that reaches the end of the text read, a run with
// no closer so far), to go on from there as the text grows: its state is
// the same whatever steps it took.
type inlineScan struct {
	start int // where the paragraph starts
	i     int // where the next opening run is looked for
	open  int // where the open run starts, when n > 0
	n     int // the length of the open run; 0 when none is open
	k     int // where the open run's closer is looked for next
	floor int // the end of the last code closed (inCall)
}

// read pairs the runs that open before to with closers that start before
// to; end is the end of the text so far, and the paragraph goes on past
// to.
func (s *inlineScan) read(text string, calls []textlayer.Span, to, end int) {
	for {
		if s.n > 0 {
			if !s.closer(text, to, end) {
				return // the open run may close later
			}
			s.i, s.floor, s.n = s.k, s.k, 0
		}
		if s.i >= to {
			return
		}
		j := strings.IndexByte(text[s.i:to], '`')
		if j < 0 {
			s.i = to
			return
		}
		open := s.i + j
		n := 1
		for open+n < end && text[open+n] == '`' {
			n++
		}
		if open+n == end {
			s.i = open // the run may go on
			return
		}
		s.i = open + n
		if !textlayer.CodeSpanRun(n) || inCall(calls, open, s.floor) {
			continue
		}
		s.open, s.n, s.k = open, n, open+n
	}
}

// closer looks for the closer of the open run among the runs that start
// before to, and reports whether it found it; s.k is then the closer's
// end. When it does not, s.k is where to look on from.
func (s *inlineScan) closer(text string, to, end int) bool {
	run := text[s.open : s.open+s.n]
	for s.k < to {
		// A closer that starts before to ends by to+2; the window keeps
		// a stream's reading of text past to for later.
		lim := min(to+2, end)
		c := strings.Index(text[s.k:lim], run)
		if c < 0 || s.k+c >= to {
			// Go on from to, or from a run that reaches the end of the
			// text so far.
			k := to
			for k > s.k && text[k-1] == '`' {
				k--
			}
			s.k = k
			return false
		}
		c += s.k
		after := c + s.n
		if after < end && text[after] == '`' { // a longer run
			for after < end && text[after] == '`' {
				after++
			}
			if after == end {
				s.k = c
				return false
			}
			s.k = after
			continue
		}
		if after == end {
			s.k = c // a longer run may follow
			return false
		}
		s.k = after
		return true
	}
	return false
}

// inCall reports whether text[at] lies inside one of calls (sorted and
// apart) that starts at floor or after: between a call's opening marker
// and its end, as the dialect reads the text, where a backtick is the
// call's (a value's "use `ls"), not prose's inline code. A call that
// starts before floor starts inside code closed already: it is shown, not
// made, and the backticks in it are the code's.
func inCall(calls []textlayer.Span, at, floor int) bool {
	k := sort.Search(len(calls), func(i int) bool { return calls[i].Start >= at })
	return k > 0 && calls[k-1].Start >= floor && at < calls[k-1].End
}

// lineInCall reports whether the line that starts at text[at] starts inside
// one of calls (sorted and apart): between a call's first byte and its
// end, so that the line is the call's text, not prose's.
func lineInCall(calls []textlayer.Span, at int) bool {
	k := sort.Search(len(calls), func(i int) bool { return calls[i].Start > at })
	return k > 0 && at < calls[k-1].End
}

// exampleWords are what prose says when it shows a call rather than makes
// one. They are read only by PresentedAsExample, which can turn a call
// into content and never makes one.
var exampleWords = []string{"example", "e.g.", "for instance", "such as", "format", "syntax", "like this", "looks like", "would look", "template", "schema"}

// PresentedAsExample reports whether the prose right before text[at] (the
// last line with text before the value's line, or the value's own line up
// to it) presents what follows as an example ("Here is an example of the
// format:"). A call shown as an example is not a call.
func PresentedAsExample(text string, at int) bool {
	var s ExampleScan
	return s.PresentedAsExample(text, at)
}

// ExampleScan answers PresentedAsExample for one text, asked at offsets
// that mostly grow, walking each run of blank lines and fence lines once:
// the walk up from a fence to the prose above it passes the lines of the
// fences before it, and every line it passes leads to the same prose, so
// it is remembered. Without it a text of n fence lines costs n²/2 lines
// read. The zero value is
// ready; a scan is for one text at a time (asked of another, it starts
// over).
type ExampleScan struct {
	text string
	// [lo, hi] hold the starts of the lines the last walks went up from
	// (each blank, a fence line, or the line at the asked offset up to
	// it): all lead to the same prose, and shown is its verdict. The
	// prose line's own start is not among them. hi < 0: none yet.
	lo, hi int
	shown  bool
}

// PresentedAsExample is PresentedAsExample(text, at).
func (s *ExampleScan) PresentedAsExample(text string, at int) bool {
	if len(s.text) != len(text) || unsafe.StringData(s.text) != unsafe.StringData(text) {
		*s = ExampleScan{text: text, hi: -1}
	}
	line, end, whole := lineBefore(text, at)
	first := end
	for whole && (line == "" || textlayer.FenceLine(line)) && end > 0 {
		if s.hi >= 0 && end >= s.lo && end <= s.hi {
			s.hi = max(s.hi, first)
			return s.shown
		}
		line, end, whole = lineBefore(text, end-1)
	}
	shown := presentsExample(line)
	if first > end {
		// The walk went up from first to end: lines between lead here.
		s.lo, s.hi, s.shown = end+1, first, shown
	}
	return shown
}

// presentsExample reports whether line, the prose above a value, presents
// it as an example.
func presentsExample(line string) bool {
	if len(line) > exampleProse {
		line = line[len(line)-exampleProse:]
	}
	// The words are ASCII: the line is lowered byte by byte, ASCII
	// letters only, in an array of its own, so a line of invalid UTF-8
	// costs no more than any other (strings.ToLower would allocate a
	// replacement rune for each bad byte, at every value asked).
	var buf [exampleProse]byte
	low := buf[:len(line)]
	for i := 0; i < len(line); i++ {
		c := line[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	for _, w := range exampleWords {
		if bytes.Contains(low, []byte(w)) {
			return true
		}
	}
	return false
}

// exampleProse is how much of the prose before a value is read for
// exampleWords: the end of the sentence that introduces it.
const exampleProse = 400

// lineBefore returns the text of the line that ends at e, trimmed, and the
// offset its scan reached. It reads back to the start of the line (whole)
// or stops once it holds more than exampleProse bytes of text, so that
// every value of a long line costs a bounded look, not the whole line.
func lineBefore(text string, e int) (line string, start int, whole bool) {
	s, last := e, -1
	for s > 0 && text[s-1] != '\n' {
		if last < 0 && !textlayer.IsBlank(text[s-1]) {
			last = s
		}
		if last >= 0 && last-s > exampleProse+112 {
			return strings.TrimSpace(text[s:e]), s, false
		}
		s--
	}
	return strings.TrimSpace(text[s:e]), s, true
}
