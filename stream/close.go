package stream

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/coded"
)

// Close ends the output: the whole text is parsed once, the calls, content
// and reasoning not yet reported are, and Done carries the final result,
// the one a one-shot parse of the same text gives. Calls already reported
// keep their ids in it.
func (p *profiled) Close() []Event {
	if p.closed {
		return nil
	}
	p.leaveSteady()
	p.closed = true
	p.events = p.closeEvents[:0] // Close's events are not reused: most often Done alone
	text := p.buf.String()
	res := p.final(text)
	p.addCut(res, len(text))
	p.settle(res)
	p.emit(Event{Kind: Done, Dialect: res.Dialect, Result: res})
	return p.events
}

// addCut adds to res the TLP-009 error of an output cut at offset by the
// stream's limit (Options.MaxBytes), when it was.
func (p *profiled) addCut(res *toolcall.Result, offset int) {
	if !p.cut {
		return
	}
	res.Errors = append(res.Errors, cutError(p.maxBytes(), offset))
}

// Result returns the final result once the Parser is closed, else nil.
func (p *profiled) Result() *toolcall.Result {
	if !p.closed {
		return nil
	}
	for i := len(p.events) - 1; i >= 0; i-- {
		if p.events[i].Kind == Done {
			return p.events[i].Result
		}
	}
	return nil
}

// final parses the whole output as a one-shot parse would, reusing the
// calls the stream already finished.
func (p *profiled) final(text string) *toolcall.Result {
	if res := p.composed(text); res != nil {
		p.reused = true
		return res
	}
	o := &p.opts.Parse
	ext := p.d.Extract(text, o)
	dialects.CapCalls(ext, o) // the caps of a one-shot parse (dialects.Finish)
	res := &toolcall.Result{Dialect: p.d.Name(), Calls: []toolcall.Call{}, Content: ext.Content, Reasoning: ext.Reasoning}
	for i := range ext.Calls {
		rc := &ext.Calls[i]
		var (
			call    toolcall.Call
			repairs []toolcall.Repair
			err     *toolcall.Error
		)
		if i < len(p.slots) && sameRaw(&p.slots[i].raw, rc) {
			s := &p.slots[i]
			call, repairs, err = s.call, s.repairs, s.err
		} else if i < len(p.slots) && p.slots[i].reported && sameCall(&p.slots[i].raw, rc) {
			// The call as reported, with the repairs the whole output
			// records around it.
			var ferr error
			call, repairs, ferr = dialects.FinishCall(rc, i, o)
			err = coded.As(ferr)
			if err == nil {
				call = p.slots[i].call
			}
		} else {
			var ferr error
			call, repairs, ferr = dialects.FinishCall(rc, i, o)
			err = coded.As(ferr)
		}
		res.Repairs = append(res.Repairs, repairs...)
		if err != nil {
			res.Errors = append(res.Errors, err)
			continue
		}
		res.Calls = append(res.Calls, call)
	}
	res.Errors = append(res.Errors, ext.Errors...)
	dialects.CapErrors(res, o)
	return res
}

// span is a call region the stream read whole: from its start marker
// (text[start:body]) to the end of its closing marker (text[endAt:end]),
// holding the calls slots[base:base+n], all valid.
type span struct {
	start, body, endAt, end int
	base, n                 int
}

