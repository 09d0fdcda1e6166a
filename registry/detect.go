package registry

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/schema"
	"github.com/dialectkit/toolcall/stream"
)

// Options configure Parse, Detect and Stream. The common call is one
// literal: &registry.Options{Tools: set}, &registry.Options{Dialect:
// "hermes", Tools: set}. The fields but Dialect, Fallback, Template, Model
// and MaxStreamBytes are those of dialects.Options (DialectOptions and
// SetDialectOptions convert).
type Options struct {
	// Tools are the declared tools. When set, names must match one of them
	// and arguments must match its schema. Nil means no tools were declared.
	Tools *schema.Set
	// Lenient sets the repair pipeline's limits.
	Lenient lenient.Options
	// DisableRepair turns the lenient pipeline off: arguments must be strict
	// JSON.
	DisableRepair bool
	// Validation configures the schema check (strictness, coercion).
	Validation schema.Options
	// ReasoningOpen tells the dialect that the chat template opened a
	// reasoning block; see dialects.Options.ReasoningOpen.
	ReasoningOpen bool
	// ReasoningClosed tells the dialect that the output starts outside
	// reasoning; see dialects.Options.ReasoningClosed.
	ReasoningClosed bool
	// MaxCalls, MaxErrors and MaxErrorMessage cap the calls read from one
	// output, the errors listed and the length of one error message; see
	// dialects.Options.
	MaxCalls        int
	MaxErrors       int
	MaxErrorMessage int
	// MaxStreamBytes caps the output a stream buffers (Stream; see
	// stream.Options.MaxBytes): text past it is not read, and the result
	// is the parse of what was, with a TLP-009 error at the offset where
	// the output was cut. Zero means stream.DefaultMaxBytes (16 MiB), a
	// negative value no cap. Parse and Detect read the whole text they are
	// given and ignore it.
	MaxStreamBytes int

	// Dialect names the dialect to use. Empty means detect it.
	Dialect string
	// Fallback names dialects to try, in order, when the named dialect finds
	// no call and no error: the first that finds a call gives the result.
	// Streams follow the same rule (stream.Options.Fallback). Detection is
	// its own fallback.
	Fallback []string
	// Template is the model's chat template (Ollama /api/show "template",
	// or a GGUF tokenizer.chat_template), used as evidence.
	Template string
	// Model is the model's name ("qwen3:8b"), used as evidence.
	Model string
}

// DialectOptions returns the options of one dialect's parse: the fields of
// o that dialects.Options has. With a Template and neither ReasoningOpen
// nor ReasoningClosed set, the reasoning start is the template's
// (TemplateReasoningStart), the same for Parse, Detect and Stream.
func (o *Options) DialectOptions() dialects.Options {
	if o == nil {
		return dialects.Options{}
	}
	d := dialects.Options{
		Tools:           o.Tools,
		Lenient:         o.Lenient,
		DisableRepair:   o.DisableRepair,
		Validation:      o.Validation,
		ReasoningOpen:   o.ReasoningOpen,
		ReasoningClosed: o.ReasoningClosed,
		MaxCalls:        o.MaxCalls,
		MaxErrors:       o.MaxErrors,
		MaxErrorMessage: o.MaxErrorMessage,
	}
	defaultRegistry.reasoningStart(o, &d)
	return d
}

// SetDialectOptions sets the fields of o that dialects.Options has.
func (o *Options) SetDialectOptions(d dialects.Options) {
	o.Tools, o.Lenient, o.DisableRepair = d.Tools, d.Lenient, d.DisableRepair
	o.Validation, o.ReasoningOpen, o.ReasoningClosed = d.Validation, d.ReasoningOpen, d.ReasoningClosed
	o.MaxCalls, o.MaxErrors, o.MaxErrorMessage = d.MaxCalls, d.MaxErrors, d.MaxErrorMessage
}

// Evidence is one reason to believe a dialect wrote the output.
type Evidence struct {
	// Source is where the evidence came from: "hint", "template", "model",
	// "marker" or "parse".
	Source string `json:"source"`
	// Detail says what was seen.
	Detail string `json:"detail"`
	// Weight is what the evidence added to the candidate's score.
	Weight float64 `json:"weight"`
}

