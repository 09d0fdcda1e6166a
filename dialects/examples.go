package dialects

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// Span is a byte range [Start, End) of a text.
type Span struct{ Start, End int }

// Shown lists the parts of text that show a call rather than make one, in
// order: inline code (a run of one or two backticks that starts a word,
// closed by the same run in the same paragraph before the end of a word:
// "the syntax is `<tool_call>…</tool_call>`"), fenced blocks that the
// prose right before them presents as an example ("For example:", "the
// format looks like this:"; the rule of PresentedAsExample, the
// one that holds for JSON in prose), and closed fenced blocks that the
// prose right after them disowns ("but I won't call it"; DisownedAfter). A
// fence with no such prose around it is not listed: it may be the call. A
// presented fence that is never closed runs to the end of the text. It
// also lists quoted text that holds a call's syntax inside a sentence
// (quoted):
// `Write "<tool_call>…</tool_call>" to call f.` shows the call.
func Shown(text string) []Span {
	return withQuoted(text, code(text, nil))
}

// code lists the inline code and example fences of text, as Shown says,
// with the backticks inside calls (inCall) opening no inline code: calls
// are the regions that a dialect reads as calls, sorted and apart.
func code(text string, calls []Span) []Span {
	if strings.IndexByte(text, '`') < 0 {
		return nil // every span is a fence or inline code: backticks
	}
	var out []Span
	var across acrossFence
	var examples ExampleScan
	lineStart, para := 0, 0
	for lineStart < len(text) {
		lineEnd := strings.IndexByte(text[lineStart:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text)
		} else {
			lineEnd += lineStart
		}
		if at, ch, n, info, ok := textlayer.OpenLine(text, lineStart, lineEnd, textlayer.MaxFenceIndent); ok {
			if sp, ok := across.find(text, calls, lastEnd(out), para, lineStart); ok {
				// Inline code that holds the fence (a call whose own
				// syntax has one, written in backticks): the paragraph
				// goes on through it, and the code ends the span.
				out = append(inlineCode(text, calls, para, sp.Start, out), sp)
				para, lineStart = sp.End, len(text)
				if e := strings.IndexByte(text[sp.End:], '\n'); e >= 0 {
					lineStart = sp.End + e + 1
				}
				continue
			}
			out = inlineCode(text, calls, para, lineStart, out)
			end := fenceClose(text, lineEnd, ch, n)
			// A fence's label is known once its opening line ends: the
			// text's end inside it ("```js" of a cut "```json") is none.
			code := lineEnd < len(text) && textlayer.LabelOf(info) == textlayer.Code
			if code || examples.PresentedAsExample(text, at) || DisownedAfter(text, end) {
				out = append(out, Span{at, end})
			}
			lineStart = min(end+1, len(text))
			para = lineStart
			continue
		}
		if strings.TrimSpace(text[lineStart:lineEnd]) == "" {
			out = inlineCode(text, calls, para, lineStart, out)
			para = lineEnd
		}
		lineStart = lineEnd + 1
	}
	return inlineCode(text, calls, para, len(text), out)
}

// lastEnd returns the end of the last span of out, or 0.
func lastEnd(out []Span) int {
	if len(out) == 0 {
		return 0
	}
	return out[len(out)-1].End
}

// acrossFence finds inline code that opens in a paragraph before a fence
// line and closes after it, in the paragraph that goes on through the
// fence to the next blank line: "write `<｜tool▁call▁begin｜>…\n```json\n
// {…}\n```<｜tool▁call▁end｜>` here". A paragraph whose backtick runs are
// all closed before the fence ends there, as a fence ends a paragraph.
//
// It reads each stretch of text once: the spans of the paragraph read on
// from a fence are kept for the next fence of that paragraph (reading
// on from a span's end pairs the backticks as reading from the start
// did), and after a fence no span crosses, the next try waits for the
// next paragraph.
type acrossFence struct {
	end   int    // the end of the paragraph read (its blank line)
	spans []Span // the inline code read in it (nil: none read yet)
	next  int    // the first span not yet looked at
}

