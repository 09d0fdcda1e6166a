// Package jsontext is the engine of the dialects that read JSON call
// envelopes in free text: json (bare envelopes and lists, fenced or not)
// and markdown_json (fenced only). It reads an output in one pass, as it
// arrives (dialects.Reader): a candidate is decided by its framing and
// what precedes it, looking ahead no further than the end of its own
// region or line, by the table of what is a call (textlayer.Decide): a
// bare value at the end of its line, a value of a fence the table reads
// calls in at the byte after it (readBody), any other fence at its close.
package jsontext

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callname"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/rawcall"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/sofar"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// Config is what sets one dialect of the family apart.
type Config struct {
	// Bare says a JSON value in the text is a candidate call (the json
	// dialect), and the answer text is trimmed as a whole; otherwise only
	// a fence is, and the text around the fences taken out is rejoined
	// (textcall.Rejoin).
	Bare bool
}

// The tags of the reasoning block the family reads.
var think = dialects.Think

// modes of a reader: what the bytes at its read offset are.
const (
	// undecided: neither Options.ReasoningOpen nor ReasoningClosed is
	// set and the output has not opened with a call, so a closing tag
	// before any opening one would make everything before it reasoning
	// (dialects.ImplicitReasoning): the text is held until a tag
	// decides, or the output ends.
	undecided = iota
	// reasoning: inside a reasoning block.
	reasoning
	// content: answer text, where a candidate or a reasoning block may
	// open.
	content
	// fence: inside a code fence, held until it closes.
	fence
	// value: inside a bare JSON value, held until it closes and its line
	// says where it stands.
	value
)

// reader is the family's Reader.
type reader struct {
	cfg  *Config
	opts *dialects.Options
	tc   *textcall.Reader // reads fence bodies; counts failed repairs
	out  []dialects.Piece
	outs [4]dialects.Piece // out's first array

	// buf is the output so far, cur its text, read up to at (an offset
	// in the output).
	buf  sofar.Output
	cur  string
	at   int
	mode uint8

	// undecided, reasoning: the tags in cur[at:], found as IndexTag finds
	// them (a tag a JSON string holds is text), and how much of a
	// reasoning block went out (cur[at:at+sent]).
	open, close strictjson.TagFinder
	sent        int

	// content: tags decides whether a <think> found in answer text stands
	// inside a string of a JSON value (text, strictjson.TagFinder.At), in
	// the text from offset tagsFrom of the output on.
	tags     strictjson.TagFinder
	tagsFrom int

	scan textlayer.FenceScan
	// A fence whose label the table reads calls under, and that the
	// prose before it does not present as an example, is read as its
	// body arrives (early): fstate says how the fence is read, fb where
	// its body is read next and fnoted how much of it was noted (both
	// from the fence's start), fvs scans the value at fb, flist says a
	// list the body opened is being read, claimed that a call of the
	// fence went out, and fline that a line of text in it is being
	// returned, lastCall that the last thing read in it was a call.
	fstate   uint8
	fb       int
	fnoted   int
	fvs      jsonscan.ValueScan
	fvsOn    bool
	flist    bool
	claimed  bool
	fline    bool
	lastCall bool
	vs       jsonscan.ValueScan
	ev       jsonscan.ValueScan // the list element being read
	elem     int                // where the next list element is looked for
	early    int                // list elements returned as calls as they closed
	body     int                // a fence read inside: its closing run in the output, or -1
	bodyEnd  int                // and the end of that run
	calls    int                // calls returned
	// A value that opens the output written {"name": "…", "arguments":
	// {… in that order ends as a call or a failed call whatever follows
	// (own): ann reads its header, and once it is announced
	// (PieceCallStart), args finds the end of its arguments, sent as
	// they arrive (PieceArguments) up to argsAt.
	ann      callobject.Header
	annState uint8
	args     jsonscan.ValueScan
	argsAt   int
	stop     bool // no more list elements are returned so
	mark     bool
	opens    bool // bare: nothing but blanks, separators and own calls so far
	run      bool // bare: a call was taken and only separators followed
	// The answer text read so far, and the scan that tells whether a
	// candidate at its end (a bare value, or a fence) is shown (inline
	// code, a quotation, a fence of code or of an example:
	// shown.ShownScan), told the bare calls taken in it. While the answer text is one stretch of the
	// output, cur[seenFrom:seenTo], nothing is copied; once a reasoning
	// block cuts it, it is kept in seen (seenCopy).
	seenFrom, seenTo int
	seenCopy         bool
	seen             []byte
	shown            shown.ShownScan

	// The answer text: trailing blanks are held until text follows them.
	// rejoin drops the blanks after the start, a reasoning block or a
	// call fence taken out (textcall.Rejoin); cut says a call fence was
	// taken out and no text followed yet: the text on both sides is
	// rejoined.
	rejoin  textcall.Rejoin
	cut     bool
	any     bool   // answer text was returned
	started bool   // reasoning text returned in the current block
	blanks  []byte // answer blanks held
	rblanks []byte // reasoning blanks held

	// The prose a candidate follows (shown.PresentedAsExample): the
	// last line with text that opens no fence, and the current line so
	// far. The prose is a part of the text read (prose), or, when its
	// line arrived in pieces, a copy of line kept in a buffer reused from
	// line to line (proseBuf); the other one is empty.
	prose    string
	proseBuf []byte
	line     []byte
}