// Candidate is one dialect considered by detection, with its score.
type Candidate struct {
	Dialect  string     `json:"dialect"`
	Score    float64    `json:"score"`
	Evidence []Evidence `json:"evidence"`
	// Calls and Errors count what the dialect's parse produced.
	Calls  int `json:"calls"`
	Errors int `json:"errors"`

	result *toolcall.Result
	// marker is the first of its markers the candidate saw; owns: it saw
	// none, or owns the one it saw (see owners).
	marker string
	owns   bool
	// entry is the candidate's index in the detection table.
	entry int
	// What its Evidence is made of, kept so that a ranking compares
	// numbers and writes the evidence only for a Detection returned
	// (Detection.explain): the caller's evidence for it (priors), how
	// many of its calls are text taken verbatim, whether tools were
	// declared, and whether its evidence is its own (see facts).
	priors   []Evidence
	verbatim int
	declared bool
	own      bool
}

// Detection is the outcome of detection: the chosen dialect, the ranked
// candidates, and the evidence that decided.
type Detection struct {
	// Dialect is the chosen dialect, or "" when no dialect recognised the
	// output (plain prose).
	Dialect string `json:"dialect"`
	// Reason explains the choice in one line.
	Reason string `json:"reason"`
	// Candidates are every dialect considered, best first.
	Candidates []Candidate `json:"candidates"`

	result *toolcall.Result
	// decided says the output's first calls decided the dialect (see
	// decideAt): Candidates rank the text up to there.
	decided bool
}

// Evidence weights. Parse evidence dominates: a dialect whose parse yields
// valid calls beats one that was only hinted at, unless it was named.
const (
	weightTemplate     = 40
	weightModel        = 25
	weightMarker       = 30
	weightValidCall    = 20
	weightDeclaredTool = 15
	weightCallError    = -12
	weightMarkedNoCall = 2
	weightFailedOnly   = 4 // more than finding nothing: see facts
	// weightVerbatimCall is what a valid call counts when it is text taken
	// verbatim as a fixed tool's argument (raw code): a reading that
	// takes any text, so less evidence than a call the syntax wrote.
	weightVerbatimCall = 10
)

// Detect ranks the registered dialects for text and parses it with the
// best one. The hint in opts.Dialect, when set, is taken as is. Detection
// is the detecting stream's (Registry.Stream) fed the whole text and
// closed: when the output's first calls decide the dialect, that decision
// stands, as it does for a stream that saw only those bytes; the
// Candidates still rank the whole output. (ParseDetect's rank the text
// that decided.)
func (r *Registry) Detect(text string, opts *Options) Detection {
	det := r.detect(context.Background(), text, opts, true)
	if det.decided {
		det.Candidates = r.rankWhole(context.Background(), text, opts).Candidates
	}
	return det
}

// detect is Detect without the ranking of the whole output: the named
// dialect's reading, or the detecting stream's, fed the whole text and
// closed. It stops between dialects once ctx is done, with no dialect
// chosen. full says the Detection goes to the caller: without it, only
// the dialect chosen and its result are of use, and the evidence of the
// candidates is not written.
func (r *Registry) detect(ctx context.Context, text string, opts *Options, full bool) Detection {
	if opts == nil {
		opts = &Options{}
	}
	if opts.Dialect != "" {
		return r.named(text, opts)
	}
	d := &detector{r: r, opts: opts, tab: r.table(), ctx: ctx, full: full}
	res := stream.NewDetecting(d, &stream.Options{Parse: opts.DialectOptions(), MaxBytes: -1}).Read(text)
	if err := ctx.Err(); err != nil {
		return canceledDetection(text, err)
	}
	det := d.det
	det.result = res
	if full && det.decided && d.at < len(text) && len(det.Candidates) > 0 && !sameCalls(det.Candidates[0].result, det.result) {
		// The evidence counted the calls of the prefix: when the whole
		// output reads otherwise (more calls, or none: a list the
		// prefix ended on that the rest of the sentence makes an
		// example), the reason scopes that evidence to the prefix and
		// says what the parse returned, or "1 valid call(s)" reads
		// wrong beside the calls returned.
		det.Reason = fmt.Sprintf("decided by the first %d of %d bytes (%s); the whole output: %s", d.at, len(text), det.Reason, summary(det.result))
	}
	return det
}