// composed is the final result without parsing again the regions the
// stream has read: when every call of the output lies in a region closed
// by its marker that read as valid calls and nothing else, the text around
// the regions is parsed once with each region replaced by a stand-in (a
// small region the dialect reads as one valid call of the same name), and
// the result is that parse's content and reasoning with the regions' own
// calls. A region's reading does not depend on the text around it (the
// stream reports its calls when it closes on that premise, and the stream
// tests hold every dialect to it); the stand-in keeps what the text around
// it depends on: a region there, read as a call. It returns nil, and Close
// parses the whole text, whenever that does not hold: any region not read
// whole, a failed call, a call the stand-in parse does not find where the
// region was, any other call or error.
func (p *profiled) composed(text string) *toolcall.Result {
	if len(p.spans) == 0 || p.mixed || p.cut || p.diverged != "" || len(p.slots) >= dialects.CallLimit(&p.opts.Parse) {
		return nil
	}
	calls := 0
	for i := range p.spans {
		sp := &p.spans[i]
		if sp.base != calls {
			return nil
		}
		calls += sp.n
	}
	if calls != len(p.slots) {
		return nil
	}
	for i := range p.slots {
		if p.slots[i].err != nil {
			return nil
		}
	}
	plain := true
	var memo standInMemo
	for i := range p.spans {
		sp := &p.spans[i]
		si, ok := memo.standInFor(p.prof, text[sp.start:sp.body], text[sp.endAt:sp.end])
		if !ok || !plainName(p.slots[sp.base].raw.Name) {
			return nil
		}
		plain = plain && si.plain
	}
	if plain && p.plainAround(text) {
		// Nothing around the regions but the answer text the stream has
		// emitted and whitespace, which the dialect reads plainly (learnt
		// with the stand-ins): the result is what was streamed.
		return p.slotsResult(p.contentOut.String(), "")
	}
	var b strings.Builder
	b.Grow(len(text) - p.spans[len(p.spans)-1].end + 64*len(p.spans) + p.spans[0].start)
	from := 0
	for i := range p.spans {
		sp := &p.spans[i]
		si, _ := memo.standInFor(p.prof, text[sp.start:sp.body], text[sp.endAt:sp.end])
		b.WriteString(text[from:sp.body])
		b.WriteString(strings.Replace(si.body, standInName, p.slots[sp.base].raw.Name, 1))
		b.WriteString(text[sp.endAt:sp.end])
		from = sp.end
	}
	b.WriteString(text[from:])
	o := &p.opts.Parse
	ext := p.d.Extract(b.String(), o)
	if len(ext.Calls) != len(p.spans) || len(ext.Errors) > 0 {
		return nil
	}
	for i := range ext.Calls {
		rc := &ext.Calls[i]
		if rc.Err != nil || rc.Name != p.slots[p.spans[i].base].raw.Name || len(rc.Repairs) > 0 || rc.AtEnd {
			return nil
		}
	}
	return p.slotsResult(ext.Content, ext.Reasoning)
}

// standInMemo keeps the stand-in of the last pair of markers asked for:
// the regions of one output are most often written with the same markers.
type standInMemo struct {
	start, end string
	si         standIn
	ok, set    bool
}

func (m *standInMemo) standInFor(prof *Profile, start, end string) (standIn, bool) {
	if !m.set || start != m.start || end != m.end {
		m.si, m.ok = prof.standInFor(start, end)
		m.start, m.end, m.set = start, end, true
	}
	return m.si, m.ok
}

// slotsResult is the result holding the stream's calls, all valid, with
// the given content and reasoning.
func (p *profiled) slotsResult(content, reasoning string) *toolcall.Result {
	var res *toolcall.Result
	if len(p.slots) == 1 {
		// The result and its one call in one allocation.
		one := &struct {
			res   toolcall.Result
			calls [1]toolcall.Call
		}{}
		res = &one.res
		res.Calls = one.calls[:0]
	} else {
		res = &toolcall.Result{Calls: make([]toolcall.Call, 0, len(p.slots))}
	}
	res.Dialect, res.Content, res.Reasoning = p.d.Name(), content, reasoning
	p.fromSlots = true
	for i := range p.slots {
		s := &p.slots[i]
		res.Repairs = append(res.Repairs, s.repairs...)
		res.Calls = append(res.Calls, s.call)
		p.fromSlots = p.fromSlots && s.reported
	}
	return res
}

// plainAround reports whether the text around the spans is only the answer
// text the stream emitted before the first (the text as written, less its
// leading whitespace where the dialect drops it, and less its trailing
// whitespace) and whitespace between and after them: no reasoning, no
// token, nothing held.
func (p *profiled) plainAround(text string) bool {
	if p.reasonOut.Len() > 0 || p.blocks > 0 || p.ambiguous || p.held[1] != "" {
		return false
	}
	want := strings.TrimRight(text[:p.spans[0].start], " \t\r\n")
	if p.prof.trimLead {
		want = strings.TrimLeft(want, " \t\r\n")
	}
	if p.contentOut.String() != want {
		return false
	}
	for i := 1; i < len(p.spans); i++ {
		if !blank(text[p.spans[i-1].end:p.spans[i].start]) {
			return false
		}
	}
	return blank(text[p.spans[len(p.spans)-1].end:])
}

// blank reports whether s holds only spaces, tabs and line breaks.
func blank(s string) bool { return strings.TrimLeft(s, " \t\r\n") == "" }