// NewReader returns a Reader of one output of the dialect c describes.
func NewReader(c *Config, opts *dialects.Options) dialects.Reader {
	if opts == nil {
		opts = &dialects.Options{}
	}
	r := &reader{cfg: c, opts: opts, mode: content, body: -1, opens: true}
	r.out = r.outs[:0]
	switch {
	case opts.ReasoningOpen:
		r.mode = reasoning
	case !opts.ReasoningClosed:
		r.mode = undecided
	}
	return r
}

// Text returns the output given so far (dialects.TextReader).
func (r *reader) Text() string { return r.buf.Text() }

// Write reads the output's next bytes.
func (r *reader) Write(delta string) []dialects.Piece {
	r.out = r.out[:0]
	if text, ok := r.buf.Write(delta); ok {
		r.cur = text
		r.step(false)
	}
	return r.out
}

// Close ends the output.
func (r *reader) Close() []dialects.Piece {
	r.out = r.out[:0]
	if _, ok := r.buf.Close(); ok {
		r.step(true)
	}
	return r.out
}

// step reads what it can of cur[at:]; final says the output ended.
func (r *reader) step(final bool) {
	for {
		var more bool
		switch r.mode {
		case undecided:
			more = r.undecided(final)
		case reasoning:
			more = r.reasoning(final)
		case content:
			more = r.content(final)
		case fence:
			more = r.fence(final)
		default:
			more = r.value(final)
		}
		if !more {
			break
		}
	}
}

// undecided reads text held while a closing tag may still make it
// reasoning; it reports whether the mode changed.
func (r *reader) undecided(final bool) bool {
	s := r.cur[r.at:]
	t := strings.TrimLeft(s, " \t\r\n")
	if r.cfg.Bare && t != "" && (t[0] == '{' || t[0] == '[') {
		r.mode = content // the output opens with a call: no block is open
		return true
	}
	switch opens, known := fenceOpensCall(t, final); {
	case !known:
		return false
	case opens:
		r.mode = content // the output opens with a call: no block is open
		return true
	}
	o, os := r.open.Find(s, think.Open, final)
	c, cs := r.close.Find(s, think.Close, final)
	switch {
	case cs == strictjson.TagFound && (os == strictjson.TagNone || c < o):
		r.reason(s[:c])
		r.endBlock(c + len(think.Close))
	case os == strictjson.TagFound && (cs == strictjson.TagNone || o < c), final:
		r.mode = content // read as answer text from the start
		r.open.Reset()
		r.close.Reset()
	default:
		return false
	}
	return true
}

// fenceOpensCall reports whether t, the output from its first byte that is
// not a blank, opens with a fence whose label names JSON or a call
// (textlayer.LabelOf): a call, so no reasoning block the template opened
// is open. An unlabelled fence may hold anything and says nothing. known
// is false while the text so far does not tell.
func fenceOpensCall(t string, final bool) (opens, known bool) {
	if t == "" || !textlayer.IsFenceByte(t[0]) {
		return false, true
	}
	n := textlayer.RunEnd(t, 0, len(t))
	if n < 3 || !textlayer.IsFenceAt(t, 0, len(t)) {
		return false, n < len(t) || final
	}
	info, known := textlayer.InfoAt(t, n, final)
	if !known {
		return false, false
	}
	l := textlayer.LabelOf(info)
	return l == textlayer.JSON || l == textlayer.CallLabel, true
}