// named is the Detection of text in the dialect opts names.
func (r *Registry) named(text string, opts *Options) Detection {
	d, ok := r.Lookup(opts.Dialect)
	if !ok {
		res := &toolcall.Result{Calls: []toolcall.Call{}, Content: text, Errors: []*toolcall.Error{r.unknown(opts.Dialect)}}
		return Detection{Reason: "unknown dialect " + opts.Dialect, result: res}
	}
	do := opts.DialectOptions()
	res := dialects.Parse(d, text, &do)
	c := Candidate{Dialect: d.Name(), Calls: len(res.Calls), Errors: len(res.Errors), result: res,
		Evidence: []Evidence{{Source: "hint", Detail: "dialect named by the caller"}}}
	return Detection{Dialect: d.Name(), Reason: "named by the caller", Candidates: []Candidate{c}, result: res}
}

// rankWhole ranks the dialects for the whole of text, each reading all
// of it, for a caller that asked for the ranking itself (Detect): how
// every dialect reads the output, beside the decision.
func (r *Registry) rankWhole(ctx context.Context, text string, opts *Options) Detection {
	if opts == nil {
		opts = &Options{}
	}
	var seen present
	seen.init(text, r.table())
	do := opts.DialectOptions()
	det := r.rank(ctx, &seen, len(text), opts, nil, func(k int) (*dialects.Extraction, *toolcall.Result) {
		return seen.tab.entries[k].d.Extract(text, &do), nil
	})
	det.explain(true)
	return det
}

// rank is the one decision of detection: it ranks the dialects for text,
// the first n bytes of the output seen looks into, from their readings
// of it, and returns the best. read returns the reading of the table's
// entry k: its Extraction and, when the reader has made it, the result
// (dialects.Finish of that Extraction); a nil Extraction says the dialect
// reads nothing there. A one-shot detection reads each dialect with its
// Extract; a detecting stream gives its candidates' Readers' readings
// (detector.Settle), so that both decide alike. The candidates are
// compared on their scores alone, appended to buf: the Detection has no
// evidence written and no Reason until explain writes them.
func (r *Registry) rank(ctx context.Context, seen *present, n int, opts *Options, buf []Candidate, read func(k int) (*dialects.Extraction, *toolcall.Result)) Detection {
	text := seen.prefix(n)
	do := opts.DialectOptions()
	priors := map[string][]Evidence(nil) // made when some evidence comes
	if opts.Template != "" || opts.Model != "" {
		priors = map[string][]Evidence{}
	}
	if opts.Template != "" {
		for _, name := range r.templateDialects(opts.Template) {
			priors[name] = append(priors[name], Evidence{Source: "template", Detail: "chat template markers", Weight: weightTemplate})
		}
	}
	if opts.Model != "" {
		if name, pattern := r.modelDialect(opts.Model); name != "" {
			priors[name] = append(priors[name], Evidence{Source: "model", Detail: fmt.Sprintf("model name matches %q", pattern), Weight: weightModel})
		}
	}

	cands := buf[:0]
	var drafted drafts
	tab := seen.tab
	// A dialect that saw none of its markers is dropped when another saw
	// one (dropUnmarked): it is not worth running then.
	marked := prefilter && seen.anyMarker()
	var own owners
	own.init(seen)
	for k := range tab.entries {
		e := &tab.entries[k]
		d := e.d
		if err := ctx.Err(); err != nil {
			return canceledDetection(text, err)
		}
		lit, rank := seen.markerAt(e)
		marker := ""
		if lit >= 0 {
			marker = tab.literals[lit]
		}
		if marked && marker == "" {
			continue
		}
		if e.body && !opensValue(text) {
			// Model text, not a response body (dialects.Syntax.Body).
			continue
		}
		if prefilter && len(priors[d.Name()]) == 0 && !seen.any(e) {
			// None of its markers is in the text: it would find nothing,
			// and a dialect that finds nothing is no candidate.
			continue
		}
		// Every dialect is tried, markers or not: several accept their
		// syntax without its optional markers, and an Extract that finds
		// none of its markers returns quickly.
		ext, res := read(k)
		if ext == nil {
			continue
		}
		if drafted.draftedCall(text, ext, tab.wrappers, e.reasoning) || drafted.implicitCall(text, ext, tab.wrappers, e, &do) {
			// It reads a call another family's reasoning holds: a drafted
			// call, not a reading of the output (when in doubt, not a
			// call, and no error to re-ask about a draft).
			continue
		}
		if res == nil {
			res = dialects.Finish(d.Name(), ext, &do)
		}
		prior := priors[d.Name()]
		if len(res.Calls) == 0 && !ext.Marked && marker == "" && len(prior) == 0 {
			// Nothing for it: no call, and its errors (if any) are about
			// text it never recognised as its own.
			continue
		}
		owns := own.owns(lit, rank)
		cands = append(cands, Candidate{Dialect: d.Name(), Calls: len(res.Calls), Errors: len(res.Errors), result: res,
			marker: marker, owns: owns, entry: k, priors: prior, verbatim: min(verbatimCalls(ext), len(res.Calls)),
			declared: opts.Tools != nil && opts.Tools.Len() > 0, own: owns || len(prior) > 0})
		c := &cands[len(cands)-1]
		c.Score = c.score()
	}
	cands = dropUnmarked(cands)
	slices.SortStableFunc(cands, func(a, b Candidate) int {
		switch {
		case a.Score != b.Score:
			return cmp.Compare(b.Score, a.Score)
		case a.owns != b.owns:
			if a.owns {
				return -1
			}
			return 1
		}
		return cmp.Compare(unexplained(a), unexplained(b))
	})

	det := Detection{Candidates: cands}
	// A candidate is only dropped for a non-positive score when it found
	// nothing: a failed call is still the call the model tried to make, and
	// its error is what a retry needs.
	if len(cands) == 0 || (cands[0].Score <= 0 && cands[0].Calls+cands[0].Errors == 0) {
		det.Reason = "no dialect recognised the output"
		det.result = plain(text, &do)
		return det
	}
	det.Dialect = cands[0].Dialect
	det.result = cands[0].result
	return det
}

