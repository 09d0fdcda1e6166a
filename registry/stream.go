package registry

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/stream"
)

// Stream returns a parser for output that arrives in deltas (package
// stream). With opts.Dialect named the output is read in that dialect, and
// in the fallback chain's as Parse would (see stream.Options.Fallback: a
// fallback's calls come with Close); otherwise the dialect
// is detected as soon as the output's first call decides it (see
// decideAt): a one-shot detection (Parse, Detect) is that stream fed the
// whole output. Whatever the cuts, the final result equals Parse of the
// whole text, and every event is final.
func (r *Registry) Stream(opts *Options) *stream.Parser {
	if opts == nil {
		opts = &Options{}
	}
	o := *opts
	sopts := &stream.Options{Parse: o.DialectOptions(), MaxBytes: o.MaxStreamBytes}
	if o.Dialect != "" {
		if d, ok := r.Lookup(o.Dialect); ok {
			for _, name := range o.Fallback {
				if fb, ok := r.Lookup(name); ok {
					sopts.Fallback = append(sopts.Fallback, fb)
				}
			}
			return stream.NewParser(d, sopts)
		}
		// An unknown name: the final parse reports it.
		return stream.NewDetecting(&nameless{r: r, opts: heapOptions(o), tab: r.table()}, sopts)
	}
	return stream.NewDetecting(&detector{r: r, opts: heapOptions(o), tab: r.table()}, sopts)
}

// heapOptions returns a copy of o that a detecting stream keeps: taken
// only there, so that a stream with its dialect named allocates no copy.
func heapOptions(o Options) *Options { return &o }

// Stream returns a parser of the default registry (see Registry.Stream).
func Stream(opts *Options) *stream.Parser { return defaultRegistry.Stream(opts) }

// Prepare builds what detection needs for every registered dialect: the
// candidates a detecting stream reads the output with, and the points
// where a detecting parse or stream may decide. A process's first
// detecting Parse, Detect or Stream builds them otherwise (about 0.6 ms
// for the default registry, timed once in each of a dozen fresh
// processes, against tens of microseconds for a parse after; see
// docs/performance.md), which every program that imports the registry
// would pay at init were they built there. A program that times its
// parses, or answers its first request against a deadline, calls Prepare
// first. Later calls, and calls after a dialect is registered for what it
// adds, cost a lookup.
func (r *Registry) Prepare() {
	r.points()
	r.candidates()
}

// Prepared reports whether the tables Prepare builds are built for the
// registry's dialects as they are now: a registration since they were
// built makes it false until the next Prepare or detecting parse.
func (r *Registry) Prepared() bool {
	r.mu.RLock()
	tab := r.detectTab
	ok := tab != nil && tab.gen == r.gen
	r.mu.RUnlock()
	return ok && tab.pts.Load() != nil && tab.cands.Load() != nil
}

// candidates returns what a detecting stream reads the output with: every
// registered dialect, with the
// triggers detection prefilters it by (see present).
func (r *Registry) candidates() *stream.CandidateSet { return r.table().candidates() }

// candidates returns the candidates of a detecting stream over the
// table's dialects, made on first use.
func (tab *detectTable) candidates() *stream.CandidateSet {
	if set := tab.cands.Load(); set != nil {
		return set
	}
	cands := make([]stream.Candidate, len(tab.entries))
	for k := range tab.entries {
		e := &tab.entries[k]
		c := stream.Candidate{Dialect: e.d, Value: e.body}
		if !e.always {
			for _, lit := range e.triggers {
				c.Triggers = append(c.Triggers, tab.literals[lit])
			}
		}
		cands[k] = c
	}
	// Two streams that build it at once keep the first.
	tab.cands.CompareAndSwap(nil, stream.NewCandidateSet(cands))
	return tab.cands.Load()
}

// points returns the decision points of a detecting stream over the
// registry's dialects (stream.NewPointSet), made once per generation of
// its dialects, with its detection table.
func (r *Registry) points() *stream.PointSet { return r.table().points() }

