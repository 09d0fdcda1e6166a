package markers

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/codemode"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/cutoff"
	"github.com/dialectkit/toolcall/dialects/internal/inprose"
	"github.com/dialectkit/toolcall/dialects/internal/rawcall"
	"github.com/dialectkit/toolcall/dialects/internal/textcall"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/internal/shown"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/lenient"
)

// maxHeader bounds the header (the text holding a tool name between a call
// marker and its name-end marker), so that a marker followed by prose is
// not searched to the end of the output.
const maxHeader = 256

// Extract finds the calls in text, and the content and reasoning around
// them. It is Read of a new Reader (NewReader), which reads the output in
// units, each once (see readUnit).
//
// Marked calls are found first, over the whole text, so that a call made
// in reasoning the model never closed is still a call, and a reasoning tag
// inside an argument string does not split the output; call markup inside
// a finished <think>…</think>-style block, or before the first closing tag
// of a block the template opened, is reasoning. What remains is content, minus the Strip tokens, and the
// reasoning wrappers are split from it. Whitespace between content and a
// call marker is trimmed, as peers do; interior whitespace is kept. A bare
// dialect whose output holds none of its markers reads the output as bare
// JSON instead.
// A marker that what precedes it shows rather than makes a call with
// (inline code, a quotation, a fence labelled with a programming language
// or presented as an example: shown.ShownScan.ShownAt) opens no call;
// the prose after a call never unmakes it.
func (d *Dialect) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return dialects.Read(d.NewReader(opts), text)
}

// unitStart says where a unit, the part of the output one reading reads,
// begins: at the output's start, or right after a call a reading before
// it decided, with the calls decided before it.
type unitStart struct {
	// first: the unit begins the output, where a call without its
	// marker, bare JSON, a block the template opened can stand.
	first bool
	// section: it begins inside a calls section, after a call.
	section bool
	// run: it goes on with the run of bare values that opened the
	// output (leadRun), right after a value of it: it reads as the rest
	// of the first unit does after that value.
	run bool
	// form, when not 0, is 1 + the index of the form whose values the
	// unit goes on with, right after one of them; inList: after an
	// element of a list of calls, inside its brackets.
	form   int
	inList bool
	// calls is the number of calls before it.
	calls int
	// noTag: no reasoning tag stands in the output, so its reasoning
	// needs no search (a block the template opened aside).
	noTag bool
	// more: the output may go on past the unit's text (a reading of a
	// Write, not of Close). A call value that the text's end cuts is then
	// not read (extractor.values): no call of it, nor any after it, is
	// sent before its value closes, and no unit begins inside it, so its
	// reading would be thrown away; Close reads it.
	more bool
}

// checkpoint is a place in a unit, right after a call region (or a call
// of a section), where the next unit may begin: what comes after it
// cannot change what came before.
type checkpoint struct {
	// next is where the text goes on; calls the number of calls of the
	// unit before it; content the length of the unit's content there.
	next, calls, content int
	// section: next is inside a calls section; afterSection: next ends
	// one, which only its own closing marker closes; values: it ends a
	// list of values, which more values may go on.
	section, afterSection, values bool
	// run: next ends a value of the run of bare values that opens the
	// output (leadRun), decided by its own region.
	run bool
	// form, inList: next ends a value (inList: an element of a list) of
	// the values of a form, and the next value has begun (unitStart).
	form   int
	inList bool
	// trimmedAll: the unit's content, blank, was trimmed away before it
	// at a region's start, which trims the content of the units before.
	trimmedAll bool
}

// unitReading is what one reading of a unit found.
type unitReading struct {
	x *dialects.Extraction
	// raw is the unit's content before reasoning was split from it, and
	// cps its checkpoints (none for a reading as bare JSON).
	raw string
	cps []checkpoint
	// regions are the call regions read, in order, in the unit's
	// offsets: the text the output's ShownScan is told is calls.
	regions []span
	// split: the content and reasoning were split and trimmed as an
	// output of bare JSON, whole.
	split bool
	// trimmedAll: the unit's content, blank, was trimmed away at a
	// region, which trims the content before the unit.
	trimmedAll bool
	// cutSkipped: a value the text's end cuts was not read
	// (unitStart.more): the reading is no Close's.
	cutSkipped bool
}

// readUnit reads the unit out[base:], which begins the output or follows
// a decided call as at says. shown has read the output up to base, and
// decides the unit's markers by what precedes them in the whole output
// (shownAt). Its content is split from its reasoning with the output's
// reasoning start (startsOpen, implicit) for the first unit; it is not
// trimmed, as more content may stand around it.
//
// x is the extractor the reading uses, its memory reused: the reading
// returned holds its checkpoints and regions until x reads again. The
// calls and the strings it returns are its own.
//
// known are the places in out, in order, where an opener's first part
// starts, all of those before limit (the finder's known places).
func (d *Dialect) readUnit(x *extractor, out string, base int, shown *shown.ShownScan, opts *dialects.Options, at unitStart, implicit bool, known []int, limit int) unitReading {
	x.reset(d, out[base:], opts, implicit, at)
	x.find.known, x.find.off, x.find.limit = known, base, max(0, limit-base)
	x.out, x.base, x.shown = out, base, shown
	x.run()
	ur := unitReading{x: x.ext, split: x.bare, trimmedAll: x.trimmedAll, regions: x.regions, cutSkipped: x.cutSkipped}
	switch {
	case !x.bare:
		ur.raw, ur.cps = x.rawText, x.cps
	case len(x.cps) > 0 && x.cps[0].run:
		// A bare reading: the unit after the run goes on with it.
		ur.cps = x.cps[:1]
	}
	return ur
}

// reset readies x to read text, keeping the memory of its checkpoints,
// regions, content, finder and Extraction: the Extraction of the reading
// before, which its reading returned (unitReading.x), is cleared. The
// calls and strings it held are left as they were.
func (x *extractor) reset(d *Dialect, text string, opts *dialects.Options, implicitBlock bool, at unitStart) {
	if opts == nil {
		opts = &dialects.Options{}
	}
	cps, regions := x.cps[:0], x.regions[:0]
	*x = extractor{d: d, s: text, opts: opts, implicitBlock: implicitBlock && at.first, at: at,
		cps: cps, regions: regions, content: x.content[:0], findMem: x.findMem, spare: x.spare}
	x.ext = &x.extMem // cleared with the rest of x
	if cps == nil {
		x.cps = x.cpsBuf[:0]
	}
	if regions == nil {
		x.regions = x.regionsBuf[:0]
	}
	if x.findMem == nil && len(d.openers.list) > len(x.findBuf) {
		x.findMem = make([]int, len(d.openers.list))
	}
	buf := x.findBuf[:0]
	if x.findMem != nil {
		buf = x.findMem[:0]
	}
	x.find.init(text, d.openers, buf)
}