// drafts are the blocks of an output written with both tags of a
// reasoning wrapper, per wrapper, found once per output for draftedCall.
type drafts struct {
	done   bool
	blocks map[dialects.ReasoningTags][]textlayer.Span // sorted, not overlapping
	// implicit: per wrapper whose closing tag comes before any opening
	// one, where that first closing tag ends (the block a template
	// opened, dialects.TemplateBlockEnd).
	implicit map[dialects.ReasoningTags]int
}

// find finds the closed blocks of every wrapper in text
// (strictjson.ClosedBlocks).
func (d *drafts) find(text string, wrappers []dialects.ReasoningTags) {
	d.done = true
	for _, w := range wrappers {
		if end := dialects.TemplateBlockEnd(text, []dialects.ReasoningTags{w}, false, true); end > 0 {
			if d.implicit == nil {
				d.implicit = map[dialects.ReasoningTags]int{}
			}
			d.implicit[w] = end
		}
		if b := strictjson.ClosedBlocks(text, w.Open, w.Close); len(b) > 0 {
			if d.blocks == nil {
				d.blocks = map[dialects.ReasoningTags][]textlayer.Span{}
			}
			d.blocks[w] = b
		}
	}
}

// draftedCall reports whether ext holds a call (read or failed) that
// stands inside a block of text written with both tags of a reasoning
// wrapper of some registered dialect that the reading dialect does not
// read (own): Qwen3-Coder reading a Seed-OSS call drafted in
// <seed:think>…</seed:think>. Every dialect that reads a wrapper keeps a
// call inside its closed blocks as reasoning; a dialect that shares the
// call syntax but not the wrapper would run it.
func (d *drafts) draftedCall(text string, ext *dialects.Extraction, wrappers, own []dialects.ReasoningTags) bool {
	if ext == nil || len(ext.Calls) == 0 {
		return false
	}
	if !d.done {
		d.find(text, wrappers)
	}
	for w, blocks := range d.blocks {
		if slices.Contains(own, w) {
			continue
		}
		for _, rc := range ext.Calls {
			k, _ := slices.BinarySearchFunc(blocks, rc.Offset, func(b textlayer.Span, off int) int {
				if b.End <= off {
					return -1
				}
				if b.Start > off {
					return 1
				}
				return 0
			})
			if k < len(blocks) && blocks[k].Start <= rc.Offset && rc.Offset < blocks[k].End {
				return true
			}
		}
	}
	return false
}