// reasoning reads a reasoning block up to its closing tag. The block is
// kept from its start (at) until the tag is found, for the tag's search;
// its text goes out as it arrives, up to a tag that more text may yet
// show inside a string.
func (r *reader) reasoning(final bool) bool {
	s := r.cur[r.at:]
	c, cs := r.close.Find(s, think.Close, final)
	upTo := c
	switch {
	case cs == strictjson.TagFound:
		r.reason(s[r.sent:c])
		r.endBlock(c + len(think.Close))
		return true
	case final:
		r.reason(s[r.sent:])
		r.at, r.rblanks, r.started = len(r.cur), r.rblanks[:0], false
		r.sent = 0
		r.close.Reset()
		return false
	case cs == strictjson.TagNone:
		upTo = textlayer.CutLiteral(s, 0, think.Close)
	}
	if upTo > r.sent {
		r.reason(s[r.sent:upTo])
		r.sent = upTo
	}
	return false
}

// endBlock ends a reasoning block whose closing tag ends at cur[at+n].
func (r *reader) endBlock(n int) {
	r.at += n
	r.rblanks, r.started, r.sent = r.rblanks[:0], false, 0
	r.open.Reset()
	r.close.Reset()
	r.mode = content
	r.rejoin.Cut(false)
	// A value of the block holds no tag of the text after it.
	r.tags.Reset()
	r.tagsFrom = r.at
}

// content reads answer text up to a candidate or a reasoning block.
func (r *reader) content(final bool) bool {
	s := r.cur[r.at:]
	limit, specials := len(s), &fenceStarts
	if r.cfg.Bare {
		specials = &candidateStarts
	}
	if r.body >= 0 {
		// Inside a fence read for values, up to its closing run.
		limit, specials = r.body-r.at, &valueStarts
	}
	for k := 0; ; k++ {
		i := specials.Index(s[k:limit])
		if i < 0 {
			if limit < len(s) {
				e := r.bodyEnd - r.at
				r.text(s[:e])
				r.at += e
				r.body = -1
				return true
			}
			if !final {
				// A character cut by the end of what arrived is read
				// whole, with the bytes that complete it.
				s = s[:len(s)-textlayer.IncompleteTail(s)]
			}
			r.text(s)
			r.at += len(s)
			return false
		}
		k += i
		switch c := s[k]; {
		case c == '{' || c == '[':
			if c == '[' {
				j := k + 1
				for j < limit && textlayer.IsSpace(s[j]) {
					j++
				}
				if j == len(s) && limit == len(s) && !final {
					r.text(s[:k]) // the list's first element is still to come
					r.at += k
					return false
				}
				if j == limit || s[j] != '{' {
					continue // "[1]", "[see below]": text
				}
			}
			r.text(s[:k])
			r.at += k
			r.mode, r.vs = value, jsonscan.ValueScan{}
			r.elem, r.early, r.stop = 1, 0, c != '[' || !r.settled()
			r.ann, r.annState = callobject.Header{}, annReading
			if c != '{' || !r.opens || r.body >= 0 {
				r.annState = annNot
			}
			return true
		case strings.HasPrefix(s[k:], think.Open):
			switch r.tagAt(r.at+k, final) {
			case strictjson.TagNone:
				continue // inside a string of a JSON value: text
			case strictjson.TagPending:
				r.text(s[:k]) // a value may yet hold it: it waits
				r.at += k
				return false
			}
			r.text(s[:k])
			r.at += k + len(think.Open)
			r.mode, r.sent = reasoning, 0
			r.close.Reset()
			return true
		case textlayer.OpensFence(s, k, len(s), c == '~' && r.lineStart(s, k)):
			r.text(s[:k])
			r.at += k
			r.mode, r.scan = fence, textlayer.FenceScan{}
			r.fstate, r.fvsOn, r.flist, r.claimed, r.fline = fenceOpening, false, false, false, false
			return true
		case !final && textlayer.CutLiteral(s[k:], 0, think.Open) == 0, !final && c != '<' && len(s)-k < 3 && strings.Trim(s[k:], s[k:k+1]) == "":
			r.text(s[:k]) // the delta ends inside a tag or a fence's opening run
			r.at += k
			return false
		}
	}
}