// startsOpen says the text begins in a reasoning block the template
// opened (Options.ReasoningOpen): only a unit that begins the output may.
func (x *extractor) startsOpen() bool { return x.at.first && x.opts.ReasoningOpen }

// run reads the extractor's text.
func (x *extractor) run() {
	lead, leadEnd := x.leadRun()
	implicit := x.scanMarked(lead, leadEnd)
	if x.d.bare && !x.ext.Marked && !implicit && (x.at.first || x.at.run) {
		x.bare = true
		x.ext.Calls = lead
		x.scanBare(leadEnd)
		return
	}
	x.finishContent()
}

// leadRun reads the run of bare JSON values that opens a bare dialect's
// output, as far as each value is decided by its own region: a value is
// in the run when it closed, reads as calls that name declared tools (or,
// with none declared, are whole envelopes), holds no content, and the
// next value of the run has begun after it, past blanks and separators (a
// ',' or ';' when the two share a line). Such a value is a call whatever
// comes after it (the table's "opens the output" and a run of calls, as
// the whole output of values reads it too), so a Reader sends it then; a
// marker later in the output does not make it content. The last value of
// the run is one that a line break ends, once the next line begins with
// a byte that cannot go on with it: not a closing bracket (a value's
// brackets too many), a separator or a fence's backtick. A value that
// fails, or that the text after it on its line may place, waits for the
// reading of the whole output. A template that opens a reasoning block,
// a dialect whose calls may begin without their marker and one that
// reads frames after prose (FramedAfterProse) read no run. The calls keep
// their value's text, from the end of the value before.
func (x *extractor) leadRun() (calls []dialects.RawCall, end int) {
	if !x.d.readsRun() || !x.at.first && !x.at.run || x.startsOpen() || x.implicitBlock {
		return nil, 0
	}
	s := x.s
	from, i := 0, skipBlank(s, 0)
	if x.at.run {
		i = skipSeparators(s, 0) // the separators after the value before
	}
	for valueStart(s, i) {
		ext := scanValue(s, i, nil)
		if ext.status != extentComplete || ext.depth > x.depthLimit() {
			break
		}
		next, sep, line := ext.end, false, false
		for next < len(s) && (textlayer.IsSpace(s[next]) || s[next] == ',' || s[next] == ';') {
			sep = sep || s[next] == ',' || s[next] == ';'
			line = line || s[next] == '\n'
			next++
		}
		more := valueStart(s, next)
		if !(sep || line) || !more && !(line && next < len(s) && strings.IndexByte("]},;", s[next]) < 0 && !textlayer.IsFenceByte(s[next])) {
			break
		}
		cs, content, ok := x.jsonValue(s, i, ext, i, true)
		if !ok || content != "" || !x.declared(cs) {
			break
		}
		cs[0].Text = s[from:ext.end]
		rawcall.KeepText(cs, cs[0].Text)
		calls = append(calls, cs...)
		from, end, i = ext.end, ext.end, next
		if !more {
			break
		}
	}
	return calls, end
}

// readsRun reports whether d reads a run of bare values that opens the
// output by each value's own region (leadRun).
func (d *Dialect) readsRun() bool {
	return d.bare && !d.desc.FramedAfterProse && !d.implicitForm()
}

// extractor holds the state of one reading.
type extractor struct {
	d    *Dialect
	s    string
	opts *dialects.Options
	// implicit says a closing reasoning tag with no opening one ends a
	// block the template opened (dialects.ImplicitReasoning).
	implicitBlock bool
	ext           *dialects.Extraction
	find          finder
	findBuf       [16]int // the finder's memory, for dialects with few markers
	findMem       []int   // and for the others
	// extMem is the Extraction every reading of x fills (reset), and
	// cpsBuf and regionsBuf the first memory of cps and regions, so
	// that a reading of a few calls allocates none of them; spare is an
	// array for a piece's checkpoints (takeSpare), its checkpoints
	// copied out once the piece is added (sectionPoints).
	extMem     dialects.Extraction
	cpsBuf     [2]checkpoint
	regionsBuf [4]span
	spare      []checkpoint
	content    []byte
	// rawContent holds the content while it is one unchanged piece of the text
	// (rawSet): most dialects tried on an output find nothing in it, and
	// their content is then the text itself, not a copy of it.
	rawContent string
	rawSet     bool

	// at says where the text, a unit of a Reader, begins in the output;
	// cps are its checkpoints; rawText keeps its content as it was
	// before reasoning was split (the content is not trimmed).
	at      unitStart
	cps     []checkpoint
	rawText string
	// trimmedAll: the content, blank, was trimmed away at a region.
	trimmedAll bool
	// cutSkipped: a value the text's end cuts was not read (unitStart.more).
	cutSkipped bool
	// bare: the text was read as bare JSON, from bareFrom on;
	// samePrefix is how far the content read as bare JSON is the text
	// itself (offsetIn).
	bare                 bool
	bareFrom, samePrefix int

	// out is the whole output so far, s its part from base on; shown
	// decides by what precedes a marker in out whether it is shown
	// rather than made (shownAt), and is told of the call regions read
	// (regions, in s's offsets).
	out     string
	base    int
	shown   *shown.ShownScan
	regions []span
}

// shownAt reports whether what precedes the marker at s[at] in the
// output (inline code, a quotation, a fence labelled with a programming
// language or that prose presents as an example, opened before it and
// not closed) shows a call rather than makes one
// (shown.ShownScan.ShownAt). The prose after it has no say.
func (x *extractor) shownAt(at int) bool { return x.shown.ShownAt(x.out, x.base+at) }

// region notes that s[start:end] is a call region: a backtick run inside
// it opens no inline code.
func (x *extractor) region(start, end int) {
	if end > start {
		if len(x.regions) == cap(x.regions) {
			// Room for the regions the rest of the text may hold, so
			// that the array is not grown region by region.
			n := x.startsFrom(end) + 1
			x.regions = slices.Grow(x.regions, n)
			x.shown.Reserve(n)
		}
		x.regions = append(x.regions, span{start, end})
		x.shown.Call(x.base+start, x.base+end)
	}
}