// implicitCall reports whether ext, the reading of the dialect of entry
// e, holds a call (read or failed) before the lone closing tag of a
// reasoning wrapper of some registered dialect, in the block a template
// opened (a closing tag before any opening one), when the dialect does
// not read that block: the wrapper is not its own, or its family's
// templates open no block (dialects.Syntax.ReasoningClosed) and the
// caller did not say one was opened. Every dialect that reads such a block
// keeps a call in it as reasoning (dialects.TemplateBlockEnd); one that
// shares the call syntax but not the block would run it. Nothing is
// excluded when the caller says the output starts outside reasoning.
func (d *drafts) implicitCall(text string, ext *dialects.Extraction, wrappers []dialects.ReasoningTags, e *detectEntry, opts *dialects.Options) bool {
	if ext == nil || len(ext.Calls) == 0 || !dialects.ImplicitReasoning("", nil, opts) {
		return false
	}
	if !d.done {
		d.find(text, wrappers)
	}
	for w, end := range d.implicit {
		if slices.Contains(e.reasoning, w) && (!e.reasoningClosed || opts.ReasoningOpen) {
			continue
		}
		for _, rc := range ext.Calls {
			if rc.Offset >= 0 && rc.Offset < end {
				return true
			}
		}
	}
	return false
}

// prefilter turns the marker prefilter of detection on (see present and
// dropUnmarked); the differential test turns it off to check that it
// changes no decision.
var prefilter = true

// dropUnmarked removes the candidates that saw no marker when another one
// did. A dialect that found its own markers owns that text: when its call
// is malformed, a marker-less dialect (bare JSON, pythonic) reading a call
// out of the same bytes would answer a question nobody asked, and hide the
// error a retry needs.
func dropUnmarked(cands []Candidate) []Candidate {
	marked := func(c Candidate) bool { return c.marker != "" }
	any := false
	for _, c := range cands {
		any = any || marked(c)
	}
	if !any {
		return cands
	}
	out := cands[:0]
	for _, c := range cands {
		if marked(c) {
			out = append(out, c)
		}
	}
	return out
}

// unexplained is how much of the output a candidate left as content: among
// readings of equal weight, the one that explains more of the output (took
// the fence, the wrapper, the markers around its calls) is the dialect
// that wrote it, and the other leaves its markup behind as content.
func unexplained(c Candidate) int {
	if c.result == nil {
		return 0
	}
	return len(textlayer.TrimSpace(c.result.Content))
}

// explain writes the evidence of the Detection's candidates (all of
// them, or the first alone), and its Reason when it chose a dialect: a
// ranking compares scores, and the evidence is words for the caller. A
// first candidate that won a tie of scores by owning the marker it saw or
// by explaining more of the output says why it won.
func (det *Detection) explain(all bool) {
	for i := range det.Candidates {
		if i > 0 && !all {
			break
		}
		det.Candidates[i].Evidence = det.Candidates[i].evidence()
	}
	cands := det.Candidates
	if len(cands) >= 2 && cands[0].Score == cands[1].Score {
		if cands[0].owns && !cands[1].owns {
			cands[0].Evidence = append(cands[0].Evidence, Evidence{Source: "marker",
				Detail: quote(cands[0].marker) + " is its own marker; " + cands[1].Dialect + " lists it after markers of its own, none of which is there"})
		} else if a, b := unexplained(cands[0]), unexplained(cands[1]); a < b {
			cands[0].Evidence = append(cands[0].Evidence, Evidence{Source: "parse",
				Detail: fmt.Sprintf("leaves %d byte(s) of content, %s leaves %d", a, cands[1].Dialect, b)})
		}
	}
	if det.Dialect != "" && len(cands) > 0 {
		det.Reason = explainEvidence(cands[0].Evidence)
	}
}