// tagAt says whether the <think> at cur[i] opens a block (TagFound), stands
// inside a string of a JSON value written before it (TagNone: text), or
// may yet turn out to (TagPending): the rule of strictjson.IndexTag.
func (r *reader) tagAt(i int, final bool) strictjson.TagState {
	return r.tags.At(r.cur[r.tagsFrom:], i-r.tagsFrom, final)
}

// The bytes where answer text may stop: a reasoning tag or a fence
// (fenceStarts), and a bare value too (candidateStarts); inside a fence
// read for values, a value (valueStarts).
var (
	fenceStarts     = textlayer.ByteSetOf("<`~")
	candidateStarts = textlayer.ByteSetOf("<`~{[")
	valueStarts     = textlayer.ByteSetOf("{[")
)

// lineStart reports whether only up to textlayer.MaxFenceIndent spaces
// stand between the start of the current line and s[k], s the text from
// at on and r.line the line before at; it looks back no further than
// those spaces.
func (r *reader) lineStart(s string, k int) bool {
	j := k
	for j > 0 && k-j <= textlayer.MaxFenceIndent && s[j-1] == ' ' {
		j--
	}
	if n := k - j; j > 0 || n+len(r.line) > textlayer.MaxFenceIndent {
		return j > 0 && n <= textlayer.MaxFenceIndent && s[j-1] == '\n'
	}
	return strings.Trim(string(r.line), " ") == ""
}

// fence reads a fence: as its body arrives (early) while it holds
// calls, once it closes otherwise.
func (r *reader) fence(final bool) bool {
	s := r.cur[r.at:]
	f, ok := r.scan.Next(s, final)
	if r.fstate != fenceWhole && r.readBody(s, f, ok) {
		return true
	}
	if !ok {
		return false
	}
	region := s[:f.End]
	r.mode = content
	label := textlayer.LabelOf(f.Info)
	tools := r.opts.Tools != nil && r.opts.Tools.Len() > 0
	if textlayer.Decide(textlayer.Fenced, label, textlayer.OwnLine, tools, textlayer.JSONFamily) == textlayer.Content {
		r.text(region) // a program, or a label calls are not written under
		r.at += f.End
		return true
	}
	if !r.cfg.Bare {
		var calls []dialects.RawCall
		if !r.example() && !r.shownHere() {
			if r.tc == nil {
				r.tc = textcall.NewReader("", r.opts)
			}
			r.tc.Text = region
			var used int
			calls, used, ok = r.tc.Framed(f.BodyStart, f.BodyEnd, true)
			if ok && textcall.SkipSpace(region, used, f.BodyEnd) != f.BodyEnd {
				textcall.NoteStrayClosers(calls)
			}
		}
		if !ok || len(calls) == 0 {
			r.text(region)
			r.at += f.End
			return true
		}
		// A fence holding nothing but call objects is this dialect's own
		// syntax, even when a call then fails its checks: detection keeps
		// the failure, which a retry needs, instead of calling it content.
		r.marked()
		r.note(region)
		r.cutJoin()
		r.take(calls, region, r.at)
		r.at += f.End
		return true
	}
	// A fence around one value alone is decided by its label, as a call
	// of the fence; one that holds more is read inside, unless the prose
	// before it presents it as an example.
	if r.example() || r.shownHere() {
		r.opens, r.run = false, false
		r.text(region)
		r.at += f.End
		return true
	}
	v := textcall.SkipSpace(region, f.BodyStart, f.BodyEnd)
	if v < f.BodyEnd && (region[v] == '{' || region[v] == '[') {
		end, complete := jsonscan.ValueEnd(region[:f.BodyEnd], v)
		stray := strayAfter(region[:f.BodyEnd], end)
		if textcall.SkipSpace(region, stray, f.BodyEnd) == f.BodyEnd {
			r.opens, r.run = false, false
			var calls []dialects.RawCall
			if complete || !f.Closed {
				calls = valueCalls(region[v:end], r.at+v, r.opts, 0)
				if !embedded(calls, r.opts) {
					calls = nil
				}
			}
			if calls == nil {
				r.text(region)
				r.at += f.End
				return true
			}
			if stray > end {
				textcall.NoteStrayClosers(calls)
			}
			r.note(region)
			r.told(len(region))
			r.blanks = r.blanks[:0] // the line break before the fence goes with it
			r.take(calls, region, r.at)
			r.at += f.End
			r.run = true
			return true
		}
	}
	r.text(region[:f.BodyStart])
	r.at += f.BodyStart
	r.body, r.bodyEnd = r.at+f.BodyEnd-f.BodyStart, r.at+f.End-f.BodyStart
	return true
}