// find returns the inline code that crosses the fence line at fence, in
// the paragraph that begins at para; floor is the end of the last span
// listed before it (inCall).
func (a *acrossFence) find(text string, calls []Span, floor, para, fence int) (Span, bool) {
	if textlayer.BacktickRuns(text[para:fence])%2 == 0 {
		return Span{}, false
	}
	if a.spans == nil || fence >= a.end {
		end := len(text)
		for i := fence; i < len(text); {
			e := strings.IndexByte(text[i:], '\n')
			if e < 0 {
				break
			}
			e += i
			if strings.TrimSpace(text[i:e]) == "" {
				end = i
				break
			}
			i = e + 1
		}
		a.end, a.spans, a.next = end, inlineCode(text, calls, para, end, []Span{{floor, floor}})[1:], 0
	}
	for a.next < len(a.spans) {
		sp := a.spans[a.next]
		if sp.Start >= fence {
			break
		}
		a.next++
		if sp.Start >= para && sp.End > fence {
			return sp, true
		}
	}
	// No span crosses this fence: none will, in this paragraph.
	a.spans, a.next = a.spans[:0], len(a.spans)
	return Span{}, false
}

// MayBeShown reports whether a call marker at text[at], with text all that
// has arrived of an output, may turn out to lie in a part Shown lists once
// the output is whole: inside a fence opened before it, at a fence that
// prose presents as an example, or after an inline code run of its
// paragraph that is not closed yet. A stream settles such a marker at the
// end rather than announce a call. Each call reads the whole text before
// at; a ShownScan reads each line once.
func MayBeShown(text string, at int) bool {
	var s ShownScan
	return s.MayBeShown(text, at)
}

// ShownScan answers MayBeShown for a text that only grows (a stream's
// buffer), reading each complete line once. The zero value is ready.
//
// It pairs the backtick runs of a paragraph by the rule of Shown
// (inlineScan), so that a marker that a run still open may hold is
// reported as may be shown, and one after code already closed is not. A
// fence line ends the paragraph, unless an odd count of runs (as
// acrossFence counts them) leaves a run open: the code may then hold the
// fence, and the paragraph is read on through it. The fences that the
// prose after them disowns (DisownedAfter) are known only once the text
// after them arrives; the backticks of a call that begins inside one are
// counted as a call's.
type ShownScan struct {
	pos     int  // the start of the first line not read whole
	at      int  // the last position asked about
	inFence bool // a fence opened on a line read whole is not closed
	across  bool // the paragraph is read on through the fence: code may hold it
	shown   bool // the open fence is presented as an example
	in      inlineScan
	runs    int // backtick runs (textlayer.BacktickRuns) in the paragraph's lines read whole
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
	calls []Span
	// examples answers PresentedAsExample for the fences asked about.
	examples ExampleScan
}

// Call tells s that text[start:end] is a call, from its opening marker to
// its end, as the dialect reads it: a backtick run that opens inside it
// counts for no inline code, as in ExtractShown. Calls come in order, each
// before the next marker s is asked about.
func (s *ShownScan) Call(start, end int) {
	if end > start+1 {
		s.calls = append(s.calls, Span{start, end})
		s.stale = s.stale || start < s.in.i
	}
}

// CallsIn tells s where the calls of ext, the reading of text, lie (Call
// for each, as ExtractShown finds them), for a scan of text from its
// start.
func (s *ShownScan) CallsIn(text string, ext *Extraction) {
	for _, c := range callSpans(text, ext) {
		s.Call(c.Start, c.End)
	}
}

// para starts a new paragraph at start.
func (s *ShownScan) para(start int) {
	s.in = inlineScan{start: start, i: start, floor: s.in.floor}
	s.runs, s.across, s.paraFloor, s.stale = 0, false, s.in.floor, false
}

// MayBeShown is the package's MayBeShown; text must extend the text of the
// previous call (an at before the last one reads again from the start).
func (s *ShownScan) MayBeShown(text string, at int) bool { return s.read(text, at, true) }

// ShownAt reports whether a marker at text[at] lies in a part that the
// text before it shows rather than makes a call in: inline code of its
// paragraph opened and not closed before it (or closed after it), a
// quotation opened before it, or a fence opened before it that is
// labelled with a programming language or that the prose before it
// presents as an example. Unlike MayBeShown it looks no further than the
// marker: a fence with no such prose before it is not shown, whatever
// prose follows it (a family engine decides a call by what precedes it).
// Calls come as for MayBeShown, text must extend the text of the previous
// call, and at must not fall below the last at asked.
func (s *ShownScan) ShownAt(text string, at int) bool { return s.read(text, at, false) }