// verbatimCalls counts the calls of ext taken verbatim (RawCall.Verbatim)
// that were read without error.
func verbatimCalls(ext *dialects.Extraction) int {
	n := 0
	if ext == nil {
		return 0
	}
	for _, rc := range ext.Calls {
		if rc.Verbatim && rc.Err == nil {
			n++
		}
	}
	return n
}

// fact is one piece of a candidate's evidence after the caller's, as
// numbers: a ranking adds up their weights, and only a Detection returned
// writes their words (Candidate.evidence).
type fact struct {
	kind   factKind
	n      int // how many calls it counts
	weight float64
}

type factKind uint8

const (
	factMarker     factKind = iota // saw its marker
	factValid                      // valid calls
	factDeclared                   // calls of declared tools
	factFailedOnly                 // only failed calls, recognised as its own
	factFailed                     // failed calls
	factNoCall                     // evidence of its own, but no call
)

// facts returns the candidate's evidence but the caller's, in buf: the
// marker it saw and what its parse read (verbatim of its calls were text
// taken as a fixed tool's argument). Calls it recognised but failed to
// read count for it when its evidence is its own (a prior, or a marker it
// owns: see owners): it recognised calls it could not read, which says
// more than a dialect that found nothing there, and their errors are what
// a retry needs; a valid call still outweighs them. A dialect that saw
// only a marker it shares with its family, listed by another dialect as
// that one's strongest, read its failed calls out of the other's text.
func (c *Candidate) facts(buf *[4]fact) []fact {
	fs := buf[:0]
	evidenced := len(c.priors) > 0 || c.marker != ""
	if c.marker != "" {
		fs = append(fs, fact{kind: factMarker, weight: weightMarker})
	}
	if n := c.Calls; n > 0 {
		fs = append(fs, fact{kind: factValid, n: n, weight: float64(weightValidCall*(n-c.verbatim) + weightVerbatimCall*c.verbatim)})
		if c.declared {
			fs = append(fs, fact{kind: factDeclared, n: n, weight: float64(weightDeclaredTool * n)})
		}
	}
	switch n := c.Errors; {
	case n > 0 && c.Calls == 0 && evidenced && c.own:
		fs = append(fs, fact{kind: factFailedOnly, n: n, weight: weightFailedOnly})
	case n > 0:
		fs = append(fs, fact{kind: factFailed, n: n, weight: float64(weightCallError * n)})
	case c.Calls == 0 && evidenced:
		fs = append(fs, fact{kind: factNoCall, weight: weightMarkedNoCall})
	}
	return fs
}

// score is the candidate's score: the weights of its evidence, summed in
// its order.
func (c *Candidate) score() float64 {
	var score float64
	for _, e := range c.priors {
		score += e.Weight
	}
	var buf [4]fact
	for _, f := range c.facts(&buf) {
		score += f.weight
	}
	return score
}

// evidence returns the candidate's evidence, whose weights make its
// score: the caller's, then its facts in words.
func (c *Candidate) evidence() []Evidence {
	var buf [4]fact
	fs := c.facts(&buf)
	ev := make([]Evidence, 0, len(c.priors)+len(fs))
	ev = append(ev, c.priors...)
	for _, f := range fs {
		e := Evidence{Source: "parse", Weight: f.weight}
		switch f.kind {
		case factMarker:
			e.Source, e.Detail = "marker", "saw "+quote(c.marker)
		case factValid:
			e.Detail = fmt.Sprintf("%d valid call(s)", f.n)
			if c.verbatim > 0 {
				e.Detail += fmt.Sprintf(", %d of them text taken verbatim", c.verbatim)
			}
		case factDeclared:
			e.Detail = "calls name declared tools with valid arguments"
		case factFailedOnly:
			e.Detail = fmt.Sprintf("%d call(s) recognised but failed", f.n)
		case factFailed:
			e.Detail = fmt.Sprintf("%d call(s) failed", f.n)
		case factNoCall:
			e.Detail = "no call found"
		}
		ev = append(ev, e)
	}
	return ev
}