// piece is what reading a marked region produced.
type piece struct {
	calls   []dialects.RawCall
	content string // content found inside the region (Functionary's "all")
	next    int    // where the text continues
	ok      bool   // false: the marker did not open a call of this dialect
	// values: the region is a list of values (Form.Values).
	values bool
	// cps are the places after a section's calls, in the section, where
	// a unit may begin (calls counts the piece's calls before it).
	cps []checkpoint
}

// scanMarked finds every marked region in order and collects the content
// between them. It reports whether an implicit first call was read.
//
// lead are the calls of the run of bare values that opens the output,
// which ends at leadEnd (leadRun): the scan goes on after them.
func (x *extractor) scanMarked(lead []dialects.RawCall, leadEnd int) (implicit bool) {
	pos, last := 0, 0
	hidden := x.closedReasoning()
	switch {
	case len(lead) > 0:
		x.ext.Calls = lead
		x.region(0, leadEnd)
		x.checkpoint(leadEnd, false, false)
		x.cps[len(x.cps)-1].run = true
		pos, last = leadEnd, leadEnd
	case x.at.form > 0:
		// The unit goes on with the values of a form, after one of them.
		p := x.values(x.d.forms[x.at.form-1], 0, x.at.inList)
		x.region(0, p.next)
		x.ext.Marked = true
		x.sectionPoints(p)
		x.add(p)
		x.checkpoint(p.next, false, false)
		x.cps[len(x.cps)-1].values = true
		pos, last = p.next, p.next
	case x.at.section:
		// The unit goes on with a section a unit before it opened.
		p := x.section(-1, 0)
		x.region(0, p.next)
		x.ext.Marked = true
		x.sectionPoints(p)
		x.add(p)
		x.checkpoint(p.next, false, true)
		pos, last = p.next, p.next
	case x.at.first && (len(hidden) == 0 || hidden[0].start > 0):
		// An output that opens in finished reasoning holds no call the
		// generation prompt began at its start.
		if p, ok := x.implicit(); ok {
			x.region(0, p.next)
			x.add(p)
			x.checkpoint(p.next, false, false)
			pos, last, implicit = p.next, p.next, true
		}
	}
	limit := rawcall.Limit(x.opts)
	for pos < len(x.s) {
		if limit >= 0 && x.at.calls+len(x.ext.Calls) > limit {
			// Past the call cap the rest is not read (Finish drops the
			// calls past it): a million markers cost no million calls.
			x.ext.Calls = append(x.ext.Calls, rawcall.NotRead(pos, x.s[pos:]))
			pos, last = len(x.s), len(x.s)
			break
		}
		k, at, end := x.find.find(pos)
		if k < 0 {
			break
		}
		for len(hidden) > 0 && hidden[0].end <= at {
			hidden = hidden[1:]
		}
		if len(hidden) > 0 && hidden[0].start <= at {
			pos = hidden[0].end // call markup in finished reasoning is reasoning
			continue
		}
		if x.shownAt(at) {
			pos = at + 1 // shown, not made: text
			continue
		}
		var p piece
		if owner := x.d.openerOwner[k]; owner < 0 {
			p = x.section(at, end)
		} else {
			p = x.call(x.d.forms[owner], at, end, false)
		}
		if !p.ok || inprose.Mentioned(x.s, at, end, p.calls) {
			pos = at + 1
			continue
		}
		x.ext.Marked = true
		x.region(at, p.next)
		x.addContent(x.s[last:at])
		x.trimContentRight()
		x.sectionPoints(p)
		x.add(p)
		x.checkpoint(p.next, false, x.d.openerOwner[k] < 0)
		if p.values && len(x.cps) > 0 {
			x.cps[len(x.cps)-1].values = true
		}
		pos, last = p.next, p.next
	}
	if (last > 0 || !x.at.first) && x.cutInCloser(last) {
		last = len(x.s) // the output ends inside the closing marker of the last region
	}
	x.addContent(x.s[last:])
	return implicit
}

// checkpoint notes that the text may go on at next, in a section or not,
// once the calls read so far are decided.
func (x *extractor) checkpoint(next int, section, afterSection bool) {
	if len(x.cps) == cap(x.cps) {
		x.cps = slices.Grow(x.cps, x.startsFrom(next)+1) // room for the rest of the text's
	}
	x.cps = append(x.cps, checkpoint{next: next, calls: len(x.ext.Calls), content: x.contentLen(),
		section: section, afterSection: afterSection, trimmedAll: x.trimmedAll})
}

// sectionPoints notes the checkpoints of a section's calls, before its
// calls are added. The piece's array of checkpoints is kept for the next
// piece (takeSpare): p's checkpoints are not read after.
func (x *extractor) sectionPoints(p piece) {
	if p.content == "" {
		for _, cp := range p.cps {
			x.cps = append(x.cps, checkpoint{next: cp.next, calls: len(x.ext.Calls) + cp.calls, content: x.contentLen(),
				section: cp.section, form: cp.form, inList: cp.inList, trimmedAll: x.trimmedAll})
		}
	}
	if cap(p.cps) > cap(x.spare) {
		x.spare = p.cps[:0]
	}
}

// takeSpare returns an empty array for the checkpoints of a piece, the
// spare one when x holds it (a piece read inside another gets none: each
// piece's checkpoints are its own). sectionPoints gives it back once the
// piece's checkpoints are copied out.
func (x *extractor) takeSpare() []checkpoint {
	cps := x.spare
	x.spare = nil
	return cps[:0]
}

// callsIn estimates the calls of the section that starts at from: the
// start markers of the forms up to the section's end. The calls are
// collected into a slice of that size, so that many calls cost their own
// memory and not a growing slice's copies.
func (x *extractor) callsIn(from int) int {
	end := len(x.s)
	if at, _ := indexAny(x.d.secEnd, x.s, from, len(x.s)); at >= 0 {
		end = at
	}
	return x.starts(from, end)
}

// startsFrom counts the forms' start markers from from to the end.
func (x *extractor) startsFrom(from int) int { return x.starts(from, len(x.s)) }

