package hermes

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// gapPass runs the fallbacks over text[start:end], which lies between tag
// blocks outside reasoning: code fences holding call objects, and bare call
// objects. orphans are the unused closing <tool_call> tags of the segment,
// in order; those in the gap are consumed from the front.
func (x *extractor) gapPass(start, end int, orphans *[]tag) []region {
	var regs []region
	x.gapEnd = end
	for pos := start; pos < end; {
		for len(*orphans) > 0 && (*orphans)[0].start < pos {
			*orphans = (*orphans)[1:]
		}
		if n := len(regs); n > 0 && regs[n-1].end == pos && len(*orphans) > 0 && textcall.SkipSpace(x.Text, pos, end) == (*orphans)[0].start {
			// A stray closing tag right after a call read whole goes with it.
			pos = (*orphans)[0].end
			regs[n-1].end = pos
			*orphans = (*orphans)[1:]
			continue
		}
		to, orphanEnd := end, -1
		if len(*orphans) > 0 && (*orphans)[0].start < end {
			to, orphanEnd = (*orphans)[0].start, (*orphans)[0].end
			*orphans = (*orphans)[1:]
		}
		regs = append(regs, x.scan(pos, to, orphanEnd)...)
		pos = to
		if n := len(regs); n > 0 && regs[n-1].end > pos {
			pos = regs[n-1].end // the stray tag went with the call before it
		}
	}
	return regs
}

// scan finds fenced and bare calls in text[from:to]. When orphanEnd >= 0, a
// stray closing <tool_call> tag follows at to (and ends at orphanEnd): the
// call right before it lost its opening tag, and takes the tag with it.
func (x *extractor) scan(from, to, orphanEnd int) []region {
	var regs []region
	for pos := from; pos < to; {
		stop, oe := to, orphanEnd
		fi := textlayer.IndexFence(x.Text, pos, to)
		if fi >= 0 {
			stop, oe = fi, -1
		}
		regs = append(regs, x.bare(pos, stop, oe)...)
		if fi < 0 {
			break
		}
		f := textlayer.FenceAt(x.Text, stop, to)
		if r, ok := x.fenceRegion(f); ok {
			regs = append(regs, r)
		}
		pos = f.End
	}
	if n := len(regs); orphanEnd >= 0 && n > 0 && regs[n-1].end < orphanEnd && textcall.SkipSpace(x.Text, regs[n-1].end, to) == to {
		regs[n-1].end = orphanEnd
	}
	return regs
}

// maxMisses bounds how many '{' that never close the bare scan steps over
// before it gives up, which keeps it linear on text full of braces.
const maxMisses = 16

// bare finds call objects written in the text with no markup at all. Only
// objects shaped like calls count (textcall.Prose). When orphanEnd >= 0, the
// value that ends right before the stray closing tag at to is read as the
// body of a <tool_call> block: the tag is the evidence.
func (x *extractor) bare(from, to, orphanEnd int) []region {
	var regs []region
	misses, unclosed := 0, -1
	for pos := from; pos < to; {
		i := strings.IndexAny(x.Text[pos:to], "{[")
		if i < 0 {
			break
		}
		i += pos
		e, complete := jsonscan.ValueEnd(x.Text[:to], i)
		if !complete {
			if unclosed < 0 && x.Text[i] == '{' && !x.gapShown.ShownAt(x.Text, i) {
				unclosed = i
			}
			if misses++; misses > maxMisses {
				break
			}
			pos = i + 1
			continue
		}
		if x.gapShown.ShownAt(x.Text, i) {
			pos = e // shown, not made: text
			continue
		}
		if orphanEnd >= 0 && textcall.SkipSpace(x.Text, e, to) == to {
			calls, _ := x.values(i, e)
			x.gapShown.Call(i, orphanEnd)
			return append(regs, region{start: i, end: orphanEnd, calls: calls})
		}
		// A value that follows a call read from the prose with nothing
		// but separators between ("{…}; {…}") continues that run of calls.
		continues := len(regs) > 0 && regs[len(regs)-1].end <= i && skipSeparators(x.Text, regs[len(regs)-1].end) == i
		if calls, ok := x.proseCalls(i, e, continues); ok {
			regs = append(regs, region{start: i, end: e, calls: calls})
			x.gapShown.Call(i, e)
		}
		pos = e // a call, or a value that is not one: skip it whole
	}
	if orphanEnd >= 0 && unclosed >= 0 && (len(regs) == 0 || regs[len(regs)-1].start < unclosed) {
		if e, ok := x.inValue(unclosed, to, x.gapEnd); ok {
			// The stray tag lies inside a string of a value that reads on
			// past it as strict JSON ("wrap it in </tool_call> tags"): it
			// is argument text, and the value is read as a whole.
			if calls, ok := x.proseCalls(unclosed, e, false); ok {
				regs = append(regs, region{start: unclosed, end: e, calls: calls})
			}
			return regs
		}
		// A call cut short before the stray closing tag.
		calls, _ := x.values(unclosed, to)
		if n := len(calls); n > 0 && calls[n-1].Err == nil && jsonscan.EndsInString(x.Text[unclosed:to]) {
			// Cut off inside a string of its arguments: what the model
			// meant to write is lost. Never a call.
			last := &calls[n-1]
			e := cutoff.Error("inside a string of the call's arguments, where a closing </tool_call> stands")
			e.Offset, e.Raw, e.Tool = last.Offset, textlayer.TrimSpace(x.Text[unclosed:to]), last.Name
			*last = dialects.RawCall{Name: last.Name, Offset: last.Offset, Err: e}
		}
		regs = append(regs, region{start: unclosed, end: orphanEnd, calls: calls})
	}
	return regs
}