func explainEvidence(evidence []Evidence) string {
	parts := make([]string, 0, len(evidence))
	for _, e := range evidence {
		parts = append(parts, e.Source+": "+e.Detail)
	}
	return strings.Join(parts, "; ")
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// opensValue reports whether text opens, after whitespace, with a JSON
// object or array, as a response body does.
func opensValue(text string) bool {
	text = strings.TrimLeft(text, " \t\r\n")
	return text != "" && (text[0] == '{' || text[0] == '[')
}

// plain is the result for output no dialect recognised: reasoning split
// off, the rest is content.
func plain(text string, opts *dialects.Options) *toolcall.Result {
	reasoning, content := dialects.SplitReasoning(text, dialects.ReasoningSplit{Tags: []dialects.ReasoningTags{dialects.Think}, StartsOpen: opts != nil && opts.ReasoningOpen, Implicit: dialects.ImplicitReasoning("", nil, opts)})
	return &toolcall.Result{Calls: []toolcall.Call{}, Content: textlayer.TrimSpace(content), Reasoning: reasoning}
}

// Parse parses text: with the named dialect (then the fallback chain when it
// finds nothing), or with the dialect detection chooses. Result.Dialect names
// the dialect that produced the result.
func (r *Registry) Parse(text string, opts *Options) *toolcall.Result {
	if opts != nil && opts.Dialect != "" {
		// Nothing to rank: no Detection to build.
		if d, ok := r.Lookup(opts.Dialect); ok {
			return r.parseNamed(context.Background(), d, text, opts)
		}
	}
	res, _ := r.parseDetect(context.Background(), text, opts, false)
	return res
}

// ParseDetect is Parse that also returns how the dialect was chosen.
func (r *Registry) ParseDetect(text string, opts *Options) (*toolcall.Result, Detection) {
	return r.parseDetect(context.Background(), text, opts, true)
}

// parseDetect is ParseDetect; it stops between dialects once ctx is done.
// full says the Detection goes to the caller (see detect).
func (r *Registry) parseDetect(ctx context.Context, text string, opts *Options, full bool) (*toolcall.Result, Detection) {
	if opts == nil {
		opts = &Options{}
	}
	det := r.detect(ctx, text, opts, full)
	res := det.result
	if opts.Dialect != "" && len(res.Calls) == 0 && len(res.Errors) == 0 && len(opts.Fallback) > 0 {
		fb, name, err := r.fallback(ctx, text, opts)
		if err != nil {
			return canceledResult(text, err), canceledDetection(text, err)
		}
		if fb != nil {
			det.Dialect, det.Reason, res = name, "fallback after "+opts.Dialect+" found no call", fb
		}
	}
	if res.Dialect == "" {
		res.Dialect = det.Dialect
	}
	return res, det
}

// parseNamed is parseDetect for opts naming d, without the Detection.
func (r *Registry) parseNamed(ctx context.Context, d dialects.Dialect, text string, opts *Options) *toolcall.Result {
	do := opts.DialectOptions()
	res := dialects.Parse(d, text, &do)
	if len(res.Calls) == 0 && len(res.Errors) == 0 && len(opts.Fallback) > 0 {
		fb, _, err := r.fallback(ctx, text, opts)
		if err != nil {
			return canceledResult(text, err)
		}
		if fb != nil {
			res = fb
		}
	}
	if res.Dialect == "" {
		res.Dialect = d.Name()
	}
	return res
}

// fallback parses text with the dialects of opts.Fallback in turn and
// returns the first result with a call and its dialect's name, or nil.
// It stops once ctx is done, with ctx's error.
func (r *Registry) fallback(ctx context.Context, text string, opts *Options) (*toolcall.Result, string, error) {
	do := opts.DialectOptions()
	for _, name := range opts.Fallback {
		if err := ctx.Err(); err != nil {
			return nil, "", err
		}
		d, ok := r.Lookup(name)
		if !ok {
			continue
		}
		if fb := dialects.Parse(d, text, &do); len(fb.Calls) > 0 {
			return fb, d.Name(), nil
		}
	}
	return nil, "", nil
}
