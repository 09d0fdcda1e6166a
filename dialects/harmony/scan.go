package harmony

import (
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
)

// The harmony special tokens.
const (
	mStart     = "<|start|>"
	mChannel   = "<|channel|>"
	mConstrain = "<|constrain|>"
	mMessage   = "<|message|>"
	mEnd       = "<|end|>"
	mCall      = "<|call|>"
	mReturn    = "<|return|>"
)

// marker identifies one special token.
type marker uint8

const (
	noMarker marker = iota
	startMarker
	channelMarker
	constrainMarker
	messageMarker
	endMarker
	callMarker
	returnMarker
	// thinkMarker is a <think> tag: not harmony's, but a block written
	// with it is reasoning, as in every dialect (dialects.Think).
	thinkMarker
)

var markerText = [...]string{
	startMarker:     mStart,
	channelMarker:   mChannel,
	constrainMarker: mConstrain,
	messageMarker:   mMessage,
	endMarker:       mEnd,
	callMarker:      mCall,
	returnMarker:    mReturn,
	thinkMarker:     "<think>",
}

// markerSet is a set of markers, one bit each.
type markerSet uint16

func setOf(ms ...marker) markerSet {
	var s markerSet
	for _, m := range ms {
		s |= 1 << m
	}
	return s
}

func (s markerSet) has(m marker) bool { return s&(1<<m) != 0 }

var (
	anyMarker = setOf(startMarker, channelMarker, constrainMarker, messageMarker, endMarker, callMarker, returnMarker)
	// A body ends at an end token, or where the next message's header
	// starts when the model left the end token out.
	bodyEnds = setOf(endMarker, callMarker, returnMarker, startMarker, channelMarker)
	think    = setOf(thinkMarker)
)

// markerAt returns the marker that starts at s[i], which holds "<|".
func markerAt(s string, i int) marker {
	rest := s[i:]
	for m := startMarker; m <= returnMarker; m++ {
		if strings.HasPrefix(rest, markerText[m]) {
			return m
		}
	}
	return noMarker
}

// stateFn is one state of the scanner; it returns the next state, or nil
// when the text is used up.
type stateFn func(*scanner) stateFn

// scanner walks a harmony output once, from left to right, as a set of
// state functions in the style of text/template's lexer: between messages,
// in a header, in a body.
type scanner struct {
	text      string
	pos       int
	opts      *dialects.Options
	ext       *dialects.Extraction
	content   []string
	reasoning []string
	msg       message
	// thinkOpen and thinkClose find the <think> tags.
	thinkOpen, thinkClose finder
}

// message is the header of the message being read.
type message struct {
	start      int    // offset of the message in the text
	headerFrom int    // offset where header text begins
	part       marker // which header part words belong to: start (role), channel or constrain
	role       string
	channel    string
	recipient  string
	constrain  string
	pendingTo  bool // a bare "to=" was read; the next word is the recipient
	// recipients counts the recipients that differ from the first: a
	// header that names two is ambiguous (TLP-019), never a guess.
	recipients int
}

func (s *scanner) run() {
	state := lexBetween
	if s.opts.ReasoningOpen {
		// The template opened an analysis message: the output starts in
		// its body.
		s.msg = message{channel: "analysis"}
		state = lexBody
	}
	for state != nil {
		state = state(s)
	}
}

// next finds the first marker of want at or after from, skipping other
// markers as text. A token named in prose (a word and a blank before it,
// a blank and a word after it: "the <|channel|> token names it"; a group
// of tokens in a sentence: "the format is <|channel|>final<|message|> then
// the answer"; a list: "<|start|>, <|channel|>") is a word of the
// sentence, not a marker (dialects.TokenNamed). When want
// holds thinkMarker, a <think> tag before the next marker is returned
// first, so that no marker inside a think block is read. It returns
// len(text) and noMarker when there is none.
func (s *scanner) next(from int, want markerSet) (int, marker) {
	t := -1
	if want.has(thinkMarker) {
		t = s.thinkOpen.next(s.text, from)
	}
	for from < len(s.text) {
		j := strings.Index(s.text[from:], "<|")
		if j < 0 {
			break
		}
		i := from + j
		if t >= 0 && t < i {
			return t, thinkMarker
		}
		if m := markerAt(s.text, i); m != noMarker && !dialects.TokenNamed(s.text, i, i+len(markerText[m])) {
			s.ext.Marked = true
			if want.has(m) {
				return i, m
			}
		}
		from = i + 2
	}
	if t >= 0 {
		return t, thinkMarker
	}
	return len(s.text), noMarker
}

