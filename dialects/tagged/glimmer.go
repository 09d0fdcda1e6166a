package tagged

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/inprose"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// Glimmer's message framing (Ollama glimmer models).
const (
	glimmerStart   = "<|start|>"
	glimmerMessage = "<|message|>"
	glimmerEOM     = "<|eom|>"
	glimmerEOT     = "<|eot|>"
	// maxHeaderLen bounds a message header: a role and a recipient.
	maxHeaderLen = 128
)

// glimmerMessages is the frame hook of glimmer. The output is a series of
// messages, each a header naming its recipient and a body:
//
//	to=self<|message|>Check the facts.<|eom|><|start|>assistant to=get_weather<|message|><atem:function_calls>…</atem:function_calls><|eom|>
//
// A body runs to <|eom|>, <|eot|> or the next <|start|>. A message to
// "self" is reasoning; to "user" or "all", or without a recipient, content;
// to anything else, a tool message whose <atem:…> calls are read by the
// engine (a bare JSON body is the arguments of a call to the recipient).
// It reports pending, and reads no further, at a <|message|> that a JSON
// value reading on past the stretch may yet hold in a string.
func glimmerMessages(t *Dialect, text string, opts *dialects.Options, s stretch, ext *dialects.Extraction) (pending bool) {
	*ext = dialects.Extraction{}
	var content, reasoning []string
	// A finished <think> block is reasoning wherever it stands, and what it
	// holds is not read for messages: it ends the text before it. So is
	// the block the template opened, up to its first closing tag.
	think := textcall.ReasoningBlocks(text, s.startsOpen, s.implicit, dialects.Think)
	// A block the template opened (Options.ReasoningOpen) that no closing
	// tag ends runs to the first message: the text before it is reasoning,
	// as dialects.SplitReasoning reads an open block, and streams as such.
	leading := s.startsOpen && (len(think) == 0 || think[0].Start > 0)
	// A <think> the output opened and never closed is read the same way
	// from its tag on: the text up to the first message is reasoning (in
	// every tagged dialect, reasoning that never closes runs on, and what
	// the model does in it counts: here, its messages).
	open := strictjson.UnclosedBlock(text, dialects.Think.Open, dialects.Think.Close)
	if open >= 0 && textcall.Inside(think, open) {
		open = -1
	}
	addContent := func(s string) {
		if s = textlayer.TrimSpace(stripFraming(s)); s == "" {
			return
		}
		if leading {
			reasoning = append(reasoning, s)
		} else {
			content = append(content, s)
		}
	}
	msg, eom, eot, start := newFinder(glimmerMessage), newFinder(glimmerEOM), newFinder(glimmerEOT), newFinder(glimmerStart)
	// marks decides whether a <|message|> stands inside a string of a
	// JSON value written since the last message (strictjson.TagFinder.At):
	// it is then text, and opens no message.
	var marks strictjson.TagFinder
	pos, marksFrom := 0, 0
	for pos < len(text) {
		if pos != marksFrom {
			marks.Reset()
			marksFrom = pos
		}
		m := glimmerNext(&msg, text, pos)
		for m >= 0 {
			if s.shown != nil && s.shown.at(s.src, s.base+m) {
				m = glimmerNext(&msg, text, m+len(glimmerMessage)) // shown, not a message
				continue
			}
			st := marks.At(text[marksFrom:], m-marksFrom, s.final || s.bounded)
			if st == strictjson.TagFound {
				break
			}
			if st == strictjson.TagPending {
				// A value that reads on past the stretch may hold it:
				// what the stretch holds is not known yet.
				return true
			}
			m = glimmerNext(&msg, text, m+len(glimmerMessage)) // text of a value
		}
		for len(think) > 0 && think[0].End <= pos {
			think = think[1:]
		}
		if open >= pos && (m < 0 || open < m) && (len(think) == 0 || open < think[0].Start) {
			addContent(text[pos:open])
			pos, open, leading = open+len(dialects.Think.Open), -1, true
			continue
		}
		if m < 0 && len(think) == 0 {
			break
		}
		if len(think) > 0 && (m < 0 || think[0].Start < m) {
			b := think[0]
			addContent(text[pos:b.Start])
			// The template's block has no opening tag; a written one is
			// dropped.
			r := strings.TrimSpace(text[b.Start : b.End-len(dialects.Think.Close)])
			if r = strings.TrimSpace(strings.TrimPrefix(r, dialects.Think.Open)); r != "" {
				reasoning = append(reasoning, r)
			}
			pos, think = b.End, think[1:]
			continue
		}
		header := text[pos:m]
		if s := glimmerLastStart(header); s >= 0 {
			addContent(header[:s])
			header = header[s+len(glimmerStart):]
		}
		recipient, ok := glimmerRecipient(header)
		if !ok {
			addContent(header)
		} else {
			ext.Marked = true
			if f := strings.Fields(header); len(f) == 2 && !glimmerRole(f[0]) {
				addContent(f[0]) // a word that is no role is the model's text, before the message
			}
			leading = false
		}
		bodyStart := m + len(glimmerMessage)
		bodyEnd, next := len(text), len(text)
		for _, f := range []*finder{&eom, &eot, &start} {
			if i := glimmerNext(f, text, bodyStart); i >= 0 && i < bodyEnd {
				bodyEnd, next = i, i
				if f != &start {
					next = i + len(f.lit)
				}
			}
		}
		for len(think) > 0 && think[0].End <= bodyStart {
			think = think[1:]
		}
		if len(think) > 0 && think[0].Start >= bodyStart && think[0].Start < bodyEnd {
			bodyEnd, next = think[0].Start, think[0].Start
		}
		if bodyEnd == len(text) {
			// The output ends inside the token that ends the message.
			if k := strings.LastIndexByte(text[bodyStart:], '<'); k > 0 && strings.TrimSpace(text[bodyStart:bodyStart+k]) != "" && cutoff.Marker(text[bodyStart+k:], glimmerEOM, glimmerEOT) {
				bodyEnd = bodyStart + k
			}
		}
		body := text[bodyStart:bodyEnd]
		switch recipient {
		case "", "user", "all", "assistant":
			addContent(body)
		case "self":
			if r := strings.TrimSpace(body); r != "" {
				reasoning = append(reasoning, r)
			}
		default:
			sub := &dialects.Extraction{}
			t.extract(body, bodyStart, opts, &stretch{implicit: dialects.ImplicitReasoning("", nil, opts), final: true, shown: s.shown, src: s.src, base: s.base}, sub)
			ext.Marked = ext.Marked || sub.Marked
			if !extracted(sub.Calls) {
				if _, ok := glimmerJSONCall(recipient, body, bodyStart, false); !ok || len(sub.Calls) > 0 {
					// A message to a recipient that holds no call (or
					// only calls that failed): its header is text too,
					// not lost markup.
					addContent(header)
				}
			}
			if len(sub.Calls) == 0 {
				if rc, ok := glimmerJSONCall(recipient, body, bodyStart, next == len(text) && bodyEnd == len(text)); ok {
					sub.Calls, sub.Content = append(sub.Calls, rc), ""
				}
			}
			ext.Calls = append(ext.Calls, sub.Calls...)
			addContent(sub.Content)
			if sub.Reasoning != "" {
				reasoning = append(reasoning, sub.Reasoning)
			}
		}
		pos = next
	}
	if pos < len(text) {
		addContent(text[pos:])
	}
	ext.Content = strings.Join(content, "\n")
	ext.Reasoning = strings.Join(reasoning, "\n")
	ext.Marked = ext.Marked || containsAny(text, t.desc.Evidence)
	return false
}