// Reset readies s for another text, keeping the array of its calls.
func (s *ShownScan) Reset() {
	clear(s.calls)
	*s = ShownScan{calls: s.calls[:0]}
}

// read answers MayBeShown (disownable: a fence that prose after it may
// still disown counts) and ShownAt (it does not).
func (s *ShownScan) read(text string, at int, disownable bool) bool {
	if at < s.at {
		*s = ShownScan{calls: s.calls}
	}
	// No line break lies between pos and the last position asked about.
	from := max(s.pos, s.at)
	s.at = at
	if s.stale && (!s.inFence || s.across) {
		s.in = inlineScan{start: s.in.start, i: s.in.start, floor: s.paraFloor}
		s.in.read(text, s.calls, s.pos, len(text), false, nil)
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
			f, _, _, info, open := textlayer.OpenLine(text, s.pos, le, textlayer.MaxFenceIndent)
			// A line that starts inside a call region is the call's own
			// text (a DeepSeek call's argument fence): it opens no fence.
			open = open && !lineInCall(s.calls, s.pos)
			switch {
			case open && !s.inFence || s.inFence && textlayer.IsCloseLine(text[s.pos:le]):
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
					if s.in.n == 0 || s.runs%2 == 0 {
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
		s.in.read(text, s.calls, at, len(text), false, nil)
	}
	if s.inFence {
		if disownable || s.shown {
			return true
		}
		if !s.across {
			return false // a fence nothing before it presents: its text is read
		}
	}
	// A fence that opens on the marker's own line: ShownAt reads that line
	// no further than the marker (its label is the word right after the
	// fence's run; a backtick after the marker does not make the line
	// inline code), so that the answer does not hang on text yet to come.
	lineEnd := len(text)
	if !disownable {
		lineEnd = at
	}
	if f, _, _, info, ok := textlayer.OpenLine(text, lineStart, lineEnd, textlayer.MaxFenceIndent); ok && f <= at && (textlayer.LabelOf(info) == textlayer.Code || s.examples.PresentedAsExample(text, f)) {
		return true
	}
	return s.in.n > 0 || s.in.i < at || s.in.floor > at || s.quoteOpen(text, at)
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
		s.in.read(text, s.calls, lineStart, len(text), false, nil)
	}
	s.pos = lineStart
}

// readLine reads the line from s.pos to le, whole, into the paragraph.
func (s *ShownScan) readLine(text string, le int) {
	s.runs += textlayer.BacktickRuns(text[s.pos:le])
	s.in.read(text, s.calls, le+1, len(text), false, nil)
}

// quoteOpen reports whether a quotation (quoteState) opened before at is
// not closed before at. It reads the text once across calls.
func (s *ShownScan) quoteOpen(text string, at int) bool {
	if s.qPos > at {
		s.qPos, s.q = 0, quoteState{}
	}
	s.q.advance(text, s.qPos, at, nil)
	s.qPos = at
	return s.q.close != ""
}

// withQuoted adds to the sorted spans of code the quoted parts of text
// that hold a call's syntax inside a sentence, except those that meet a
// span of code.
//
// A quotation opens with a quote ('"', '“', '‘' or an ASCII '\”) that a
// word and a blank stand right before on its line, and closes at the first
// matching quote ('"', '”', '’' or '\”) that is not inside a string of the
// quoted text, with as many '{' and '[' as '}' and ']' before it since the
// opening quote (quoteState). It is listed when a blank and a word follow
// it, closing punctuation and then a blank and a word or the end of the
// line, or the end of the line itself (the shape of inprose.InSentence around the
// whole quotation: "Write "<tool_call>…</tool_call>" to call f.", "I would
// write "<tool_call>…</tool_call>""), and it holds a '<', '[' or '{', as
// every call syntax does. A quote inside a value of a call follows ':',
// '=', '[', ',' or a backslash, not a word and a blank: it opens no
// quotation.
func withQuoted(text string, code []Span) []Span {
	if strings.IndexByte(text, '"') < 0 && strings.IndexByte(text, '\'') < 0 && strings.IndexByte(text, 0xE2) < 0 {
		return code // no quote
	}
	var quoted []Span
	var q quoteState
	q.advance(text, 0, len(text), func(start, end int) {
		if quoteCloses(text, end) && strings.ContainsAny(text[start:end], "<[{") {
			quoted = append(quoted, Span{start, end})
		}
	})
	if len(quoted) == 0 {
		return code
	}
	out := make([]Span, 0, len(code)+len(quoted))
	k := 0
	for _, q := range quoted {
		for k < len(code) && code[k].End <= q.Start {
			out = append(out, code[k])
			k++
		}
		if k < len(code) && code[k].Start < q.End {
			continue // it meets code: the code is what is shown
		}
		out = append(out, q)
	}
	return append(out, code[k:]...)
}

// quoteState reads the quotations of a text, byte by byte, so that the
// one-shot reading (withQuoted) and a stream's (ShownScan) take the same
// steps. Inside a quotation, an ASCII quote that follows '{', '[', ',',
// ':', '=' or '(' (blanks aside) opens a string of the quoted text (a JSON
// key or value, an attribute, an argument), which the next such quote not
// escaped by a backslash closes; the quotation's own closing quote is one
// outside such strings with no bracket left open since the quotation
// opened (an apostrophe inside a word closes nothing). A closing quote
// closes the quotation whatever follows it.
//
// A quotation ends with its line, unless it is tight: its quoted text
// begins with '<', '[' or '{' right after the opening quote, as a call's
// syntax does. A tight quotation goes on over line breaks (a call whose
// syntax spans lines, quoted whole) up to a blank line, and closes on a
// later line only right after a '>', ']', '}' or ')' that ends the call's
// syntax; any other closing quote there abandons it, unlisted. An ASCII
// single quote, which prose also writes as an apostrophe or around a
// phrase, opens only a tight quotation and closes it only right after
// such a bracket, on any line: `Write '<tool_call>…</tool_call>' to call
// f.` is a quotation, `the users' <tool_call>…` and `it's` open none.
type quoteState struct {
	open  int    // the offset of the opening quote, while close != ""
	close string // the closing quote awaited; "" when none is open
	inner byte   // the quote of the string of the quoted text read, 0 outside one
	depth int    // brackets opened less brackets closed since open
	tight bool   // the quoted text begins with '<', '[' or '{'
	line  int    // the start of the line being read
	text  bool   // the line being read holds more than blanks
}

// advance reads text[from:to], and calls closed (when not nil) with the
// span of each quotation it closes.
func (q *quoteState) advance(text string, from, to int, closed func(start, end int)) {
	next := [3]int{-1, -1, -1} // where each opening quote byte occurs next, from i
	for i := from; i < to; i++ {
		if q.close == "" {
			// Outside a quotation only a quote is looked for, and the
			// start of its line: whether the line holds text counts
			// once one is open.
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
				q.line, q.text = i+nl+1, false
			}
			if i = k; i == to {
				return
			}
		}
		c := text[i]
		switch c {
		case '\n':
			if q.close != "" && (!q.tight || !q.text) {
				q.reset() // a quotation ends with its line, a tight one with its paragraph
			}
			q.line, q.text = i+1, false
			continue
		case ' ', '\t', '\r':
		default:
			q.text = true
		}
		switch {
		case q.close == "":
			if c != '"' && c != '\'' && c != 0xE2 {
				continue
			}
			cq, n := openQuote(text, i)
			if n > 0 && quoteOpens(text, q.line, i) {
				tight := i+n < len(text) && strings.IndexByte("<[{", text[i+n]) >= 0
				if cq != "'" || tight {
					q.open, q.close, q.inner, q.depth, q.tight = i, cq, 0, 0, tight
				}
			}
			i += max(n, 1) - 1
		case q.inner != 0:
			if c == q.inner && text[i-1] != '\\' {
				q.inner = 0
			}
		case c == '{' || c == '[':
			q.depth++
		case c == '}' || c == ']':
			q.depth--
		case c == '"' || c == '\'':
			switch {
			case (c == '"' || q.close == "'") && innerOpens(text, q.open+1, i):
				q.inner = c
			case q.close != string(c) || q.depth > 0:
			case c == '\'' && i > 0 && i+1 < len(text) && textlayer.WordByte(text[i-1]) && textlayer.WordByte(text[i+1]):
				// an apostrophe inside a word
			case !q.closesAt(text, i):
				q.reset()
			default:
				q.close = ""
				if closed != nil {
					closed(q.open, i+1)
				}
			}
		case c == 0xE2 && q.depth <= 0 && strings.HasPrefix(text[i:], q.close):
			if q.close == "\u2019" && i+3 < len(text) && textlayer.WordByte(text[i+3]) {
				i += 2 // an apostrophe inside a word
				continue
			}
			if !q.closesAt(text, i) {
				q.reset()
			} else {
				q.close = ""
				if closed != nil {
					closed(q.open, i+3)
				}
			}
			i += 2
		}
	}
}