// thinkBlock reads the <think> block whose opening tag is at i and returns
// where the text goes on after it. Its text is reasoning, and harmony
// markup inside it, a call included, is the model thinking: a closed
// block ends after its closing tag. A block that never closes runs to the
// next marker of ends (a message the model went on to write), or to the
// end of the output.
func (s *scanner) thinkBlock(i int, ends markerSet) int {
	from := i + len(dialects.Think.Open)
	if c := s.thinkClose.next(s.text, from); c >= 0 {
		s.addReasoning(s.text[from:c])
		return c + len(dialects.Think.Close)
	}
	j, _ := s.next(from, ends)
	s.addReasoning(s.text[from:j])
	return j
}

// closedThinkEnd returns the end of the closed <think> block whose opening
// tag is at i, or -1 when it never closes.
func (s *scanner) closedThinkEnd(i int) int {
	c := s.thinkClose.next(s.text, i+len(dialects.Think.Open))
	if c < 0 {
		return -1
	}
	return c + len(dialects.Think.Close)
}

// finder finds a literal in a text, remembering the last answer: asked
// at positions that only grow, it reads the text once in all.
type finder struct {
	lit   string
	from  int // the position the last search started at
	at    int // what it found, or -1
	valid bool
}

// next returns the first occurrence of f.lit in text at or after from,
// or -1.
func (f *finder) next(text string, from int) int {
	if f.valid && f.from <= from && (f.at < 0 || f.at >= from) {
		return f.at
	}
	f.from, f.valid = from, true
	if f.at = strings.Index(text[from:], f.lit); f.at >= 0 {
		f.at += from
	}
	return f.at
}

// lexBetween reads text outside any message, up to the next message.
func lexBetween(s *scanner) stateFn {
	i, m := s.next(s.pos, anyMarker|think)
	before := s.text[s.pos:i]
	switch m {
	case thinkMarker:
		s.addContent(before)
		s.pos = s.thinkBlock(i, anyMarker)
		return lexBetween
	case noMarker:
		s.addContent(before)
		s.pos = len(s.text)
		return nil
	case startMarker:
		s.addContent(before)
		s.msg = message{start: i, headerFrom: i + len(mStart), part: startMarker}
		s.pos = i + len(mStart)
		return lexHeader
	case channelMarker, constrainMarker, messageMarker:
		// A header without <|start|>: the template wrote it, or the model
		// left it out. Words before the marker are the rest of the header
		// ("assistant", " to=functions.x") unless they read as prose.
		if headerLike(before) && headerOpening(before) {
			lead := len(before) - len(strings.TrimLeft(before, " \t\r\n"))
			s.msg = message{start: s.pos + lead, headerFrom: s.pos, part: startMarker}
			return lexHeader
		}
		s.addContent(before)
		s.msg = message{start: i, headerFrom: i, part: startMarker}
		s.pos = i
		return lexHeader
	}
	// A stray end token closes nothing; the token itself is markup.
	s.addContent(before)
	s.pos = i + len(markerText[m])
	return lexBetween
}

// lexHeader reads a header up to <|message|>.
func lexHeader(s *scanner) stateFn {
	for {
		// A think block ends the header: what it holds is not read.
		i, m := s.next(s.pos, anyMarker|think)
		s.msg.words(s.text[s.pos:i])
		switch m {
		case channelMarker, constrainMarker:
			s.msg.part = m
			s.pos = i + len(markerText[m])
		case messageMarker:
			s.keepProse(s.msg.headerFrom, i)
			s.pos = i + len(mMessage)
			return lexBody
		default:
			return s.brokenHeader(i, m)
		}
	}
}

// brokenHeader handles a header that ends before its <|message|>: at the
// end of the output, at an end token, or at the next <|start|>.
func (s *scanner) brokenHeader(i int, m marker) stateFn {
	switch {
	case s.msg.isCall():
		name, repairs := resolveName(s.msg.recipient, s.opts.Tools)
		var e *toolcall.Error
		if m == noMarker {
			e = cutoff.Error("inside a harmony call header, before " + mMessage)
		} else {
			e = toolcall.NewError(toolcall.CodeMalformedCall, "harmony call header is cut by "+markerText[m]+" before "+mMessage)
		}
		e.Offset = s.msg.start
		e.Raw = s.text[s.msg.start:i]
		s.ext.Calls = append(s.ext.Calls, dialects.RawCall{Name: name, Offset: s.msg.start, Repairs: repairs, Err: e})
	default:
		// "<|start|>" followed by prose, or prose around a stray
		// "<|constrain|>": the prose is content, not a header.
		s.keepProse(s.msg.headerFrom, i)
	}
	if m == noMarker {
		s.pos = len(s.text)
		return nil
	}
	s.pos = i
	if m != startMarker && m != thinkMarker {
		s.pos += len(markerText[m])
	}
	return lexBetween
}