// glimmerRole reports whether w is a role word of a glimmer header.
func glimmerRole(w string) bool {
	switch w {
	case "assistant", "user", "system", "developer", "tool":
		return true
	}
	return false
}

// glimmerRecipient reads a header: an optional role word and to=RECIPIENT.
func glimmerRecipient(header string) (string, bool) {
	h := strings.TrimSpace(header)
	if h == "" || len(h) > maxHeaderLen {
		return "", false
	}
	fields := strings.Fields(h)
	last := fields[len(fields)-1]
	if len(fields) > 2 || !strings.HasPrefix(last, "to=") || strings.ContainsAny(last, "<>|") {
		return "", false
	}
	r := strings.TrimPrefix(last, "to=")
	return strings.TrimPrefix(r, "functions."), r != ""
}

// glimmerJSONCall reads a tool message whose body is JSON arguments, or
// empty, as a call to the recipient. atEnd reports that the output ends
// inside the body: an empty body there is a call cut before its arguments.
func glimmerJSONCall(recipient, body string, offset int, atEnd bool) (dialects.RawCall, bool) {
	b := strings.TrimSpace(body)
	if b != "" && b[0] != '{' {
		return dialects.RawCall{}, false
	}
	rc := dialects.RawCall{Name: recipient, Arguments: b, Offset: offset, AtEnd: atEnd}
	if atEnd && b == "" {
		e := cutoff.Error("inside a glimmer call message, before its arguments")
		e.Offset = offset
		rc.Err = e
	}
	return rc, true
}

// stripFraming removes glimmer's framing tokens from content, but for
// those inside a string of a JSON value (strictjson.TagFinder.At) or
// shown in the content (inline code, a quotation, a code fence:
// shown.ShownScan.ShownAt), which are text.
func stripFraming(s string) string {
	if !strings.Contains(s, "<|") {
		return s
	}
	for _, tok := range []string{glimmerStart, glimmerEOM, glimmerEOT, glimmerMessage} {
		var b strings.Builder
		var marks strictjson.TagFinder
		var shownScan shown.ShownScan
		from := 0
		for {
			i := strings.Index(s[from:], tok)
			if i < 0 {
				break
			}
			i += from
			end := i + len(tok)
			b.WriteString(s[from:i])
			if inprose.TokenNamed(s, i, end) || marks.At(s, i, true) == strictjson.TagNone || shownScan.ShownAt(s, i) {
				b.WriteString(tok) // a token named in a sentence, in a string or shown is a word
			}
			from = end
		}
		b.WriteString(s[from:])
		s = b.String()
	}
	return s
}

// glimmerNext is f.next skipping tokens named in prose (a word and a
// blank before, a blank and a word after: "the <|message|> token starts
// it"; a group of tokens in a sentence, a list: inprose.TokenNamed),
// which are words of the sentence, not framing.
func glimmerNext(f *finder, text string, from int) int {
	for {
		i := f.next(text, from)
		if i < 0 || !inprose.TokenNamed(text, i, i+len(f.lit)) {
			return i
		}
		from = i + len(f.lit)
	}
}

// glimmerLastStart is the last <|start|> in header that is not named in a
// sentence, or -1.
func glimmerLastStart(header string) int {
	for end := len(header); ; {
		s := strings.LastIndex(header[:end], glimmerStart)
		if s < 0 || !inprose.TokenNamed(header, s, s+len(glimmerStart)) {
			return s
		}
		end = s
	}
}

// extracted reports whether one of calls was extracted without an error.
func extracted(calls []dialects.RawCall) bool {
	for _, c := range calls {
		if c.Err == nil {
			return true
		}
	}
	return false
}