// proseCalls reads text[start:end], a JSON object or array written bare in
// the text, as calls if it is shaped like them (textcall.Prose): an object,
// or an array whose every item is one, where the table of what is a call
// (textlayer.Decide) makes a bare envelope a call, or continuing a run of
// calls.
func (x *extractor) proseCalls(start, end int, continues bool) ([]dialects.RawCall, bool) {
	raw := x.Text[start:end]
	if !textcall.OpensWithName(raw) {
		return nil, false // cheap refusal for the braces of ordinary prose
	}
	tools := x.Opts.Tools != nil && x.Opts.Tools.Len() > 0
	if !continues && textlayer.Decide(textlayer.Envelope, textlayer.Unlabelled, textlayer.PlaceOf(x.Text, x.floor, start, end), tools, textlayer.HermesFamily) == textlayer.Content ||
		x.PresentedAsExample(start) {
		return nil, false // written in a sentence, or shown as an example
	}
	v, repairs, err := x.Parse(raw)
	if err != nil {
		return nil, false
	}
	items := []gjson.Result{v}
	if v.IsArray() {
		items = v.Array()
	}
	calls := make([]dialects.RawCall, 0, len(items))
	for _, it := range items {
		if !textcall.Accepts(it, textcall.Prose, x.Opts) {
			return nil, false
		}
		calls = append(calls, x.Call(it, start, repairs))
		repairs = nil
	}
	return calls, len(calls) > 0
}

// fenceRegion reads a code fence as calls when its language fits (JSON, or
// xml as llama.cpp's Hermes parser accepts), nothing before it shows it as
// an example (shown.ShownScan.ShownAt), and it holds nothing but
// call-shaped JSON.
func (x *extractor) fenceRegion(f textlayer.Fence) (region, bool) {
	if !textlayer.Is(textlayer.Fenced, textlayer.LabelOf(f.Info), textlayer.OwnLine, false, textlayer.HermesFamily, true, false) ||
		x.gapShown.ShownAt(x.Text, f.BodyStart) || x.PresentedAsExample(f.Start) {
		return region{}, false
	}
	calls, _, ok := x.Framed(f.BodyStart, f.BodyEnd, true)
	if !ok {
		return region{}, false
	}
	x.gapShown.Call(f.Start, f.End)
	return region{start: f.Start, end: f.End, calls: calls}, true
}

// fenceRuns widens each run of tag blocks (blocks with only whitespace
// between them) that a code fence encloses, such as ```xml around
// <tool_call> blocks, to take the fence too.
func (x *extractor) fenceRuns(regs []region, start, end int) []region {
	for i := 0; i < len(regs); {
		j := i
		for j+1 < len(regs) && textcall.SkipSpace(x.Text, regs[j].end, regs[j+1].start) == regs[j+1].start {
			j++
		}
		if open := textlayer.FenceOpenBefore(x.Text, start, regs[i].start); open >= 0 {
			after := textcall.SkipSpace(x.Text, regs[j].end, end)
			if textlayer.IsFenceAt(x.Text, after, end) {
				regs[i].start, regs[j].end = open, textlayer.RunEnd(x.Text, after, end)
			}
		}
		i = j + 1
	}
	return regs
}

// skipSeparators returns the index of the first byte at or after i that is
// not a blank, a line break, a comma or a semicolon.
func skipSeparators(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\r\n,;", s[i]) >= 0 {
		i++
	}
	return i
}
