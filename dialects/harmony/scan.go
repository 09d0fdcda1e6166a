package harmony

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/textlayer"
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

// channelName is the message's channel; "analysis<|message|>" names it
// in the role slot.
func (m *message) channelName() string {
	if m.channel == "" && isChannel(m.role) {
		return m.role
	}
	return m.channel
}

// words files the whitespace-separated words of a header segment under the
// part being read. "to=X" anywhere is the recipient; a word after the
// channel name ("commentary json") is the constraint.
func (m *message) words(seg string) {
	for seg != "" {
		i := 0
		for i < len(seg) && textlayer.IsSpace(seg[i]) {
			i++
		}
		j := i
		for j < len(seg) && !textlayer.IsSpace(seg[j]) {
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

// isCall reports whether the message is addressed to a tool. A recipient
// that is a chat role ("to=assistant", on a tool's reply) is not a tool.
func (m *message) isCall() bool {
	switch m.recipient {
	case "", "assistant", "user", "system", "developer":
		return false
	}
	return true
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