func (x *extractor) starts(from, end int) int {
	if from >= end {
		return 0
	}
	n := 0
	for _, f := range x.d.forms {
		if len(f.start) > 0 {
			n += strings.Count(x.s[from:end], f.start[0].parts[0])
		}
	}
	return n
}

func (x *extractor) add(p piece) {
	if x.ext.Calls == nil {
		if rest := x.startsFrom(p.next); rest > 0 {
			// Room for the calls the rest of the text may hold.
			x.ext.Calls = make([]dialects.RawCall, 0, len(p.calls)+rest)
		} else {
			x.ext.Calls = p.calls // the only piece: no copy
			if p.content != "" {
				x.addContent(p.content)
			}
			return
		}
	}
	x.ext.Calls = append(x.ext.Calls, p.calls...)
	if p.content != "" {
		x.addContent(p.content)
	}
}

// addContent appends text to the content, without the Strip tokens.
func (x *extractor) addContent(s string) {
	if x.d.strip != nil && x.d.hasStripToken(s) {
		s = x.d.strip.Replace(s)
	}
	if len(x.content) == 0 && !x.rawSet {
		x.rawContent, x.rawSet = s, true
		return
	}
	x.spill()
	x.content = append(x.content, s...)
}

// spill moves a content held as one piece of the text into the buffer.
func (x *extractor) spill() {
	if x.rawSet {
		x.content = append(x.content[:0], x.rawContent...)
		x.rawContent, x.rawSet = "", false
	}
}

// trimContentRight drops the trailing whitespace of the content so far.
func (x *extractor) trimContentRight() {
	if x.rawSet {
		x.rawContent = textlayer.TrimRight(x.rawContent)
	} else {
		x.content = textlayer.TrimRight(x.content)
	}
	if x.contentLen() == 0 {
		x.trimmedAll = true
	}
}

// contentLen is the length of the content so far.
func (x *extractor) contentLen() int {
	if x.rawSet {
		return len(x.rawContent)
	}
	return len(x.content)
}

// resetContent empties the content.
func (x *extractor) resetContent() {
	x.content = x.content[:0]
	x.rawContent, x.rawSet = "", false
}

// contentString is the content so far.
func (x *extractor) contentString() string {
	if x.rawSet {
		return x.rawContent
	}
	return string(x.content)
}

// finishContent splits reasoning from the collected content, kept
// untrimmed: the Reader trims the output's content once, whatever units
// it was read in.
func (x *extractor) finishContent() {
	raw := x.contentString()
	content, reasoning := x.splitReasoning(raw)
	x.rawText = raw
	x.ext.Content, x.ext.Reasoning = content, reasoning
}

func (x *extractor) splitReasoning(text string) (content, reasoning string) {
	if x.at.noTag && !x.startsOpen() {
		return text, ""
	}
	reasoning, content = dialects.SplitReasoning(text, dialects.ReasoningSplit{Tags: x.d.reasoning, StartsOpen: x.startsOpen(), Implicit: x.implicitBlock})
	return content, reasoning
}

// span is a byte range of the output.
type span struct{ start, end int }

// closedReasoning finds the finished reasoning blocks, in order: those
// written with both their opening and closing tags, and the one the
// template opened, up to its first closing tag (dialects.TemplateBlockEnd).
// Call markup inside them is the model thinking about a call, not making
// one (vLLM's MiniMax parser agrees); a call in reasoning that never
// closes is still a call.
func (x *extractor) closedReasoning() []span {
	if x.at.noTag && !x.startsOpen() {
		return nil
	}
	var spans []span
	for _, b := range textcall.ReasoningBlocks(x.s, x.startsOpen(), x.implicitBlock, x.d.reasoning...) {
		spans = append(spans, span{b.Start, b.End})
	}
	return spans
}

// implicit reads a call at the very start of the output whose start marker
// was written by the generation prompt, for forms that allow it. Only a
// strict header qualifies: a name token, its name end, and a body that
// fits the name.
func (x *extractor) implicit() (piece, bool) {
	i := skipBlank(x.s, 0)
	for _, f := range x.d.forms {
		if !f.Implicit || x.shownAt(i) {
			continue
		}
		if _, ok := matchAny(f.start, x.s, i); ok {
			return piece{}, false // written out: the main scan reads it
		}
		if j := strings.IndexAny(x.s[i:], "\n{"); j < 0 || x.s[i+j] == '{' {
			// Without its marker a header must be a line of its own: a
			// word before an object on the same line ("Result {…}") is
			// prose, and nothing names it a call.
			continue
		}
		if p := x.header(f, i, i, true); p.ok {
			rawcall.KeepText(p.calls, x.s[i:p.next])
			return p, true
		}
	}
	return piece{}, false
}

// formAt returns the form whose start marker begins at s[i], with the
// marker's end.
func (x *extractor) formAt(i int) (*form, int) {
	for _, f := range x.d.forms {
		if e, ok := matchAny(f.start, x.s, i); ok {
			return f, e
		}
	}
	return nil, 0
}

// section reads the calls inside a calls section whose start marker is
// at at and whose body starts at from, up to the section's end marker. A
// section the output ends in with no call written is TLP-014. at is -1
// when the section began in a unit before: calls were written in it.
func (x *extractor) section(at, from int) piece {
	s := x.s
	p := piece{ok: true, calls: make([]dialects.RawCall, 0, x.callsIn(from)), cps: x.takeSpare()}
	i := from
	for {
		if len(p.calls) > 0 && (len(p.cps) == 0 || p.cps[len(p.cps)-1].calls < len(p.calls)) {
			p.cps = append(p.cps, checkpoint{next: i, calls: len(p.calls), section: true})
		}
		i = skipBlank(s, i)
		if i >= len(s) {
			if len(p.calls) == 0 && at >= 0 {
				// The output ends in a section it opened and wrote no
				// call in: cut off inside the envelope, never nothing.
				p.calls = append(p.calls, cutCall(at, s[at:], "inside a calls section, before its first call"))
			}
			break
		}
		if e, ok := matchAny(x.d.secEnd, s, i); ok {
			i = e
			break
		}
		if e, ok := matchAny(x.d.secStart, s, i); ok { // repeated
			i = e
			continue
		}
		if e, ok := matchAny(x.d.stripSet, s, i); ok {
			i = e
			continue
		}
		if f, e := x.formAt(i); f != nil {
			if q := x.call(f, i, e, false); q.ok {
				p.calls = append(p.calls, q.calls...)
				p.content += q.content
				i = q.next
				continue
			}
		}
		if q := x.bareHeader(i); q.ok {
			p.calls = append(p.calls, q.calls...)
			i = q.next
			continue
		}
		// Text inside the section that is not a call: an error up to the
		// next call or the section's end.
		stop := len(s)
		if _, at, _ := x.find.find(i + 1); at >= 0 {
			stop = at
		}
		if at, _ := indexAny(x.d.secEnd, s, i, stop); at >= 0 {
			stop = at
		}
		if stop == len(s) {
			// The output ends inside a marker: a closing one leaves
			// the calls read whole; an opening one cuts a call.
			if x.cutInCloser(i) {
				i = len(s)
				break
			}
			if x.cutInOpener(i) {
				p.calls = append(p.calls, cutCall(i, s[i:], "inside a call's opening marker"))
				i = len(s)
				break
			}
		}
		p.calls = append(p.calls, errorCall(i, s[i:stop], toolcall.CodeMalformedCall,
			"text inside the calls section is not a call"))
		i = stop
	}
	p.next = i
	return p
}

