package jsontext

import (
	"strings"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// The ways a fence is read (reader.fstate).
const (
	// fenceOpening: its opening line is not read whole yet.
	fenceOpening = iota
	// fenceEarly: its label is one the table reads calls under and the
	// prose before it presents no example: its body is read as it
	// arrives, value by value.
	fenceEarly
	// fenceWhole: it is read once it closes, as a whole: its label or
	// the prose before it makes it text, or its body began with
	// something that is not a call.
	fenceWhole
)

// readBody reads the body of a fence (s, the text from its opening run on)
// as it arrives. The table of what is a call reads a call in a fence
// labelled json, tool_call or nothing wherever the fence stands (only
// reasoning, inline code, a quotation or an enclosing fence make it
// content, and those precede the fence), so a value of such a fence is
// decided by the fence's label, the prose before the fence, the body
// before the value and the value's own line: once the value has closed
// and a byte that is no closing bracket follows it (the brackets too many
// after it are its own, noted on its call), or the fence closes, it goes
// out, before the fence's closing line and before the next value is
// written. A list the body opens is read element by element, each going
// out once the byte after it (a comma, the list's close) is read. What
// follows a call in the fence does not unmake it: a value that is not a
// call, or a line of text, after a call is content. The body is read so
// only while it holds nothing but calls: the first thing in it that is
// not one, before any call went out, leaves the fence to be read whole
// when it closes (fenceWhole), as before, and so does a label, an
// example or what shows it (shownHere) that makes it content. closed says
// f is the fence, closed or ended by the output. readBody reports whether
// it read the fence to its end (the reader then goes on after it).
func (r *reader) readBody(s string, f textlayer.Fence, closed bool) bool {
	known := 0
	if r.fstate == fenceOpening {
		start, k, ok := r.scan.Body()
		info := ""
		switch {
		case closed:
			start, info = f.BodyStart, f.Info
		case !ok:
			return false
		default:
			info, known = textlayer.InfoWord(s[textlayer.RunEnd(s, 0, len(s)):]), k
		}
		tools := r.opts.Tools != nil && r.opts.Tools.Len() > 0
		if textlayer.Decide(textlayer.Fenced, textlayer.LabelOf(info), textlayer.OwnLine, tools, textlayer.JSONFamily) == textlayer.Content || r.example() || r.shownHere() {
			r.fstate = fenceWhole
			return false
		}
		r.fstate, r.fb, r.fnoted = fenceEarly, start, 0
	} else if !closed {
		_, known, _ = r.scan.Body()
	}
	limit := known
	if closed {
		limit = f.BodyEnd
	}
	for {
		if r.fline {
			// A line of text after a call: content, to its end.
			e := strings.IndexByte(s[r.fb:limit], '\n')
			switch {
			case e >= 0:
				e += r.fb + 1
				r.fline = false
			case closed:
				e, r.fline = limit, false
			default:
				e = limit - textlayer.IncompleteTail(s[r.fb:limit])
			}
			if e > r.fb {
				r.shownText(s[r.fb:e])
				r.fb, r.fnoted = e, e
			}
			if r.fline {
				return false
			}
			continue
		}
		p := textcall.SkipSeparators(s, r.fb, limit)
		if p == limit {
			if !closed || !r.claimed {
				return false // the rest arrives; or nothing went out: read whole
			}
			r.fenceNote(s, f.End)
			r.at += f.End
			r.mode = content
			if r.cfg.Bare {
				r.run = r.lastCall
			}
			return true
		}
		switch c := s[p]; {
		case c == '[' && !r.flist:
			r.flist, r.fb = true, p+1
			continue
		case c == ']' && r.flist:
			r.flist, r.fb = false, p+1
			continue
		case c != '{':
			if !r.claimed {
				r.fstate = fenceWhole
				return false
			}
			r.fenceNote(s, p)
			r.fb, r.fline, r.lastCall = p, true, false
			continue
		}
		if !r.fvsOn || r.fvs.Start != p {
			r.fvs, r.fvsOn = jsonscan.ValueScan{Start: p}, true
		}
		e, complete := r.fvs.Next(s[:limit])
		if !complete && !closed {
			return false
		}
		to, next, ends, stray := r.valueEnd(s[:limit], e)
		if next == limit && !closed {
			return false // the value's line may yet hold closing brackets too many
		}
		r.fvsOn = false
		if ends {
			r.flist = false
		}
		calls := r.fencedCalls(s, p, e, stray, complete, f.Closed)
		if calls == nil {
			if !r.claimed {
				r.fstate = fenceWhole
				return false
			}
			// The brackets after it are the list's, or too many: markup.
			r.fenceNote(s, p)
			r.shownText(s[p:e])
			r.fb, r.fnoted, r.lastCall = to, e, false
			continue
		}
		if !r.claimed {
			r.claim()
		}
		r.fenceNote(s, to)
		r.take(calls, s[:to], r.at)
		r.fb, r.lastCall = to, true
	}
}

// valueEnd returns where the value of a fence body that ends at s[e]
// ends with the closing brackets too many after it (to), and the first
// byte after them that is not a blank (next, len(s) when none came yet):
// the byte that decides the value. An element of a list is followed by a
// comma, or by the list's close and the brackets too many after that,
// which are the list's and so its last element's (ends says the list
// closes there); a value that is no element by the brackets on its line.
// stray says brackets too many follow the value or its list.
func (r *reader) valueEnd(s string, e int) (to, next int, ends, stray bool) {
	to = e
	if r.flist {
		q := e
		for q < len(s) && textlayer.IsSpace(s[q]) {
			q++
		}
		if q == len(s) || s[q] != ']' {
			return e, q, false, false
		}
		to, ends = strayAfter(s, q+1), true
		stray = to > q+1
	} else {
		to = strayAfter(s, e)
		stray = to > e
	}
	next = to
	for next < len(s) && (s[next] == ' ' || s[next] == '\t') {
		next++
	}
	return to, next, ends, stray
}

// fencedCalls reads the value s[p:e] of a fence body as calls, or returns
// nil when it is not one: in json, a call object or a list of them, each
// naming a declared tool or, with none declared, with arguments
// (embedded); in markdown_json, what textcall reads in a frame. stray
// says closing brackets too many follow it (noted on its last call);
// complete that the value closed; closedFence that the fence did (a value
// the fence's closing run cuts is no call).
func (r *reader) fencedCalls(s string, p, e int, stray, complete, closedFence bool) []dialects.RawCall {
	if r.cfg.Bare {
		if !complete && closedFence {
			return nil
		}
		calls := valueCalls(s[p:e], r.at+p, r.opts, 0)
		if !embedded(calls, r.opts) {
			return nil
		}
		if stray {
			textcall.NoteStrayClosers(calls)
		}
		return calls
	}
	if r.tc == nil {
		r.tc = textcall.NewReader("", r.opts)
	}
	r.tc.Text = s
	calls, ok := r.tc.FramedValue(p, e, complete)
	if !ok || len(calls) == 0 {
		return nil
	}
	if stray {
		textcall.NoteStrayClosers(calls)
	}
	return calls
}

// claim takes the fence being read early out of the answer text, at its
// first call: markdown_json's own syntax was read, and the text on both
// sides of the fence is rejoined; in json the line break before it goes
// with it.
func (r *reader) claim() {
	r.claimed = true
	if r.cfg.Bare {
		r.opens, r.run = false, false
		r.blanks = r.blanks[:0]
		return
	}
	r.marked()
	r.cutJoin()
}

// fenceNote notes the fence's text from what was noted up to s[upto]: its
// markup, separators and calls, which go with its calls.
func (r *reader) fenceNote(s string, upto int) {
	if upto > r.fnoted {
		r.note(s[r.fnoted:upto])
		r.told(upto - r.fnoted)
		r.fnoted = upto
	}
}