// value reads a bare value once it closes and its line says where it
// stands.
func (r *reader) value(final bool) bool {
	s := r.cur[r.at:]
	limit := len(s)
	if r.body >= 0 {
		// Inside a fence read for values: its closing run ends the text.
		limit, final = r.body-r.at, true
	}
	r.elements(s[:limit])
	if r.annState != annNot {
		r.announce(s[:limit])
	}
	end, complete := r.vs.Next(s[:limit])
	if !complete && !final || !decided(s[:limit], end) && !final {
		return false
	}
	stray := strayAfter(s[:limit], end)
	to := max(end, stray)
	start := r.at
	tools := r.opts.Tools != nil && r.opts.Tools.Len() > 0
	floor := -1
	if r.opens {
		floor = start
	}
	place := textlayer.PlaceOf(r.cur[:r.at+limit], floor, start, start+to)
	var calls []dialects.RawCall
	own := false
	switch {
	case r.opens && (place == textlayer.Opens || r.run):
		// Values that open the output, alone on their lines or in a run,
		// are the dialect's own syntax: a call in them is a call even
		// when it then fails its checks.
		calls = valueCalls(s[:end], start, r.opts, r.early)
		own = calls != nil
	case r.run || r.called(start, to, place, tools):
		calls = valueCalls(s[:end], start, r.opts, r.early)
		if len(calls) > 0 && !embedded(calls, r.opts) && r.annState != annSent {
			calls = nil
		}
	}
	if calls == nil && r.annState == annSent {
		// Announced: a call, if a failed one.
		calls, own = []dialects.RawCall{r.unreadable(s[:end], start, complete)}, r.opens
	}
	if calls == nil {
		r.opens, r.run = false, false
		if s[0] == '[' {
			r.inside(s[:end], r.early > 0 || r.called(start, to, place, tools))
		} else {
			r.shownText(s[:end])
		}
		r.at += end
		r.mode = content
		return true
	}
	if own {
		r.marked()
		r.blanks = r.blanks[:0] // the separators before it are punctuation
	} else {
		r.opens = false
	}
	if stray > end {
		textcall.NoteStrayClosers(calls)
	}
	r.note(s[:to])
	r.told(to)
	r.take(calls, s[:to], start)
	r.at += to
	r.mode, r.run = content, true
	return true
}

// The states of the reading of a value's header (reader.ann).
const (
	annReading = iota // the header is read as it arrives
	annSent           // the call was announced
	annNot            // the value is not announced
)

// announce reads the value s (the text from its '{' so far) that opens
// the output: once its header (callobject.Header) is read, with arguments
// that are an object and, with tools declared, a name that is one of
// them, the value ends as a call or a failed call whatever follows, on
// its line or after: where it stands decides no more than whether a call
// that names a declared tool or has arguments is one, which it is (the
// table of what is a call), and a value that cannot be read is the failed
// call unreadable makes. The call is announced (PieceCallStart) and its
// argument text goes out as it arrives (PieceArguments).
func (r *reader) announce(s string) {
	if r.annState == annReading {
		at, ok, more := r.ann.Next(s)
		if more {
			return
		}
		n0, n1 := r.ann.Name()
		if !ok || s[at] != '{' || r.opts.Tools != nil && r.opts.Tools.Len() > 0 && !declared(s[n0:n1], r.opts) {
			r.annState = annNot
			return
		}
		r.annState, r.args, r.argsAt = annSent, jsonscan.ValueScan{Start: at}, at
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCallStart, Index: r.calls, Name: s[n0:n1]})
	}
	if r.argsAt < 0 {
		return // the arguments were sent whole
	}
	end, complete := r.args.Next(s)
	if end > r.argsAt {
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceArguments, Index: r.calls, Text: s[r.argsAt:end]})
		r.argsAt = end
	}
	if complete {
		r.argsAt = -1
	}
}