// plainName reports whether a tool name can be written into a stand-in as
// it is: letters, digits and _ . - only.
func plainName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// keepIDs gives the calls of a result the ids the stream reported for them.
func (p *profiled) keepIDs(res *toolcall.Result) {
	for _, s := range p.slots {
		if s.err != nil {
			continue
		}
		for i := range res.Calls {
			c := &res.Calls[i]
			if c.Index == s.call.Index && c.Name == s.call.Name && bytes.Equal(c.Arguments, s.call.Arguments) {
				c.ID = s.call.ID
			}
		}
	}
}

// sameCall reports whether two raw calls read as the same call: the same
// name, id, arguments and place, and both failed or neither. Repairs made
// around the call may differ (a block's closing marker adds one).
func sameCall(a, b *dialects.RawCall) bool {
	if a.Name != b.Name || a.ID != b.ID || a.Arguments != b.Arguments || a.Offset != b.Offset || len(a.Params) != len(b.Params) || (a.Err == nil) != (b.Err == nil) {
		return false
	}
	for i := range a.Params {
		if a.Params[i] != b.Params[i] {
			return false
		}
	}
	ae, be := coded.As(a.Err), coded.As(b.Err)
	return ae == nil || be != nil && ae.Code == be.Code && ae.Offset == be.Offset
}

// sameRaw reports whether two raw calls are the same call with the same
// repairs.
func sameRaw(a, b *dialects.RawCall) bool {
	if !sameCall(a, b) || a.AtEnd != b.AtEnd || len(a.Repairs) != len(b.Repairs) {
		return false
	}
	for i := range a.Repairs {
		if a.Repairs[i].Kind != b.Repairs[i].Kind {
			return false
		}
	}
	return true
}

// settle reports what the final result holds beyond what was streamed, and
// notes whether anything streamed disagrees with it.
func (p *profiled) settle(res *toolcall.Result) {
	if rest, ok := strings.CutPrefix(res.Reasoning, p.reasonOut.String()); ok {
		p.emit(Event{Kind: Reasoning, Text: rest})
	} else {
		p.diverge("reasoning %q is not a prefix of %q", p.reasonOut.String(), res.Reasoning)
	}
	if rest, ok := strings.CutPrefix(res.Content, p.contentOut.String()); ok {
		p.emit(Event{Kind: Content, Text: rest})
	} else {
		p.diverge("content %q is not a prefix of %q", p.contentOut.String(), res.Content)
	}
	if p.fromSlots {
		// The result's calls are the stream's own, every one reported
		// (composed): nothing is left to report or to compare.
		if len(p.started) > len(res.Calls) {
			p.diverge("%d calls started, %d in the result", len(p.started), len(res.Calls))
		}
		return
	}
	type entry struct {
		call *toolcall.Call
		err  *toolcall.Error
	}
	last := -1
	for i := range res.Calls {
		last = max(last, res.Calls[i].Index)
	}
	for _, e := range res.Errors {
		last = max(last, e.CallIndex) // errors about no one call (-1) are in Done only
	}
	byIndex := make([]entry, last+1)
	for i := range res.Calls {
		c := &res.Calls[i]
		byIndex[c.Index] = entry{call: c}
	}
	for _, e := range res.Errors {
		if e.CallIndex >= 0 && byIndex[e.CallIndex] == (entry{}) {
			byIndex[e.CallIndex] = entry{err: e}
		}
	}
	for i := 0; i <= last; i++ {
		en := byIndex[i]
		if en == (entry{}) {
			if p.isStarted(i) {
				p.diverge("call %d was started but the result has no call %d", i, i)
			}
			continue
		}
		if i < len(p.slots) && p.slots[i].reported {
			s := p.slots[i]
			if en.call == nil || en.call.Name != s.call.Name || !bytes.Equal(en.call.Arguments, s.call.Arguments) {
				p.diverge("call %d was streamed as %s %s", i, s.call.Name, s.call.Arguments)
			}
			continue
		}
		name := ""
		if en.call != nil {
			name = en.call.Name
		} else {
			name = en.err.Tool
		}
		p.start(i, name)
		if en.err != nil {
			p.emit(Event{Kind: CallError, Index: i, Err: coded.Err(en.err)})
		} else {
			p.emit(Event{Kind: Call, Index: i, Call: en.call})
		}
	}
	if len(p.started) > last+1 {
		p.diverge("%d calls started, %d in the result", len(p.started), last+1)
	}
}

// diverge notes that something streamed disagrees with the final result.
// It cannot be taken back; the final result stands, and the tests require
// this never happens.
func (p *profiled) diverge(format string, args ...any) {
	if p.diverged == "" {
		p.diverged = fmt.Sprintf(format, args...)
	}
}