// bareHeader reads a call whose per-call start marker is missing inside a
// section (llama.cpp accepts DeepSeek's "function<｜tool▁sep｜>NAME" right
// after the section marker): the first header form's header, read
// strictly, must be there.
func (x *extractor) bareHeader(i int) piece {
	for _, f := range x.d.forms {
		if f.header {
			p := x.header(f, i, i, true)
			if p.ok {
				rawcall.KeepText(p.calls, x.s[i:p.next])
			}
			return p
		}
	}
	return piece{}
}

// call reads the call of form f whose start marker spans s[at:end].
// strict is set for a marker that may not be a call at all. The calls
// read keep the region's whole text (rawcall.KeepText).
func (x *extractor) call(f *form, at, end int, strict bool) piece {
	p := x.callAt(f, at, end, strict)
	if p.ok {
		rawcall.KeepText(p.calls, x.s[at:max(at, p.next)])
	}
	return p
}

// callAt is call before the region's text is kept.
func (x *extractor) callAt(f *form, at, end int, strict bool) piece {
	s := x.s
	strict = strict || f.Shared
	i := skipBlank(s, end)
	if f.Opener != "" && (i >= len(s) || strings.IndexByte(f.Opener, s[i]) < 0) {
		if strict {
			return piece{}
		}
		return x.malformed(f, at, end, "the call marker is not followed by the expected bracket")
	}
	switch {
	case i >= len(s) && strict:
		return piece{}
	case i >= len(s):
		return piece{calls: []dialects.RawCall{cutCall(at, s[at:], "right after a call marker")}, next: len(s), ok: true}
	case f.Values && x.valueAhead(i):
		return x.values(f, i, false)
	case f.header:
		return x.header(f, at, end, strict)
	case f.RawName != "":
		return x.raw(f, at, end, f.RawName, f.RawKey)
	case strict, textcall.ProseCode(s[i:]):
		return piece{} // a sentence follows: the marker is mentioned, not used
	}
	return x.malformed(f, at, end, "no JSON call follows the call marker")
}

// valueAhead reports whether a JSON call value, possibly fenced, starts
// at s[i].
func (x *extractor) valueAhead(i int) bool {
	if valueStart(x.s, i) {
		return true
	}
	if i < len(x.s) {
		if e, ok := textlayer.OpenRun(x.s, i); ok {
			return valueStart(x.s, skipBlank(x.s, e))
		}
	}
	return false
}

// values reads JSON call values from s[i] on: objects and arrays separated
// by blanks, commas or semicolons, in an optional code fence, up to the
// form's end marker. A repeated start marker between values is skipped.
// inList says s[i:] goes on with a list of calls after one of its
// elements (a unit that begins there): what stands before the list's
// closing bracket is read as the rest of the list. The piece notes where
// a unit may begin (cps): after a value, or an element of a list, that
// closed, once the next one has begun, outside a fence.
func (x *extractor) values(f *form, i int, inList bool) piece {
	s := x.s
	p := piece{ok: true, values: true, cps: x.takeSpare()}
	var fence byte // the byte of the fence the values stand in, 0 outside one
	from := i      // where the text the next value's calls keep begins
	fi := slices.Index(x.d.forms, f) + 1
	for {
		if inList {
			inList = false
			// The rest of a list, read as a list of its own: the unit's
			// text after a virtual opening bracket.
			v := "[" + s[i:]
			ext := scanValue(v, 0, x.d.bounds)
			calls, content, _ := x.jsonValue(v, 0, ext, i-1, false)
			for k := range calls {
				calls[k].Text = strings.TrimPrefix(calls[k].Text, "[")
			}
			end := i + ext.end - 1
			x.listPoints(&p, fi, i, end, calls)
			p.calls = append(p.calls, calls...)
			p.content += content
			i, from = end, end
			continue
		}
		j := skipSeparators(s, i)
		if j >= len(s) {
			break
		}
		if fence != 0 {
			if e, ok := textlayer.CloseRunAt(s, j, fence); ok {
				i, fence = e, 0
				continue
			}
		} else if e, ok := textlayer.OpenRun(s, j); ok && valueStart(s, skipBlank(s, e)) {
			i, fence = e, s[j]
			continue
		}
		if valueStart(s, j) {
			ext := scanValue(s, j, x.d.bounds)
			if x.at.more && ext.status == extentCut && !ext.atMarker && s[j] == '{' {
				// An object the text's end cuts: a call of it waits for
				// its value to close (unitStart.more). (A list is read:
				// the elements that closed in it are calls already.)
				x.cutSkipped = true
				i = len(s)
				break
			}
			calls, content, _ := x.jsonValue(s, j, ext, j, false)
			// Each value's calls keep the value's text, from the end of
			// the one before, not the region's: a call is read from its
			// own value, and is whole once its value closes, whatever
			// values follow it.
			if len(calls) > 0 && calls[0].Text != "" {
				calls[0].Text = s[from:j] + calls[0].Text
			}
			rawcall.KeepText(calls, s[from:ext.end])
			if fence == 0 && s[j] == '[' {
				x.listPoints(&p, fi, j+1, ext.end, calls)
			}
			from = ext.end
			p.calls = append(p.calls, calls...)
			p.content += content
			i = ext.end
			if fence == 0 && ext.status == extentComplete && len(calls) > 0 && x.valueBegun(f, s, i) {
				p.cps = append(p.cps, checkpoint{next: i, calls: len(p.calls), form: fi})
			}
			continue
		}
		if e, ok := matchAny(f.end, s, j); ok {
			i = e
			break
		}
		if e, ok := x.strayBeforeEnd(f, s, j); ok && len(p.calls) > 0 {
			// Closing brackets too many after the values ([{…}]]) are
			// their punctuation, up to the end literal or the output's end.
			textcall.NoteStrayClosers(p.calls)
			i = e
			break
		}
		if e := strayOnLine(s, i); e > i && len(p.calls) > 0 {
			// [{…}]] and then prose: the brackets too many on the last
			// value's line are its punctuation, the prose content.
			textcall.NoteStrayClosers(p.calls)
			i = e
			break
		}
		if e, ok := matchAny(f.start, s, j); ok && x.valueAhead(skipBlank(s, e)) {
			i = e
			continue
		}
		break
	}
	p.next = i
	return p
}