// declared reports whether name is one of the tools declared.
func declared(name string, opts *dialects.Options) bool {
	_, _, e := callname.Check(name, opts.Tools)
	return e == nil
}

// unreadable returns the failed call of an announced value, v at offset
// at of the output, that cannot be read as a call object: TLP-014 when
// the output ends inside it, TLP-019 otherwise.
func (r *reader) unreadable(v string, at int, complete bool) dialects.RawCall {
	n0, n1 := r.ann.Name()
	rc := dialects.RawCall{Name: v[n0:n1], Offset: at, AtEnd: !complete}
	if !complete {
		rc.Err = cutoff.Error("inside the call object that opens the output")
	} else {
		rc.Err = toolcall.NewError(toolcall.CodeMalformedCall, "the call object that opens the output names its tool before its arguments but is not JSON that can be read")
	}
	return rc
}

// settled reports whether the list that opens at cur[at] is a call
// wherever its line goes on: it opens the output, or a colon introduces it
// (the table reads a call there whatever follows it on its line).
func (r *reader) settled() bool {
	floor := -1
	if r.opens {
		floor = r.at
	}
	pl := textlayer.PlaceOf(r.cur[:r.at+1], floor, r.at, r.at+1)
	tools := r.opts.Tools != nil && r.opts.Tools.Len() > 0
	return (pl == textlayer.Opens || pl == textlayer.AfterColon) && r.called(r.at, 1, pl, tools)
}

// elements returns, as they close, the elements of a list whose place is
// settled and that are calls wherever the list turns out to stand: an
// element that is a call by itself (named, with arguments, or naming a
// declared tool) and that another element follows is one in the list.
// The first element that is not stops them; the list decides the rest
// when it closes.
func (r *reader) elements(s string) {
	for !r.stop {
		p := r.elem
		for p < len(s) && (textlayer.IsSpace(s[p]) || s[p] == ',') {
			p++
		}
		if r.elem = p; p == len(s) {
			return
		}
		if s[p] != '{' {
			r.stop = true
			return
		}
		if r.ev.Start != p {
			r.ev = jsonscan.ValueScan{Start: p}
		}
		e, ok := r.ev.Next(s)
		if !ok {
			return
		}
		// The last element waits for the list: closing brackets too many
		// after it are noted on it.
		q := e
		for q < len(s) && textlayer.IsSpace(s[q]) {
			q++
		}
		if q == len(s) {
			return
		}
		if s[q] != ',' {
			r.stop = true
			return
		}
		rc, ok := callObject(s[p:e], r.at+p, r.opts)
		calls := []dialects.RawCall{rc}
		if !ok || !embedded(calls, r.opts) {
			r.stop = true
			return
		}
		r.take(calls, s[p:e], 0)
		r.early++
		r.elem = e
	}
}

// inside reads a list that is not calls as a whole: each element that
// is a call object is read as a bare value standing where the list stands
// (called says whether the table reads a call there), the rest is text.
func (r *reader) inside(s string, called bool) {
	p, k := 1, 0
	r.text(s[:1])
	for p < len(s) {
		q := p
		for p < len(s) && (textlayer.IsSpace(s[p]) || s[p] == ',') {
			p++
		}
		r.text(s[q:p])
		if p == len(s) {
			return
		}
		if s[p] != '{' {
			r.shownText(s[p:])
			return
		}
		e, _ := jsonscan.ValueEnd(s, p)
		switch {
		case k < r.early:
			r.note(s[p:e]) // returned as it closed
			r.told(e - p)
		default:
			rc, ok := callObject(s[p:e], r.at+p, r.opts)
			if calls := []dialects.RawCall{rc}; called && ok && embedded(calls, r.opts) {
				r.note(s[p:e])
				r.told(e - p)
				r.take(calls, s[p:e], 0)
			} else {
				r.shownText(s[p:e])
			}
		}
		p, k = e, k+1
	}
}