// points returns the decision points over the table's dialects, made on
// first use.
func (tab *detectTable) points() *stream.PointSet {
	if set := tab.pts.Load(); set != nil {
		return set
	}
	ds := make([]dialects.Dialect, len(tab.entries))
	for k := range tab.entries {
		ds[k] = tab.entries[k].d
	}
	// Two streams that build it at once keep the first.
	tab.pts.CompareAndSwap(nil, stream.NewPointSet(ds))
	return tab.pts.Load()
}

// decideAt reports whether the first n bytes of the output seen looks
// into, the output so far at one of its points (stream.Points), already
// decide its dialect: detection over them, from the dialects' readings
// read gives (see rank), ranks one dialect first, that dialect read at
// least one valid call and no failed one out of them, and it ties only
// with dialects that read the same calls. A detecting stream asks it at
// most stream.MaxDecisions times per output, as the output arrives; a
// one-shot detection is that stream fed the whole output, so both settle
// on the same dialect at the same byte.
func (r *Registry) decideAt(ctx context.Context, seen *present, n int, opts *Options, buf []Candidate, read func(k int) (*dialects.Extraction, *toolcall.Result)) (Detection, bool) {
	// The template opened a reasoning block and the prefix has not
	// closed one: a call in it may turn out drafted in that block (of
	// whichever family's wrapper closes it later), and is then
	// reasoning, not a call. A reasoning block the prefix opened and has
	// not closed may close later, and the calls in it are then
	// reasoning too: nothing is decided inside one, and the candidates
	// are not read for a ranking that would not be used.
	if opts.ReasoningOpen && !closesReasoning(seen.text[:n], seen.tab.wrappers) ||
		inOpenReasoning(seen.text[:n], seen.tab.wrappers) {
		return Detection{}, false
	}
	det := r.rank(ctx, seen, n, opts, buf, read)
	if ctx.Err() != nil || det.Dialect == "" || len(det.Candidates) == 0 {
		return det, false
	}
	best := det.Candidates[0]
	if best.Calls == 0 || best.Errors > 0 {
		return det, false
	}
	for _, c := range det.Candidates[1:] {
		// A tie decides only when the tied readings are the same calls:
		// the first registered then stands, as in Detect.
		if c.Score >= best.Score && !sameCalls(c.result, best.result) {
			return det, false
		}
	}
	return det, true
}

// inOpenReasoning reports whether prefix ends inside a reasoning block it
// opened itself, of one of tags (every registered dialect's wrappers: a
// call in another family's block may turn out drafted, see draftedCall)
// or <think> (strictjson.UnclosedBlock: a tag inside a JSON string is text).
func inOpenReasoning(prefix string, tags []dialects.ReasoningTags) bool {
	if strictjson.UnclosedBlock(prefix, dialects.Think.Open, dialects.Think.Close) >= 0 {
		return true
	}
	for _, t := range tags {
		if strictjson.UnclosedBlock(prefix, t.Open, t.Close) >= 0 {
			return true
		}
	}
	return false
}

// closesReasoning reports whether prefix holds the closing tag of one of
// tags (every registered dialect's wrappers) or of <think>, outside the
// strings of JSON values (strictjson.IndexTag).
func closesReasoning(prefix string, tags []dialects.ReasoningTags) bool {
	if strictjson.IndexTag(prefix, dialects.Think.Close) >= 0 {
		return true
	}
	for _, t := range tags {
		if t.Close != "" && strictjson.IndexTag(prefix, t.Close) >= 0 {
			return true
		}
	}
	return false
}

// sameCalls reports whether two results hold the same calls, by name and
// arguments.
func sameCalls(a, b *toolcall.Result) bool {
	if a == nil || b == nil || len(a.Calls) != len(b.Calls) || len(a.Errors) != len(b.Errors) {
		return false
	}
	for i := range a.Calls {
		if a.Calls[i].Name != b.Calls[i].Name || !bytes.Equal(a.Calls[i].Arguments, b.Calls[i].Arguments) {
			return false
		}
	}
	return true
}

// summary says in a few words what a parse returned: its valid calls and
// its failed ones, or no call.
func summary(res *toolcall.Result) string {
	var parts []string
	if n := len(res.Calls); n > 0 {
		parts = append(parts, fmt.Sprintf("%d valid call(s)", n))
	}
	if n := len(res.Errors); n > 0 {
		parts = append(parts, fmt.Sprintf("%d error(s)", n))
	}
	if len(parts) == 0 {
		return "no call"
	}
	return strings.Join(parts, ", ")
}