// valueBegun reports whether the next value of form f has begun at or
// after s[i], past separators or a repeated start marker: no closing
// bracket can come between, and the values read so far are whole.
func (x *extractor) valueBegun(f *form, s string, i int) bool {
	j := skipSeparators(s, i)
	if e, ok := matchAny(f.start, s, j); ok {
		j = skipBlank(s, e)
	}
	return j < len(s) && s[j] == '{'
}

// listPoints notes in p the places after the elements of a list of calls,
// whose elements start at s[i] (past separators) and whose extent ends at
// end, where a unit may begin: right after an element that closed, once
// the next one has begun (its '{' written after a ','). calls are the
// list's calls; each one's offset tells the element it was read from.
func (x *extractor) listPoints(p *piece, fi, i, end int, calls []dialects.RawCall) {
	if fi == 0 {
		return
	}
	s := x.s
	n := 0 // the calls of the elements up to the current one
	for {
		i = skipSeparators(s, i)
		if i >= end || s[i] != '{' {
			return
		}
		e := scanValue(s[:end], i, nil) // no further than the list
		if e.status != extentComplete {
			return
		}
		k := skipBlank(s, e.end)
		if k >= end || s[k] != ',' {
			return
		}
		if k = skipBlank(s, k+1); k >= end || s[k] != '{' {
			return
		}
		for n < len(calls) && calls[n].Offset >= 0 && calls[n].Offset < e.end {
			n++
		}
		if n == 0 || n < len(calls) && calls[n].Offset < 0 {
			return
		}
		p.cps = append(p.cps, checkpoint{next: e.end, calls: len(p.calls) + n, form: fi, inList: true})
		i = e.end
	}
}

// skipSeparators skips blanks, commas and semicolons between values.
func skipSeparators(s string, i int) int {
	for i < len(s) && (textlayer.IsSpace(s[i]) || s[i] == ',' || s[i] == ';') {
		i++
	}
	return i
}

// header reads a call written as a header (name, maybe an id) then JSON
// arguments. at is the call's offset, end where the header starts.
func (x *extractor) header(f *form, at, end int, strict bool) piece {
	s := x.s
	hs := skipBlank(s, end)
	limit := min(len(s), hs+maxHeader)
	if f.Values && f.NameAtValue && !strict {
		if j := x.valuesAfterJunk(f, hs, limit); j >= 0 {
			// Not a name: text between the marker and a list of calls
			// that no name end follows is content, and the list is read.
			p := x.values(f, j, false)
			if junk := strings.TrimSpace(s[hs:j]); junk != "" {
				p.content = " " + junk + p.content
			}
			return p
		}
	}
	hd, body := -1, -1
	for j := hs; j < limit && hd < 0; j++ {
		if e, ok := f.nameEnds.matchAt(s, j); ok {
			hd, body = j, e
			break
		}
		switch s[j] {
		case '{':
			if f.NameAtValue {
				hd, body = j, j
			}
		case '\n':
			// A header is one line, unless only blanks separate it from
			// its name end.
			if e, ok := f.nameEnds.matchAt(s, skipBlank(s, j)); ok {
				hd, body = j, e
			} else {
				limit = j
			}
		}
	}
	if hd < 0 {
		switch {
		case strict:
			return piece{}
		case limit == len(s) && !strings.ContainsAny(strings.TrimSpace(s[hs:]), " \t\r\n"):
			// One word, no name end, and the output ends: the output
			// ends inside the header (a sentence is no header).
			return piece{calls: []dialects.RawCall{cutCall(at, s[at:], "inside a call header")}, next: len(s), ok: true}
		}
		return x.malformed(f, at, end, "the call header has no end")
	}
	name, id, msg := f.readHeader(strings.TrimSpace(s[hs:hd]))
	if msg == "" && strict && !nameToken(name) {
		msg = "the call header is not a tool name"
	}
	if msg != "" {
		if strict {
			return piece{}
		}
		return x.malformed(f, at, body, msg)
	}
	if f.contentNames[name] {
		stop, next := x.regionEnd(f, body)
		return piece{content: s[body:stop], next: next, ok: true}
	}
	if key, ok := f.RawNames[name]; ok {
		p := x.raw(f, at, body, name, key)
		if len(p.calls) > 0 {
			p.calls[0].ID = id
		}
		return p
	}
	return x.arguments(f, at, body, name, id, strict)
}

// valuesAfterJunk finds, for a form that takes both JSON values and a
// name ended at its value (Mistral before and after v11), a list of call
// objects after text that cannot be a name: the first bracket in the
// header, when no name end comes before it, opens an array of objects, or
// an object after text that is not a name token. It returns where the
// values start, or -1 when the header may be a name.
func (x *extractor) valuesAfterJunk(f *form, hs, limit int) int {
	s := x.s
	for j := hs; j < limit; j++ {
		if _, ok := f.nameEnds.matchAt(s, j); ok {
			return -1
		}
		switch s[j] {
		case '[':
			if opensObject(s, j+1) {
				return j
			}
		case '{':
			if nameToken(strings.TrimSpace(s[hs:j])) {
				return -1
			}
			return j
		}
	}
	return -1
}

// opensObject reports whether the next non-blank byte at or after i is '{'.
func opensObject(s string, i int) bool {
	i = skipBlank(s, i)
	return i < len(s) && s[i] == '{'
}