// lexBody reads a message body and routes it: a call, reasoning or content.
//
// A <think> block in the body of a message that is not a call is
// reasoning, and no marker inside a closed one ends the body: in content
// (a final answer, a preamble) the block is taken out as reasoning; in an
// analysis body, which is reasoning already, it stays as written. A call's
// body is its arguments, where a tag is argument text.
func lexBody(s *scanner) stateFn {
	want := bodyEnds
	if !s.msg.isCall() {
		want |= think
	}
	from := s.pos
	i, m := s.next(from, want)
	// A call's body is its arguments: a marker inside a string of a JSON
	// value that reads on past it is argument text, not the body's end.
	for s.msg.isCall() && m != noMarker {
		end, ok := dialects.InsideJSONString(s.text, s.pos, i)
		if !ok {
			break
		}
		i, m = s.next(end, want)
	}
	for m == thinkMarker && s.msg.channelName() == "analysis" {
		if end := s.closedThinkEnd(i); end >= 0 {
			from = end
		} else {
			want &^= think
			from = i + len(dialects.Think.Open)
		}
		i, m = s.next(from, want)
	}
	if m == thinkMarker {
		s.emit(s.text[s.pos:i], thinkMarker)
		s.pos = s.thinkBlock(i, bodyEnds)
		return lexBody
	}
	s.emit(s.text[s.pos:i], m)
	switch m {
	case noMarker:
		s.pos = len(s.text)
		return nil
	case startMarker, channelMarker:
		s.pos = i // the next header begins here
	default:
		s.pos = i + len(markerText[m])
	}
	return lexBetween
}

// channelName is the message's channel; "analysis<|message|>" names it
// in the role slot.
func (m *message) channelName() string {
	if m.channel == "" && isChannel(m.role) {
		return m.role
	}
	return m.channel
}

// emit routes one body by its header; end is the marker that ended it
// (noMarker: the end of the output).
func (s *scanner) emit(body string, end marker) {
	terminated := end != noMarker
	msg := &s.msg
	msg.channel = msg.channelName()
	if !msg.isCall() {
		if msg.channel == "analysis" {
			s.addReasoning(body)
		} else {
			s.addContent(body)
		}
		return
	}
	if !terminated {
		// The output ends inside the token that ends the message: the
		// arguments before it are whole (cutoff).
		if k := strings.LastIndexByte(body, '<'); k >= 0 && cutoff.Marker(body[k:], mCall, mEnd, mReturn) {
			body = body[:k]
		}
	}
	name, repairs := resolveName(msg.recipient, s.opts.Tools)
	// A call's own end is <|call|>, <|end|> or <|return|>: arguments that
	// the next message's header broke off are cut as the end of the
	// output cuts them (RawCall.AtEnd), never a shorter call.
	ownEnd := end == callMarker || end == endMarker || end == returnMarker
	rc := dialects.RawCall{Name: name, Arguments: strings.TrimSpace(body), Offset: msg.start, Repairs: repairs, AtEnd: !ownEnd}
	if end := s.pos + len(body); msg.start >= 0 && msg.start <= s.pos && end <= len(s.text) {
		rc.Text = s.text[msg.start:end] // the header too: the error keeps it
	}
	if msg.recipients > 0 {
		// Two recipients in one header: which tool the arguments are for
		// is a guess, and an agent runs what it is given.
		e := toolcall.NewError(toolcall.CodeMalformedCall, "harmony call header names more than one recipient")
		e.Offset = msg.start
		e.Raw = s.text[msg.start:min(s.pos+len(body), len(s.text))]
		rc.Err = e
	} else if !ownEnd && rc.Arguments == "" {
		e := cutoff.Error("inside a harmony call message, before its arguments")
		e.Offset = msg.start
		e.Raw = s.text[msg.start:min(s.pos+len(body), len(s.text))]
		rc.Err = e
	}
	s.ext.Calls = append(s.ext.Calls, rc)
}

// words files the whitespace-separated words of a header segment under the
// part being read. "to=X" anywhere is the recipient; a word after the
// channel name ("commentary json") is the constraint.
func (m *message) words(seg string) {
	for seg != "" {
		i := 0
		for i < len(seg) && isSpace(seg[i]) {
			i++
		}
		j := i
		for j < len(seg) && !isSpace(seg[j]) {
			j++
		}
		if j > i {
			m.word(seg[i:j])
		}
		seg = seg[j:]
	}
}