// decided reports whether the line of a value that ends at s[end] says
// where it stands: a line break, text, or the next value of a run follows
// it (textlayer.PlaceOf reads no further).
func decided(s string, end int) bool {
	sep := false
	for i := end; i < len(s); i++ {
		switch c := s[i]; {
		case c == ',' || c == ';':
			sep = true
		case c == ' ' || c == '\t' || c == '\r' || c == '}' || c == ']' || c == '`':
		case sep && (c == '{' || c == '['):
			return true
		default:
			return true // a line break or text
		}
	}
	return false
}

// called reports whether a bare value cur[start:start+to], standing at
// place, is a call by the table of what is a call, not shown by what
// precedes it (shown.ShownScan: inside inline code, a quotation in a
// sentence, a fence of code or of an example), and not presented as an
// example.
func (r *reader) called(start, to int, place textlayer.Place, tools bool) bool {
	if textlayer.Decide(textlayer.Envelope, textlayer.Unlabelled, place, tools, textlayer.JSONFamily) == textlayer.Content {
		return false
	}
	seen := r.answerText()
	return !r.shown.ShownAt(seen, len(seen)) && !r.example()
}

// strayAfter returns the end of the closing brackets that follow s[:end]
// on its line, blanks between them allowed, or end when none do.
func strayAfter(s string, end int) int {
	after := end
	for j := end; j < len(s); j++ {
		switch s[j] {
		case ' ', '\t':
			continue
		case ']', '}':
			after = j + 1
			continue
		}
		break
	}
	return after
}

// take returns calls read out of region, at offset at of the output.
func (r *reader) take(calls []dialects.RawCall, region string, at int) {
	rawcall.KeepText(calls, region)
	for i := range calls {
		c := &calls[i]
		if !r.cfg.Bare {
			c.Offset = shifted(c.Offset, at)
			if e := coded.As(c.Err); e != nil {
				e.Offset = shifted(e.Offset, at)
			}
		}
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceCall, Index: r.calls, Call: c})
		r.calls++
	}
}

// marked says, once, that the dialect's own syntax was read.
func (r *reader) marked() {
	if !r.mark {
		r.mark = true
		r.out = append(r.out, dialects.Piece{Kind: dialects.PieceMarked})
	}
}

// shifted shifts an offset in a fence to the output; -1 stays unknown.
func shifted(offset, shift int) int {
	if offset < 0 {
		return offset
	}
	return offset + shift
}

// example reports whether the prose right before the candidate that
// opens here presents it as an example (shown.PresentedAsExample).
func (r *reader) example() bool {
	w := r.prose + string(r.proseBuf) + "\n" + string(r.line)
	return shown.PresentedAsExample(w, len(w))
}

// shownHere reports whether what precedes the candidate that opens here
// (a fence) shows it rather than makes a call with it: inline code or a
// quotation open there (shown.ShownScan.ShownAt).
func (r *reader) shownHere() bool {
	seen := r.answerText()
	return r.shown.ShownAt(seen, len(seen))
}

// minSeen is the room first made for the answer text a reader keeps.
const minSeen = 256

// maxLine bounds the part of a line kept for example: the end of the
// sentence that introduces a candidate.
const maxLine = 1 << 10

// note reads the lines of s, answer text or a candidate, for example
// (only the last line with text and the current line are kept) and for
// what a later candidate may be shown in.
func (r *reader) note(s string) {
	last := strings.LastIndexByte(s, '\n')
	r.seeAnswer(s)
	if last < 0 {
		r.line = appendRoom(r.line, s)
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
		if l := strings.TrimSpace(s[b+1 : e]); isProse(l) {
			r.prose, r.proseBuf, found = l[max(0, len(l)-maxLine):], r.proseBuf[:0], true
		}
		e = b
	}
	if !found {
		r.line = appendRoom(r.line, s[:first])
		if l := bytes.TrimSpace(r.line); isProse(l) {
			r.prose, r.proseBuf = "", append(r.proseBuf[:0], l[max(0, len(l)-maxLine):]...)
		}
	}
	r.line = appendRoom(r.line[:0], s[last+1:])
}