// reset abandons the open quotation, unlisted.
func (q *quoteState) reset() { q.close, q.inner, q.depth = "", 0, 0 }

// closesAt reports whether the closing quote at text[i] may close the
// open quotation: on the line it opened (but for an ASCII single quote),
// any may; on a later line, or for an ASCII single quote, only one right
// after the bracket that ends a call's syntax.
func (q *quoteState) closesAt(text string, i int) bool {
	if q.open >= q.line && q.close != "'" {
		return true
	}
	return i > 0 && strings.IndexByte(">]})", text[i-1]) >= 0
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

// quoteOpens reports whether a word and a blank stand right before the
// quote at text[i], on the line that starts at lineStart.
func quoteOpens(text string, lineStart, i int) bool {
	j := i
	for j > lineStart && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	return j < i && j > lineStart && textlayer.WordByte(text[j-1])
}

// innerOpens reports whether the ASCII quote at text[i], inside a
// quotation whose text starts at from, opens a string of the quoted text:
// '{', '[', ',', ':', '=' or '(' stands before it, blanks and line breaks
// aside.
func innerOpens(text string, from, i int) bool {
	j := i
	for j > from && textlayer.IsSpace(text[j-1]) {
		j--
	}
	return j > from && strings.IndexByte("{[,:=(", text[j-1]) >= 0
}

// quoteCloses reports whether the text after a closing quote that ends at
// text[e] goes on with prose: a blank and a word, or closing punctuation
// and then a blank and a word or the end of the line.
func quoteCloses(text string, e int) bool {
	if textlayer.AtLineEnd(text, e) {
		return true
	}
	p := e
	for p < len(text) && p-e < 8 && strings.IndexByte(".,;!?)", text[p]) >= 0 {
		p++
	}
	if p > e && textlayer.AtLineEnd(text, p) {
		return true
	}
	b := p
	for b < len(text) && (text[b] == ' ' || text[b] == '\t') {
		b++
	}
	return b > p && b < len(text) && textlayer.WordByte(text[b])
}

// fenceClose returns the end of the line that closes the fence whose
// opening line, a run of n bytes ch, ends at from (textlayer.ClosesFence),
// or len(text).
func fenceClose(text string, from int, ch byte, n int) int {
	i := from
	for i < len(text) {
		i++ // past the newline
		e := strings.IndexByte(text[i:], '\n')
		if e < 0 {
			e = len(text)
		} else {
			e += i
		}
		if textlayer.ClosesFence(text[i:e], ch, n) {
			return e
		}
		i = e
	}
	return len(text)
}

// inlineCode appends the inline code spans of the paragraph text[start:end].
// A backtick run inside a call (inCall) opens none.
func inlineCode(text string, calls []Span, start, end int, out []Span) []Span {
	s := inlineScan{start: start, i: start, floor: lastEnd(out)}
	return s.read(text, calls, end, end, true, out)
}

// inlineScan pairs the backtick runs of a paragraph into inline code, by
// the one rule that both the one-shot reading (inlineCode) and a stream's
// (ShownScan) follow: a run of one or two backticks opens code when it
// starts the paragraph or follows a blank or opening punctuation
// (openerBefore), and does not open inside a call (inCall); the first
// later run of the same length, not part of a longer run, that the end of
// the paragraph, a blank or punctuation follows (closerAfter) closes it,
// and the next run is looked for after it. A run that finds no closer
// opens nothing, and the next run is looked for right after it; none[n]
// records that a run of n backticks found no closer up to the
// paragraph's end: a later one cannot either, so each paragraph is read a
// bounded number of times.
//
// A scan reads as far as it is told and stops where what it has read does
// not decide yet (a run that reaches the end of the text read, a run with
// no closer so far), to go on from there as the text grows: its state is
// the same whatever steps it took.
type inlineScan struct {
	start int     // where the paragraph starts
	i     int     // where the next opening run is looked for
	none  [3]bool // none[n]: a run of n backticks found no closer in the paragraph
	open  int     // where the open run starts, when n > 0
	n     int     // the length of the open run; 0 when none is open
	k     int     // where the open run's closer is looked for next
	floor int     // the end of the last span listed (inCall)
}

// read pairs the runs that open before to, with closers that start before
// to, appending the spans it closes to out. Final says that end is the
// paragraph's end; otherwise end is the end of the text so far, and the
// paragraph goes on past to.
func (s *inlineScan) read(text string, calls []Span, to, end int, final bool, out []Span) []Span {
	for {
		if s.n > 0 {
			if !s.closer(text, to, end, final) {
				if !final {
					return out // the open run may close later
				}
				s.none[s.n] = true
				s.i, s.n = s.open+s.n, 0
				continue
			}
			out = append(out, Span{s.open, s.k})
			s.i, s.floor, s.n = s.k, s.k, 0
		}
		if s.i >= to {
			return out
		}
		j := strings.IndexByte(text[s.i:to], '`')
		if j < 0 {
			s.i = to
			return out
		}
		open := s.i + j
		n := 1
		for open+n < end && text[open+n] == '`' {
			n++
		}
		if open+n == end && !final {
			s.i = open // the run may go on
			return out
		}
		s.i = open + n
		if n > 2 || s.none[n] || (open > s.start && !openerBefore(text[open-1])) || inCall(calls, open, s.floor) {
			continue
		}
		s.open, s.n, s.k = open, n, open+n
	}
}

// closer looks for the closer of the open run among the runs that start
// before to, and reports whether it found it; s.k is then the closer's
// end. When it does not, s.k is where to look on from.
func (s *inlineScan) closer(text string, to, end int, final bool) bool {
	run := text[s.open : s.open+s.n]
	for s.k < to {
		// A closer that starts before to ends by to+2; the window keeps
		// a stream's reading of text past to for later.
		lim := min(to+2, end)
		c := strings.Index(text[s.k:lim], run)
		if c < 0 || s.k+c >= to {
			if !final {
				// Go on from to, or from a run that reaches the end of
				// the text so far.
				k := to
				for k > s.k && text[k-1] == '`' {
					k--
				}
				s.k = k
			}
			return false
		}
		c += s.k
		after := c + s.n
		if after < end && text[after] == '`' { // a longer run
			for after < end && text[after] == '`' {
				after++
			}
			if after == end && !final {
				s.k = c
				return false
			}
			s.k = after
			continue
		}
		if after == end && !final {
			s.k = c // what follows decides
			return false
		}
		s.k = after
		if after == end || closerAfter(text[after]) {
			return true
		}
	}
	return false
}

// inCall reports whether text[at] lies inside one of calls (sorted and
// apart) that starts at floor or after: between a call's opening marker
// and its end, as the dialect reads the text, where a backtick is the
// call's (a value's "use `ls"), not prose's inline code. A call that
// starts before floor starts inside code listed already: it is shown, not
// made, and the backticks in it are the code's.
func inCall(calls []Span, at, floor int) bool {
	k := sort.Search(len(calls), func(i int) bool { return calls[i].Start >= at })
	return k > 0 && calls[k-1].Start >= floor && at < calls[k-1].End
}

// lineInCall reports whether the line that starts at text[at] starts inside
// one of calls (sorted and apart): between a call's first byte and its
// end, so that the line is the call's text, not prose's.
func lineInCall(calls []Span, at int) bool {
	k := sort.Search(len(calls), func(i int) bool { return calls[i].Start > at })
	return k > 0 && at < calls[k-1].End
}

// openerBefore reports whether c may come right before inline code: a blank
// or opening punctuation.
func openerBefore(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '(' || c == '[' || c == '*' || c == '_' || c == '>'
}

// closerAfter reports whether c may come right after inline code: a blank or
// punctuation.
func closerAfter(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || strings.IndexByte(".,;:!?)]*_'", c) >= 0
}

// shownMark delimits the placeholder that stands for a shown part while a
// dialect reads the rest (private-use code points, which no dialect reads as
// a marker).
const shownMark, shownEnd = "\uE000", "\uE001"

// ExtractShown runs extract on text with the parts Shown lists held out of
// its reach, so that a call written there is not a call, and puts them back
// verbatim wherever they landed (content, reasoning, a value, an error's raw
// text): the text stays whole. Offsets are those of text. Every dialect
// engine reads its output through it.
//
// Inline code is prose's: a backtick inside a call, between its opening
// marker and its end as the dialect reads the text (a value's "use `ls"),
// opens none. When Shown lists inline code, extract first reads text
// whole to learn where its calls lie (callSpans), and the spans are listed
// again with the backticks inside those calls left out (inCall): at most
// one more reading, and only when a backtick may open inline code.
func ExtractShown(text string, extract func(string) *Extraction) *Extraction {
	spans := Shown(text)
	if len(spans) == 0 || strings.Contains(text, shownMark) {
		return extract(text)
	}
	if hasInline(text, spans) {
		whole := extract(text)
		if calls := callSpans(text, whole); len(calls) > 0 {
			spans = withQuoted(text, code(text, calls))
			if len(spans) == 0 {
				return whole
			}
		}
	}
	var b strings.Builder
	b.Grow(len(text))
	origs := make([]string, len(spans))
	type shift struct{ at, delta int } // masked offset at which original offsets gain delta
	shifts := make([]shift, 0, len(spans))
	prev, delta := 0, 0
	for i, sp := range spans {
		b.WriteString(text[prev:sp.Start])
		ph := shownMark + strconv.Itoa(i) + shownEnd
		b.WriteString(ph)
		origs[i] = text[sp.Start:sp.End]
		delta += (sp.End - sp.Start) - len(ph)
		shifts = append(shifts, shift{b.Len(), delta})
		prev = sp.End
	}
	b.WriteString(text[prev:])
	ext := extract(b.String())
	if ext == nil {
		return nil
	}
	restore := func(s string) string {
		if !strings.Contains(s, shownMark) {
			return s
		}
		var r strings.Builder
		for {
			i := strings.Index(s, shownMark)
			if i < 0 {
				break
			}
			j := strings.Index(s[i:], shownEnd)
			if j < 0 {
				break
			}
			n, err := strconv.Atoi(s[i+len(shownMark) : i+j])
			if err != nil || n < 0 || n >= len(origs) {
				r.WriteString(s[:i+j+len(shownEnd)])
			} else {
				r.WriteString(s[:i])
				r.WriteString(origs[n])
			}
			s = s[i+j+len(shownEnd):]
		}
		r.WriteString(s)
		return r.String()
	}
	offset := func(o int) int {
		if o < 0 {
			return o
		}
		d := 0
		for _, sh := range shifts {
			if o < sh.at {
				break
			}
			d = sh.delta
		}
		return o + d
	}
	restoreErr := func(e *toolcall.Error) {
		if e == nil {
			return
		}
		e.Message, e.Raw = restore(e.Message), restore(e.Raw)
		e.Offset = offset(e.Offset)
	}
	ext.Content, ext.Reasoning = restore(ext.Content), restore(ext.Reasoning)
	for i := range ext.Calls {
		rc := &ext.Calls[i]
		rc.ID, rc.Name, rc.Text = restore(rc.ID), restore(rc.Name), restore(rc.Text)
		if a := restore(rc.Arguments); a != rc.Arguments {
			rc.Arguments, rc.ArgumentsValid = a, false
		}
		for k := range rc.Params {
			rc.Params[k].Key, rc.Params[k].Value = restore(rc.Params[k].Key), restore(rc.Params[k].Value)
		}
		rc.Offset = offset(rc.Offset)
		if e, ok := rc.Err.(*toolcall.Error); ok {
			restoreErr(e)
		}
	}
	for _, e := range ext.Errors {
		restoreErr(e)
	}
	return ext
}

// hasInline reports whether spans, listed by Shown, hold inline code: a
// span that opens with one or two backticks.
func hasInline(text string, spans []Span) bool {
	for _, sp := range spans {
		if text[sp.Start] == '`' && !strings.HasPrefix(text[sp.Start:], "```") {
			return true
		}
	}
	return false
}

// callSpans returns where the calls of ext, read from text, lie in text,
// sorted and apart: the span of each call's whole text (RawCall.Text, set
// by KeepText) found at or before its offset, or, for a call with no such
// text, from its offset to the end of its arguments found right after it
// (argsSlack). A call whose text is not found there gives none; the calls
// of one region (their offsets inside the span found for an earlier call)
// give it once.
func callSpans(text string, ext *Extraction) []Span {
	if ext == nil {
		return nil
	}
	var out []Span
	end := 0
	for _, rc := range ext.Calls {
		if rc.Offset < end || rc.Offset > len(text) {
			continue
		}
		if rc.Text == "" {
			if rc.Arguments == "" {
				continue
			}
			win := text[rc.Offset:min(len(text), rc.Offset+len(rc.Arguments)+argsSlack)]
			if k := strings.Index(win, rc.Arguments); k >= 0 {
				out = append(out, Span{rc.Offset, rc.Offset + k + len(rc.Arguments)})
				end = out[len(out)-1].End
			}
			continue
		}
		lo := max(end, rc.Offset-len(rc.Text))
		hi := min(len(text), rc.Offset+len(rc.Text))
		k := strings.Index(text[lo:hi], rc.Text)
		if k < 0 || lo+k > rc.Offset {
			continue
		}
		sp := Span{lo + k, lo + k + len(rc.Text)}
		out = append(out, sp)
		end = sp.End
	}
	return out
}

// argsSlack bounds how far after a call's offset its arguments are looked
// for (callSpans): the call's name and the keys around them.
const argsSlack = 1024

// exampleWords are what prose says when it shows a call rather than makes
// one.
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
// it is remembered (as inlineCode remembers where no closer is). Without
// it a text of n fence lines costs n²/2 lines read. The zero value is
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
	for whole && (line == "" || strings.HasPrefix(line, "```")) && end > 0 {
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

// DisownedAfter reports whether the prose right after a closed code fence
// whose closing line ends at text[end] disowns what the fence holds: its
// first line of text says that it is not done ("but I won't call it", "I
// will not run this", "don't execute that"), a negation followed in the
// same line by a verb of calling (call, run, execute, invoke, use, make,
// send, do). Quoting a call and then saying it is not made is a mention,
// not a call. A fence that is not closed yet is not disowned: the line
// after it has not been written.
func DisownedAfter(text string, end int) bool {
	if end >= len(text) {
		return false
	}
	i := end + 1
	for i < len(text) {
		e := strings.IndexByte(text[i:], '\n')
		if e < 0 {
			e = len(text)
		} else {
			e += i
		}
		if line := strings.TrimSpace(text[i:e]); line != "" {
			return disowns(line)
		}
		i = e + 1
	}
	return false
}

// negations open the part of a sentence that says something is not done.
var negations = []string{"won't", "wont", "will not", "not going to", "don't", "do not", "shouldn't", "should not",
	"wouldn't", "would not", "can't", "cannot", "not", "never"}

// callVerbs are the verbs of making a call.
var callVerbs = []string{"call", "run", "execute", "invoke", "use", "make", "send", "do"}

// disowns reports whether line holds a negation followed closely by a
// verb of calling, as a word: within the next four words, before any
// punctuation ("but I won't call it", "I'm not going to run this"; not "if
// it does not work, run it again").
func disowns(line string) bool {
	if len(line) > exampleProse {
		line = line[:exampleProse]
	}
	line = strings.ToLower(strings.ReplaceAll(line, "\u2019", "'"))
	for _, n := range negations {
		for from := 0; from < len(line); {
			k := strings.Index(line[from:], n)
			if k < 0 {
				break
			}
			k += from
			from = k + len(n)
			if k > 0 && isWordByte(line[k-1]) || from < len(line) && isWordByte(line[from]) {
				continue // inside a word: "nothing", "cannotate"
			}
			if verbFollows(line[k+len(n):]) {
				return true
			}
		}
	}
	return false
}

// verbFollows reports whether one of the first four words of s, before any
// punctuation, is a verb of calling.
func verbFollows(s string) bool {
	i := 0
	for words := 0; words < 4 && i < len(s); words++ {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && (isWordByte(s[j]) || s[j] == '\'') {
			j++
		}
		if j == i {
			return false // punctuation ends the clause
		}
		w := strings.TrimSuffix(s[i:j], "'")
		for _, v := range callVerbs {
			if w == v || w == v+"s" || w == v+"ing" || w == v+"ed" || w == strings.TrimSuffix(v, "e")+"ing" || w == v+v[len(v)-1:]+"ing" {
				return true
			}
		}
		i = j
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