// detector detects a stream's dialect with the registry: one per stream,
// as it keeps what it found of the output.
type detector struct {
	r    *Registry
	opts *Options
	// ctx stops a one-shot detection (Registry.detect); full says the
	// Detection is returned to the caller: det is the one that decided
	// (at the first at bytes, decided) or settled the output.
	ctx  context.Context
	full bool
	det  Detection
	at   int
	// cands is the memory of the candidates of the last ranking that
	// decided nothing, for the next.
	cands []Candidate
	// tab is the detection table the stream's candidates are of; seen
	// finds its literals in the output, each looked for once across the
	// points asked and the end (started: seen was readied).
	tab     *detectTable
	seen    present
	started bool
}

// look readies d.seen for text, the output so far: the output only
// grows, so what was searched of it stays searched.
func (d *detector) look(text string) *present {
	if !d.started {
		d.seen.init(text, d.tab)
		d.started = true
	}
	d.seen.text = text
	return &d.seen
}

// Candidates are every registered dialect (Registry.candidates).
func (d *detector) Candidates() *stream.CandidateSet { return d.tab.candidates() }

func (d *detector) Points() *stream.PointSet { return d.r.points() }

// Decide names the candidate prefix decides (decideAt), and why, from the
// stream's readings of prefix.
func (d *detector) Decide(prefix string, read func(k int) *stream.Reading) (int, string) {
	det, ok := d.r.decideAt(d.context(), d.look(prefix), len(prefix), d.opts, d.cands, readings(read))
	if !ok {
		// The candidates' memory serves the next point.
		d.cands = det.Candidates[:0]
		return -1, ""
	}
	det.explain(d.full)
	det.decided = true
	d.det, d.at = det, len(prefix)
	return det.Candidates[0].entry, det.Reason
}

// context is the detection's context: a stream's is never done.
func (d *detector) context() context.Context {
	if d.ctx == nil {
		return context.Background()
	}
	return d.ctx
}

// readings adapts a stream's readings to rank's.
func readings(read func(k int) *stream.Reading) func(k int) (*dialects.Extraction, *toolcall.Result) {
	return func(k int) (*dialects.Extraction, *toolcall.Result) {
		if rd := read(k); rd != nil {
			return rd.Extraction, rd.Result
		}
		return nil, nil
	}
}

// Settle decides the dialect of a whole output from the stream's
// readings of it (rank).
func (d *detector) Settle(text string, read func(k int) *stream.Reading) (int, string, *toolcall.Result) {
	det := d.r.rank(d.context(), d.look(text), len(text), d.opts, d.cands, readings(read))
	det.explain(d.full)
	d.det = det
	if det.Dialect == "" {
		return -1, det.Reason, det.result
	}
	return det.Candidates[0].entry, det.Reason, det.result
}

// Priors names the dialects the options' chat template and model name are
// evidence for (see Registry.Detect).
func (d *detector) Priors() []string {
	var names []string
	if d.opts.Template != "" {
		names = d.r.templateDialects(d.opts.Template)
	}
	if d.opts.Model != "" {
		if name, _ := d.r.modelDialect(d.opts.Model); name != "" {
			names = append(names, name)
		}
	}
	return names
}

// nameless is the detector of a stream whose named dialect does not exist:
// it never detects, and the final parse reports the name.
type nameless detector

func (n *nameless) Candidates() *stream.CandidateSet { return n.tab.candidates() }
func (n *nameless) Points() *stream.PointSet         { return stream.NewPointSet(nil) }
func (*nameless) Decide(string, func(int) *stream.Reading) (int, string) {
	return -1, ""
}
func (n *nameless) Priors() []string { return (*detector)(n).Priors() }

// Settle chooses no candidate: the result is Parse's, which reports the
// name.
func (n *nameless) Settle(text string, _ func(int) *stream.Reading) (int, string, *toolcall.Result) {
	return -1, "", n.r.Parse(text, n.opts)
}