// seeAnswer adds s, the answer text read next, a part of cur, to the
// answer text read so far: the stretch of the output it is grows while s
// goes on from its end; otherwise the text is copied, from then on.
func (r *reader) seeAnswer(s string) {
	if s == "" {
		return
	}
	if !r.seenCopy {
		off := int(uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(r.cur))))
		switch {
		case off < 0 || off > len(r.cur)-len(s):
			// Not a part of cur: copied.
		case r.seenTo == 0:
			r.seenFrom, r.seenTo = off, off+len(s)
			return
		case off == r.seenTo:
			r.seenTo += len(s)
			return
		}
		r.seenCopy = true
		r.seen = append(make([]byte, 0, 2*(r.seenTo-r.seenFrom)+max(len(s), minSeen)), r.cur[r.seenFrom:r.seenTo]...)
	}
	if n := len(r.seen); cap(r.seen)-n < len(s) {
		r.seen = append(make([]byte, 0, 2*n+max(len(s), minSeen)), r.seen...) // doubling, from a line's worth
	}
	r.seen = append(r.seen, s...)
}

// answerText returns the answer text read so far (seeAnswer).
func (r *reader) answerText() string {
	if !r.seenCopy {
		return r.cur[r.seenFrom:r.seenTo]
	}
	return unsafe.String(unsafe.SliceData(r.seen), len(r.seen)) // appended to only: a view stays as it was
}

// told tells the shown scan that the last n bytes noted are a call: the
// backticks in it open no inline code.
func (r *reader) told(n int) {
	if r.cfg.Bare {
		n0 := len(r.answerText())
		r.shown.Call(n0-n, n0)
	}
}

// isProse reports whether l, a line trimmed of its blanks, is one a
// next candidate follows as its prose: it has text and opens no fence.
func isProse[T string | []byte](l T) bool {
	return len(l) > 0 && !textlayer.FenceLine(l)
}

// minLine is the least room a reader makes for a line it keeps, so that
// a line that arrives in small pieces does not grow by append's steps.
const minLine = 128

// appendRoom appends s to b; a line that goes on past its first piece
// gets room for at least minLine bytes.
func appendRoom(b []byte, s string) []byte {
	if len(b) > 0 && len(b)+len(s) > cap(b) && cap(b) < minLine {
		b = append(make([]byte, 0, max(minLine, 2*(len(b)+len(s)))), b...)
	}
	return append(b, s...)
}

// text returns s, read in the answer, as answer text.
func (r *reader) text(s string) {
	if s == "" {
		return
	}
	if r.cfg.Bare && (r.opens || r.run) {
		if strings.Trim(s, " \t\r\n,;") != "" {
			r.opens, r.run = false, false
		} else if r.opens {
			// Separators between the values that open the output are
			// their punctuation, held until text shows they are not.
			r.note(s)
			r.blanks = append(r.blanks, s...)
			return
		}
	}
	r.note(s)
	r.answer(s)
}

// shownText returns s, a candidate that is not a call, as answer text.
func (r *reader) shownText(s string) {
	r.note(s)
	r.answer(s)
}

// answer returns s as answer text: trimmed as a whole (bare), or rejoined
// around the fences taken out.
func (r *reader) answer(s string) {
	if r.rejoin.Pending() {
		sep, rest, ok := r.rejoin.Front(s, r.cut && r.any)
		if !ok {
			return
		}
		if sep != "" {
			r.emit(dialects.PieceContent, sep)
		}
		s, r.cut = rest, false
	}
	e := len(s)
	for e > 0 && textlayer.IsSpace(s[e-1]) {
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

// cutJoin drops the blanks before a call fence taken out, to rejoin the
// text on both sides.
func (r *reader) cutJoin() {
	r.rejoin.Cut(bytes.IndexByte(r.blanks, '\n') >= 0)
	r.blanks, r.cut = r.blanks[:0], true
}

// reason returns s as reasoning text of the current block, trimmed.
func (r *reader) reason(s string) {
	if !r.started {
		s = strings.TrimLeft(s, " \t\r\n")
	}
	e := len(s)
	for e > 0 && textlayer.IsSpace(s[e-1]) {
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