// readHeader takes the name (and id) out of a trimmed header, or says why
// it cannot.
func (f *form) readHeader(h string) (name, id, problem string) {
	if len(f.namePrefix) > 0 {
		e, ok := matchAny(f.namePrefix, h, 0)
		if !ok {
			return "", "", "the call type is missing before the tool name"
		}
		h = strings.TrimSpace(h[e:])
	}
	name = h
	if at, end := indexAny(f.idSep, h, 0, len(h)); at >= 0 {
		name, id = strings.TrimSpace(h[:at]), strings.TrimSpace(h[end:])
	}
	if f.Header != nil {
		if name, id = f.Header(name); strings.TrimSpace(name) == "" && h != "" {
			return "", "", "the call header is not a call id of this dialect"
		}
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return "", "", "the call header holds no tool name"
	}
	return name, id, ""
}

// closesFence reports whether a run that closes a fence of the byte ch
// starts at s[i] (textlayer.CloseRunAt).
func closesFence(s string, i int, ch byte) bool {
	_, ok := textlayer.CloseRunAt(s, i, ch)
	return ok
}

// fenceOnly reports whether the text from s[i] is a fence's opening line
// and nothing more: the output ends before what the fence holds.
func fenceOnly(s string, i int) bool {
	e, ok := textlayer.OpenRun(s, i)
	return ok && skipBlank(s, e) >= len(s)
}

// nameToken reports whether s looks like a tool name: no blanks, quotes,
// brackets or control characters.
func nameToken(s string) bool {
	if s == "" || len(s) > maxHeader {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`"'{}[]<>()`, r) {
			return false
		}
	}
	return true
}

// arguments reads the JSON arguments of a header call, from s[from:].
func (x *extractor) arguments(f *form, at, from int, name, id string, strict bool) piece {
	s := x.s
	j := skipBlank(s, from)
	var fence byte // the byte of the fence around the arguments, 0 when none
	if j < len(s) {
		if e, ok := textlayer.OpenRun(s, j); ok {
			if k := skipBlank(s, e); k < len(s) && (s[k] == '{' || s[k] == '[') {
				j, fence = k, s[j]
			}
		}
	}
	rc := dialects.RawCall{Name: name, ID: id, Offset: at}
	switch {
	case j < len(s) && (s[j] == '{' || s[j] == '['):
		ext := scanValue(s, j, x.d.bounds)
		raw := s[j:ext.end]
		switch ext.status {
		case extentSwallowed:
			return piece{calls: []dialects.RawCall{swallowedCall(at, s[at:])}, next: len(s), ok: true}
		case extentCut:
			rc.Arguments = raw
			rc.AtEnd = !ext.atMarker
			if !x.opts.DisableRepair { // else the unclosed value fails as strict JSON
				rc.Arguments += ext.closers
				rc.Repairs = truncation(ext, len(raw))
			}
		default:
			rc.Arguments = raw
		}
		if f.CallObject {
			atEnd := rc.AtEnd
			rc = x.callObject(rc, j)
			rc.AtEnd = atEnd
		}
		next := ext.end
		if ext.status == extentCut && !ext.atMarker {
			next = len(s) // the value runs to the end of the output
		}
		k := skipBlank(s, next)
		calls := []dialects.RawCall{rc}
		if j := strayEnd(s, k); fence != 0 && j > k && closesFence(s, skipBlank(s, j), fence) {
			textcall.NoteStrayClosers(calls) // {…}} inside the fence
			k = skipBlank(s, j)
		}
		if e, ok := textlayer.CloseRunAt(s, k, fence); ok {
			next = e
			k = skipBlank(s, next)
		}
		if e, ok := matchAny(f.end, s, k); ok {
			next = e
		} else if e, ok := x.strayBeforeEnd(f, s, k); ok {
			// {…}} before the end literal or the output's end: the
			// bracket too many is the arguments' punctuation.
			textcall.NoteStrayClosers(calls)
			next = e
		} else if e := strayOnLine(s, next); e > next {
			// {…}} and then prose: the bracket too many on the
			// arguments' line is their punctuation, the prose content.
			textcall.NoteStrayClosers(calls)
			next = e
		}
		return piece{calls: calls, next: next, ok: true}
	case j < len(s) && s[j] == '"':
		// Arguments encoded twice, a JSON string holding the object (as
		// the envelope dialects accept under "arguments"): Finish
		// unwraps it and records double_encoded.
		if end, ok := encodedObject(s, j, x.d.bounds); ok {
			rc.Arguments = s[j:end]
			next := end
			if e, ok := matchAny(f.end, s, skipBlank(s, end)); ok {
				next = e
			}
			return piece{calls: []dialects.RawCall{rc}, next: next, ok: true}
		}
	case j >= len(s) || textlayer.CutInRun(s, j) || fenceOnly(s, j):
		// Cut off after the name, or inside the fence that opens the
		// arguments: the name itself may be cut, and the arguments
		// were never written.
		return piece{calls: []dialects.RawCall{cutCall(at, s[at:], "after the tool name, before the call's arguments")}, next: len(s), ok: true}
	}
	if e, ok := matchAny(f.end, s, j); ok {
		return piece{calls: []dialects.RawCall{rc}, next: e, ok: true}
	}
	if strict {
		return piece{}
	}
	return x.malformed(f, at, j, "the call's arguments are not JSON")
}

// encodedObject reports whether a complete JSON string opens at s[i] whose
// text is a JSON object or array (arguments encoded twice), and where it
// ends. The string is not looked for past a line break or a marker of the
// dialect (bounds), so an unclosed quote costs no scan of the rest of the
// output per call.
func encodedObject(s string, i int, bounds *markerSet) (end int, ok bool) {
	line := len(s) // a JSON string holds no raw line break
	if k := strings.IndexByte(s[i+1:], '\n'); k >= 0 {
		line = i + 1 + k
	}
	k := jsonscan.StringEndIn(s[:line], i)
	if k == line || bounds.in(s, i+1, k) {
		return 0, false
	}
	var inner string
	if json.Unmarshal([]byte(s[i:k+1]), &inner) != nil {
		return 0, false
	}
	inner = strings.TrimSpace(inner)
	return k + 1, inner != "" && (inner[0] == '{' || inner[0] == '[')
}