func (m *message) word(w string) {
	switch {
	case m.pendingTo:
		m.pendingTo = false
		m.to(w)
		return
	case w == "to=":
		m.pendingTo = true
		return
	case strings.HasPrefix(w, "to="):
		m.to(w[len("to="):])
		return
	}
	switch m.part {
	case startMarker:
		if m.role == "" {
			m.role = w
		}
	case channelMarker:
		if m.channel == "" {
			m.channel = w
		} else if m.constrain == "" {
			m.constrain = w
		}
	case constrainMarker:
		if m.constrain == "" {
			m.constrain = w
		}
	}
}

// to records a recipient: the first, and whether a later one differs.
func (m *message) to(w string) {
	switch {
	case m.recipient == "":
		m.recipient = w
	case w != m.recipient:
		m.recipients++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// isCall reports whether the message is addressed to a tool. A recipient
// that is a chat role ("to=assistant", on a tool's reply) is not a tool.
func (m *message) isCall() bool {
	switch m.recipient {
	case "", "assistant", "user", "system", "developer":
		return false
	}
	return true
}

// keepProse makes the header text s.text[from:to] content when it is not
// only header words (roles, channels, recipients, constraints): a stray
// marker in prose ("Hello <|constrain|> world") must not make the prose
// around it vanish. The markers themselves are dropped.
func (s *scanner) keepProse(from, to int) {
	h := s.text[from:to]
	var prose []string
	for w := range strings.FieldsSeq(stripMarkers(h)) {
		if !vocabularyWord(w) && w != s.msg.recipient {
			prose = append(prose, w)
		}
	}
	switch {
	case len(prose) == 0:
	case s.msg.isCall():
		// A call's header keeps its recipient; words that are no part of
		// a header are the model's text.
		s.addContent(strings.Join(prose, " "))
	default:
		s.addContent(strings.TrimSpace(stripMarkers(h)))
	}
}

func stripMarkers(h string) string {
	if !strings.Contains(h, "<|") {
		return h
	}
	for _, m := range []string{mChannel, mConstrain, mStart} {
		h = strings.ReplaceAll(h, m, " ")
	}
	return h
}

// vocabularyWord reports whether w is a word of harmony headers: a role, a
// channel, a recipient or a constraint.
func vocabularyWord(w string) bool {
	switch w {
	case "assistant", "user", "system", "developer", "tool", "json", "code", "to=":
		return true
	}
	return isChannel(w) || strings.HasPrefix(w, "to=") || strings.HasPrefix(w, "functions.") || specialToken(w)
}

// specialToken reports whether w is a whole special token, "<|…|>" with
// only name characters inside; "<|word" is text, not a token.
func specialToken(w string) bool {
	if len(w) < 5 || !strings.HasPrefix(w, "<|") || !strings.HasSuffix(w, "|>") {
		return false
	}
	return headerWord(w[2 : len(w)-2])
}

func isChannel(w string) bool {
	return w == "analysis" || w == "commentary" || w == "final"
}

// headerLike reports whether text outside a message can be the rest of a
// header the template started: a few words on one line, each a role, a
// recipient or a constraint. Prose before a header marker is content.
func headerLike(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" {
		return true
	}
	if len(t) > 200 || strings.ContainsAny(t, "\r\n") {
		return false
	}
	words := strings.Fields(t)
	if len(words) > 4 {
		return false
	}
	for _, w := range words {
		if !headerWord(w) {
			return false
		}
	}
	return true
}

// headerOpening reports whether text's first word is a header's own (a
// role, a channel, a recipient: vocabularyWord), as the rest of a header a
// template began opens ("analysis", "assistant", " to=functions.f");
// prose that happens to be a few words ("Let me search") is not a header.
func headerOpening(text string) bool {
	for w := range strings.FieldsSeq(text) {
		return vocabularyWord(w)
	}
	return true
}

func headerWord(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == '-' || c == '.' || c == ':' || c == '/' || c == '=' || c == '$') {
			return false
		}
	}
	return true
}

// addContent keeps a piece of content: a body or text between messages,
// without the whitespace that separated it from the markers.
func (s *scanner) addContent(piece string) {
	if t := strings.TrimSpace(piece); t != "" {
		s.content = append(s.content, t)
	}
}

func (s *scanner) addReasoning(piece string) {
	if t := strings.TrimSpace(piece); t != "" {
		s.reasoning = append(s.reasoning, t)
	}
}