// callObject reads the JSON of a CallObject form: a whole call object, or
// (when it names no tool) the arguments of the header's tool.
func (x *extractor) callObject(rc dialects.RawCall, offset int) dialects.RawCall {
	if rc.Arguments == "" || rc.Arguments[0] != '{' {
		return rc
	}
	calls, _, vd := x.object(rc.Arguments, offset)
	if vd != isCall || len(calls) != 1 {
		return rc
	}
	c := calls[0]
	if strings.TrimSpace(c.Name) == "" {
		c.Name = rc.Name
	}
	if c.ID == "" {
		c.ID = rc.ID
	}
	c.Offset = rc.Offset
	c.Repairs = append(rc.Repairs, c.Repairs...)
	return c
}

// raw reads a raw-text call: the text from s[from:] to the form's end, the
// next call or the end of the output becomes argument key of tool name. A
// text that is already a JSON object is taken as the arguments.
func (x *extractor) raw(f *form, at, from int, name, key string) piece {
	stop, next := x.regionEnd(f, from)
	code := strings.TrimSpace(x.s[from:stop])
	if textcall.MentionedCode(code) {
		return piece{} // the marker is mentioned in a sentence: no call
	}
	if code == "" {
		return piece{calls: []dialects.RawCall{errorCall(at, x.s[at:next], toolcall.CodeMalformedCall,
			"a raw-text call holds no text")}, next: next, ok: true}
	}
	if code[0] == '{' && !lenient.ValidString(code) {
		// JSON-looking text is not code: it is a broken JSON call, and
		// wrapping it as code would invent a call.
		return piece{calls: []dialects.RawCall{errorCall(at, x.s[at:next], toolcall.CodeMalformedCall,
			"a raw-text call holds an object that is not valid JSON")}, next: next, ok: true}
	}
	if next == len(x.s) && stop == next && textcall.CodeCut(code) {
		// The output ends inside a bracket or string the code opened:
		// the end of the output cut it, and a prefix of code is not run.
		return piece{calls: []dialects.RawCall{cutCall(at, x.s[at:next], "inside the code's brackets or strings")}, next: next, ok: true}
	}
	if code[0] != '{' && !codemode.IsPython(code) {
		// Raw-text calls hand code to an interpreter: text that is not
		// a Python program is never handed over, and stays the error's
		// raw text.
		return piece{calls: []dialects.RawCall{errorCall(at, x.s[at:next], toolcall.CodeMalformedCall,
			"a raw-text call holds text that is not a Python program")}, next: next, ok: true}
	}
	args := rawArguments(key, code)
	return piece{calls: []dialects.RawCall{{Name: name, Arguments: args, Offset: at, Verbatim: true}}, next: next, ok: true}
}

// regionEnd finds where a region that is not JSON ends, from s[from:]: at
// the form's end marker (consumed), the next call or section marker, the
// section's end, or the end of the output.
func (x *extractor) regionEnd(f *form, from int) (stop, next int) {
	limit := len(x.s)
	if _, at, _ := x.find.find(from); at >= 0 {
		limit = at
	}
	if at, _ := indexAny(x.d.secEnd, x.s, from, limit); at >= 0 {
		limit = at
	}
	if at, end := indexAny(f.end, x.s, from, limit); at >= 0 {
		return at, end
	}
	return limit, limit
}

// malformed reports the call at s[at:] as malformed, up to the end of its
// region, so that the text is neither content nor lost.
func (x *extractor) malformed(f *form, at, from int, msg string) piece {
	stop, next := x.regionEnd(f, from)
	if next <= at {
		next = len(x.s)
		stop = next
	}
	return piece{calls: []dialects.RawCall{errorCall(at, x.s[at:stop], toolcall.CodeMalformedCall, msg)}, next: next, ok: true}
}

// cutCall is a call the output ends inside of (TLP-014, cutoff.Error).
func cutCall(offset int, raw, where string) dialects.RawCall {
	e := cutoff.Error(where)
	e.Offset, e.Raw = offset, raw
	return dialects.RawCall{Offset: offset, Err: e}
}

// cutInCloser reports whether the output ends, past blanks at s[i:],
// inside a marker that closes: a section's or a call's end marker, or the
// fence around a header call's arguments. The calls before it are whole.
func (x *extractor) cutInCloser(i int) bool {
	if cutIn(x.d.secEnd, x.s, i) || textlayer.CutInRun(x.s, skipBlank(x.s, i)) {
		return true
	}
	for _, f := range x.d.forms {
		if cutIn(f.end, x.s, i) {
			return true
		}
	}
	return false
}

// cutInOpener reports whether the output ends, past blanks at s[i:],
// inside a marker that opens a call or a section.
func (x *extractor) cutInOpener(i int) bool {
	if cutIn(x.d.secStart, x.s, i) {
		return true
	}
	for _, f := range x.d.forms {
		if cutIn(f.start, x.s, i) {
			return true
		}
	}
	return false
}

func errorCall(offset int, raw string, code toolcall.Code, msg string) dialects.RawCall {
	e := toolcall.NewError(code, msg)
	e.Offset, e.Raw = offset, raw
	return dialects.RawCall{Offset: offset, Err: e}
}

func swallowedCall(offset int, raw string) dialects.RawCall {
	return errorCall(offset, raw, toolcall.CodeMalformedCall,
		"a string in the call never ends and runs over the call's closing marker")
}

// truncation records the closing of a value that was cut off.
func truncation(ext extent, at int) []toolcall.Repair {
	kind := toolcall.RepairTruncatedValue
	if ext.inString {
		kind = toolcall.RepairTruncatedString
	}
	detail := "closed at the end of the output"
	if ext.atMarker {
		detail = "closed before the next marker"
	}
	return []toolcall.Repair{{Kind: kind, Offset: at, CallIndex: -1, Detail: detail}}
}

// strayOnLine returns the end of the closing brackets too many that
// follow a value ending at s[i] on its own line (textcall.StrayOnLine).
func strayOnLine(s string, i int) int { return textcall.StrayOnLine(s, i, "]}") }

// strayBeforeEnd reports whether s[i:] starts with closing brackets too
// many (StrayClosers) followed by one of the form's end literals or by the
// end of the output, and returns where that end ends.
func (x *extractor) strayBeforeEnd(f *form, s string, i int) (int, bool) {
	j := strayEnd(s, i)
	if j == i {
		return 0, false
	}
	k := skipBlank(s, j)
	if k == len(s) {
		return j, true
	}
	return matchAny(f.end, s, k)
}
