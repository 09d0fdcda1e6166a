package stream

import (
	"slices"
	"strings"
	"sync"

	"github.com/dialectkit/toolcall/dialects"
)

// Profile is what the stream engine knows of one dialect: its syntax, and
// how the dialect's one-shot parse treats plain text and reasoning, learnt
// by parsing a few tiny samples with the dialect itself (learning the parse
// rules rather than declaring them keeps the engine honest about every
// dialect). Learning is cheap but not free: a registry keeps one Profile
// per dialect. Build it with Learn.
type Profile struct {
	d      dialects.Dialect
	syn    dialects.Syntax
	m      *matcher
	opaque bool // hold everything: the dialect cannot be streamed
	// plain says text holding no trigger is content as written (perhaps
	// minus leading whitespace); otherwise content is held to the end.
	plain bool
	// trimLead says content loses its leading whitespace.
	trimLead bool
	// headerStart says a candidate reads a call from a bare first line
	// (a header the prompt opened): the first line is held until the next
	// one shows it is not such a header.
	headerStart bool
	// headerLike, before a dialect is detected, tells whether the output's
	// opening text can be the rest of a header a candidate reads before
	// its markers (dialects.Syntax.Header): it is held while it can.
	headerLike func(string) bool
	// spaceUnsure says whether content keeps its leading whitespace depends
	// on what follows: output that starts with whitespace is settled at the
	// end.
	spaceUnsure bool
	// pairs holds what was learnt of each reasoning wrapper.
	pairs []pairRules
	// startSettles says an output whose first bytes (after whitespace)
	// are one of the dialect's start markers is read as ReasoningClosed
	// reads it, when the caller set neither ReasoningOpen nor
	// ReasoningClosed: a closing tag later on is not the end of a block
	// the template opened (dialects.ImplicitReasoningIn). bareSettles
	// says the same of an output that opens with '{' or '[' (a bare
	// call): bareSettles['{'] and bareSettles['['].
	startSettles bool
	bareSettles  [2]bool
	// conts are the continuations an open region is probed with: a call
	// it holds is reported before the region closes when it reads the same
	// followed by each of them. Empty when the dialect's regions are only
	// read once closed.
	conts []string
	// stripTrims says the content's leading whitespace is dropped after a
	// Strip token that opens it.
	stripTrims bool
	// bareRegion says a call written without a marker (from a Bare byte)
	// is read as a region running to the end of the output: the dialect
	// has no markers that could end it.
	bareRegion bool
	// startSplits says a start marker ends the call before it inside a
	// section (a dialect with closing markers whose regions hold several
	// start markers, as Mistral's [TOOL_CALLS]name[ARGS]{…} repeated): a
	// region read up to a start marker that follows a closed value reads
	// its calls as the whole section does, whatever follows the marker,
	// and the calls after the marker read the same from it on. Learnt with
	// the stand-ins and the continuations a held output is probed with.
	startSplits bool
	// nameBare says a call may be written without a marker as name(…):
	// answer text holds back a word that may be such a name.
	nameBare bool
	// rclass classes the bytes a call region's scan stops at.
	rclass [256]uint8
	// heldConts are the continuations a held output is probed with
	// (Parser.probeHeld), and heldPoints where: after the dialect's
	// markers and after values that close.
	heldConts  []string
	heldPoints *PointSet
	// standIns holds, per pair of start and end markers, the body of a
	// small region that the dialect reads as one valid call named
	// standInName, or "" when none of standInBodies is: Close parses the
	// output with each region the stream already read replaced by such a
	// stand-in (close.go). Learnt when a pair is first met.
	standInMu sync.RWMutex
	standIns  map[[2]string]standIn
}

// standInName is the tool name written in a stand-in body, replaced by
// the name of the call the stand-in stands for.
const standInName = "standin_fn"

// standInBodies are the region bodies tried as stand-ins, in order.
var standInBodies = []string{
	`{"name": "standin_fn", "arguments": {}}`,
	"\n" + `{"name": "standin_fn", "arguments": {}}` + "\n",
	`[{"name": "standin_fn", "arguments": {}}]`,
	` [{"name": "standin_fn", "arguments": {}}]`,
	`standin_fn(a=1)`,
	`[standin_fn(a=1)]`,
	`standin_fn{}`,
	"standin_fn\n{}",
	"standin_fn\n",
	`<function=standin_fn></function>`,
	`<function=standin_fn>{}</function>`,
	`<invoke name="standin_fn"></invoke>`,
	`{"name": "standin_fn", "parameters": {}}`,
	`call:standin_fn{}`,
	`<function=standin_fn>`,
	"\n<function=standin_fn>\n",
	`<invoke name="standin_fn">`,
	"\n<invoke name=\"standin_fn\">\n",
	`standin_fn>{}`,
	`standin_fn>`,
	` name="standin_fn">`,
}

// standIn is what is learnt of a pair of start and end markers: the body
// of a stand-in region, and whether text around such regions reads plainly.
type standIn struct {
	body string
	// plain says whitespace around and between regions of this pair is
	// no content, and answer text before them is content as written less
	// its trailing whitespace: the dialect reads "Sure. \n" + R + "\n" + R
	// + " \n" as "Sure." and two calls, and " \n" + R + "\n" as one call
	// and no content.
	plain bool
}

// standInFor returns what is learnt of a region opened by start and closed
// by end (as written), learning it the first time the pair is met: the
// stand-in body is the first of standInBodies the dialect reads as one
// valid call and nothing else, alone and after text.
func (p *Profile) standInFor(start, end string) (standIn, bool) {
	s, e := "", ""
	for _, w := range p.syn.Starts {
		if len(w) == len(start) && foldEqual(start, w) {
			s = w
			break
		}
	}
	for _, w := range p.syn.Ends {
		if w == end {
			e = w
			break
		}
	}
	if s == "" || e == "" {
		return standIn{}, false
	}
	key := [2]string{s, e}
	p.standInMu.RLock()
	si, ok := p.standIns[key]
	p.standInMu.RUnlock()
	if ok {
		return si, si.body != ""
	}
	opts := &dialects.Options{}
	for _, b := range standInBodies {
		region := s + b + e
		if oneCall(p.d.Extract(region, opts), "") && oneCall(p.d.Extract("Sure.\n"+region, opts), "Sure.") {
			si.body = b
			two := p.d.Extract("Sure. \n"+region+"\n"+region+" \n", opts)
			si.plain = oneCall(p.d.Extract(" \n"+region+"\n", opts), "") && two.Content == "Sure." &&
				len(two.Calls) == 2 && two.Reasoning == "" && len(two.Errors) == 0
			for i := range two.Calls {
				c := &two.Calls[i]
				si.plain = si.plain && c.Name == standInName && c.Err == nil && len(c.Repairs) == 0 && !c.AtEnd
			}
			break
		}
	}
	p.standInMu.Lock()
	if p.standIns == nil {
		p.standIns = map[[2]string]standIn{}
	}
	p.standIns[key] = si
	p.standInMu.Unlock()
	return si, si.body != ""
}

// oneCall reports whether x is one valid call named standInName, whose
// content begins with lead, with no reasoning, error or repair.
func oneCall(x *dialects.Extraction, lead string) bool {
	if len(x.Calls) != 1 || x.Reasoning != "" || len(x.Errors) > 0 || !strings.HasPrefix(x.Content, lead) || lead == "" && x.Content != "" {
		return false
	}
	c := &x.Calls[0]
	return c.Name == standInName && c.Err == nil && len(c.Repairs) == 0 && !c.AtEnd
}

// Byte classes of a region's scan.
const (
	clsQuote   = 1 << iota // opens a quoted string
	clsTrigger             // may begin a marker
	clsBracket             // opens or closes a value
)

// classify fills the region byte classes from the profile's syntax.
func (p *Profile) classify() {
	for i := 0; i < len(p.syn.Quotes); i++ {
		p.rclass[p.syn.Quotes[i]] |= clsQuote
	}
	for c := 0; c < 256; c++ {
		if p.m.first[c] {
			p.rclass[c] |= clsTrigger
		}
	}
	for _, c := range []byte("{[()]}") {
		p.rclass[c] |= clsBracket
	}
}

// pairRules is how a dialect's one-shot parse treats one reasoning wrapper.
type pairRules struct {
	tags dialects.ReasoningTags
	// live says a block Open…Close is reasoning with its text trimmed and
	// the whitespace after Close dropped; only then does the engine stream
	// it.
	live bool
	// implicit says a Close with no Open before it makes the text before
	// it reasoning (the template opened the block).
	implicit bool
	// keepLead and keepTrail say such an implicit block keeps its leading
	// or trailing whitespace (an explicit block's is trimmed).
	keepLead, keepTrail bool
	// implicitOdd says an implicit block is read some other way: it is
	// settled at the end.
	implicitOdd bool
	// openFirst says that, with an implicit block possible, an opening tag
	// before any closing one makes the text before it content (rather than
	// reasoning the template opened).
	openFirst bool
	// joiner is what goes between the text of two blocks; joinerOdd says
	// it is not known (candidates differ): a second block is settled at the
	// end.
	joiner    string
	joinerOdd bool
	// spaceJoin says content on both sides of a block is joined by one
	// space (Hermes), rather than by the whitespace the model wrote.
	spaceJoin bool
	// oddJoin says content around a block is joined some other way: a
	// block after content is settled at the end.
	oddJoin bool
	// fold says the dialect reads the tags in any ASCII case; otherwise
	// they are matched exactly.
	fold bool
}

// plainSample is the answer text a dialect that reads plain text as
// content returns as it is.
const plainSample = "Sure, here it is."

// Learn builds d's Profile.
func Learn(d dialects.Dialect) *Profile {
	syn := dialects.SyntaxOf(d)
	p := &Profile{d: d, syn: syn, opaque: syn.Opaque}
	if p.opaque {
		p.m = newMatcher(nil, "")
		p.learnHeld(nil)
		return p
	}
	opts := &dialects.Options{}
	parse := func(s string) *dialects.Extraction { return d.Extract(s, opts) }

	if x := parse(plainSample); len(x.Calls) == 0 && x.Reasoning == "" && x.Content == plainSample {
		p.plain = true
		x = parse("  " + plainSample)
		switch x.Content {
		case plainSample:
			p.trimLead = true
		case "  " + plainSample:
			// Kept here; but some dialects trim the content when a call
			// or a framing token follows.
			words := append(append([]string(nil), syn.Starts...), syn.Tokens...)
			for _, tags := range syn.Reasoning {
				words = append(words, tags.Open)
			}
			for _, m := range words {
				if !strings.HasPrefix(parse("  "+plainSample+"\n"+m).Content, "  ") {
					p.spaceUnsure = true
					break
				}
			}
		default:
			p.plain = false
		}
	}

	var triggers []trigger
	for _, s := range syn.Starts {
		triggers = append(triggers, trigger{word: s, role: roleStart})
	}
	for _, s := range syn.Ends {
		triggers = append(triggers, trigger{word: s, role: roleEnd})
	}
	for _, s := range syn.CallEnds {
		// In a region, a point where the calls before it are read; else
		// a token (matched where a region is not open).
		triggers = append(triggers, trigger{word: s, role: roleCallEnd}, trigger{word: s, role: roleToken})
	}
	strip := p.learnStrip(parse)
	for _, s := range syn.Tokens {
		triggers = append(triggers, trigger{word: s, role: roleToken})
	}
	for s := range strip {
		// As written only; in another case it is a token, and held.
		triggers = append(triggers, trigger{word: s, role: roleStrip, exact: true})
	}
	for i, tags := range syn.Reasoning {
		r := learnPair(parse, tags)
		p.pairs = append(p.pairs, r)
		triggers = append(triggers,
			trigger{word: tags.Open, role: roleOpen, tag: i, exact: !r.fold},
			trigger{word: tags.Close, role: roleClose, tag: i, exact: !r.fold})
	}
	p.learnSettles(d)
	p.m = newMatcher(triggers, syn.Bare)
	p.classify()
	p.nameBare = strings.IndexByte(syn.Bare, '(') >= 0
	p.bareRegion = syn.Bare != "" && len(syn.Starts) == 0 && len(syn.Tokens) == 0 && len(syn.Reasoning) == 0
	if len(syn.Starts) > 0 || p.bareRegion {
		p.conts = []string{"]", "}", ")", "}]", ")]", "\n", " x", "(", ".x", ",", "\"", "'", "x\"", "\n" + syn.Starts[0] + "\n"}
		if len(syn.Starts) == 0 {
			p.conts[len(p.conts)-1] = "\n[{\"name\": \"f\", \"arguments\": {}}]"
		}
		p.conts = append(p.conts, syn.Ends...)
		for _, e := range syn.Ends {
			p.conts = append(p.conts, "\n"+e)
		}
		p.conts = append(p.conts, syn.Tokens...)
	}
	p.learnHeld(triggers)
	p.startSplits = p.learnSplits()
	return p
}

// learnSplits tells whether every start marker of the dialect ends the call
// before it (Profile.startSplits): with R the stand-in region of a start
// marker s and a closing marker, and b its body, s+b reads as one valid
// call; s+b+s+c reads the same first call for every continuation c a held
// output is probed with; and s+b+s+b+e reads as the two calls s+b does.
func (p *Profile) learnSplits() bool {
	syn := &p.syn
	if len(syn.Starts) == 0 || len(syn.Ends) == 0 {
		return false
	}
	opts := &dialects.Options{}
	for _, s := range syn.Starts {
		si, ok := p.standInFor(s, syn.Ends[0])
		if !ok {
			return false
		}
		one := p.d.Extract(s+si.body, opts)
		if !oneCall(one, "") {
			return false
		}
		want := one.Calls[0]
		for _, c := range append(p.heldConts, "", s, si.body) {
			x := p.d.Extract(s+si.body+s+c, opts)
			if len(x.Calls) == 0 || !sameRaw(&x.Calls[0], &want) || x.Calls[0].Err != nil {
				return false
			}
		}
		two := p.d.Extract(s+si.body+s+si.body+syn.Ends[0], opts)
		if len(two.Calls) != 2 || two.Content != "" || len(two.Errors) > 0 || !sameRaw(&two.Calls[0], &want) {
			return false
		}
		second := two.Calls[1]
		second.Offset -= len(s + si.body)
		if !sameCall(&second, &want) || second.Err != nil {
			return false
		}
	}
	return true
}

// learnSettles finds whether the dialect settles the reasoning start on
// an output's first bytes (Profile.startSettles, bareSettles): for every
// start marker (every '{', '['), an output that opens with it and later
// holds a closing reasoning tag with no opening one reads the same with
// the start unknown as with ReasoningClosed.
func (p *Profile) learnSettles(d dialects.Dialect) {
	if len(p.syn.Reasoning) == 0 {
		return
	}
	unknown, closed := &dialects.Options{}, &dialects.Options{ReasoningClosed: true}
	settles := func(lead string) bool {
		for _, tags := range p.syn.Reasoning {
			for _, text := range []string{lead + " think" + tags.Close + " answer", " \n" + lead + "\n" + `{"name": "f", "arguments": {}}` + "\n" + tags.Close + "answer"} {
				if !sameExtraction(d.Extract(text, unknown), d.Extract(text, closed)) {
					return false
				}
			}
		}
		return true
	}
	p.startSettles = len(p.syn.Starts) > 0
	for _, s := range p.syn.Starts {
		p.startSettles = p.startSettles && settles(s)
	}
	for i, c := range []byte("{[") {
		p.bareSettles[i] = strings.IndexByte(p.syn.Bare, c) >= 0 && settles(string(c))
	}
}

// sameExtraction reports whether two extractions read the same calls,
// content and reasoning.
func sameExtraction(a, b *dialects.Extraction) bool {
	if a.Content != b.Content || a.Reasoning != b.Reasoning || len(a.Calls) != len(b.Calls) {
		return false
	}
	for i := range a.Calls {
		x, y := a.Calls[i], b.Calls[i]
		if x.Name != y.Name || x.Arguments != y.Arguments || (x.Err == nil) != (y.Err == nil) {
			return false
		}
	}
	return true
}

// learnHeld builds what probing a held output needs: the points after
// the dialect's markers, and the continuations a call must read the same
// with: the region continuations, every marker and reasoning tag of the
// dialect, and text that would extend or follow a call of any shape.
func (p *Profile) learnHeld(triggers []trigger) {
	var words []string
	for _, t := range triggers {
		words = append(words, t.word)
	}
	if m, ok := p.d.(dialects.Marked); ok {
		words = append(words, m.Markers()...)
	}
	// The generic reasoning tags, which every dialect's parse honours
	// (dialects.SplitReasoning) even where its syntax names none (an
	// opaque one): a call followed by </think> is reasoning, not a call.
	words = append(words, dialects.Think.Open, dialects.Think.Close)
	conts := append([]string(nil), p.conts...)
	conts = append(conts, "]", "}", ")", "}]", ")]", "\n", " x", "x", "x()", ".x()", "(", ",", "\"", "'",

		"\n{\"name\": \"f\", \"arguments\": {}}", "\n[{\"name\": \"f\", \"arguments\": {}}]", "\nf()", "\n```\n")
	conts = append(conts, words...)
	for i := 0; i < len(p.syn.Quotes); i++ {
		// A string opened now and left open runs over whatever marker
		// comes next.
		for _, w := range words {
			conts = append(conts, p.syn.Quotes[i:i+1]+w)
		}
	}
	seen := map[string]bool{}
	for _, c := range conts {
		if !seen[c] {
			seen[c] = true
			p.heldConts = append(p.heldConts, c)
		}
	}
	p.heldPoints = newWordPoints(append(words, "```"))
}

// learnStrip returns the Strip tokens the dialect's parse deletes from
// plain content and that are no other marker of it: text around each, at
// the start, in the middle, at the end, with and without space, reads as
// the text without it, as the engine streams it.
func (p *Profile) learnStrip(parse func(string) *dialects.Extraction) map[string]bool {
	if !p.plain {
		return nil
	}
	other := map[string]bool{}
	for _, w := range append(append([]string(nil), p.syn.Starts...), p.syn.Ends...) {
		other[w] = true
	}
	for _, tags := range p.syn.Reasoning {
		other[tags.Open], other[tags.Close] = true, true
	}
	lead := ""
	if !p.trimLead {
		lead = " "
	}
	var out map[string]bool
	for _, t := range p.syn.Strip {
		if t == "" || other[t] || strings.IndexByte(t, ' ') >= 0 {
			continue
		}
		ok := true
		trims := false
		if x := parse(t + " Sure."); lead != "" && x.Content == "Sure." {
			// The content is trimmed once the token is deleted.
			trims, lead = true, ""
		}
		for _, c := range []struct{ text, content string }{
			{t + "Sure.", "Sure."},
			{"Sure." + t, "Sure."},
			{"Sure," + t + "here.", "Sure,here."},
			{"Sure, " + t + " here.", "Sure,  here."},
			{t + " Sure.", lead + "Sure."},
			{t + "\n" + t + "\n Sure.", lead + "Sure."},
			{"Sure." + t + t + "Done.", "Sure.Done."},
		} {
			if x := parse(c.text); len(x.Calls) > 0 || x.Reasoning != "" || len(x.Errors) > 0 || x.Content != c.content {
				ok = false
				break
			}
		}
		if ok {
			if out == nil {
				out = map[string]bool{}
			}
			out[t] = true
			p.stripTrims = p.stripTrims || trims
		}
	}
	return out
}

// Dialect returns the dialect the profile describes.
func (p *Profile) Dialect() dialects.Dialect { return p.d }

// Name is the name of the profile's dialect: a Profile is a
// dialects.Dialect, so that a fallback chain (Options.Fallback) may list
// it for its dialect, streamed by the profile.
func (p *Profile) Name() string { return p.d.Name() }

// Extract is the Extract of the profile's dialect.
func (p *Profile) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	return p.d.Extract(text, opts)
}

// learnPair finds how a dialect treats one reasoning wrapper.
func learnPair(parse func(string) *dialects.Extraction, tags dialects.ReasoningTags) pairRules {
	r := pairRules{tags: tags}
	if x := parse(upperASCII(tags.Open) + " think " + upperASCII(tags.Close) + "  answer"); x.Reasoning == "think" && x.Content == "answer" {
		r.fold = true
	}
	if x := parse(tags.Open + " think " + tags.Close + "  answer"); x.Reasoning == "think" && x.Content == "answer" && len(x.Calls) == 0 {
		r.live = true
	}
	if x := parse("think" + tags.Close + " answer"); x.Reasoning == "think" && x.Content == "answer" {
		r.implicit = true
		switch parse("  think" + tags.Close + "answer").Reasoning {
		case "think":
		case "  think":
			r.keepLead = true
		default:
			r.implicitOdd = true
		}
		switch parse("think  " + tags.Close + "answer").Reasoning {
		case "think":
		case "think  ":
			r.keepTrail = true
		default:
			r.implicitOdd = true
		}
	}
	if x := parse("lead " + tags.Open + "think" + tags.Close + " answer"); x.Reasoning == "think" && strings.HasPrefix(x.Content, "lead") {
		r.openFirst = true
	}
	tight := parse("a" + tags.Open + "r" + tags.Close + "b").Content
	loose := parse("a  " + tags.Open + "r" + tags.Close + " b").Content
	switch {
	case tight == "ab" && loose == "a  b":
	case tight == "a b" && loose == "a b":
		r.spaceJoin = true
	default:
		r.oddJoin = true
	}
	x := parse(tags.Open + "a" + tags.Close + tags.Open + "b" + tags.Close)
	if strings.HasPrefix(x.Reasoning, "a") && strings.HasSuffix(x.Reasoning, "b") {
		r.joiner = x.Reasoning[1 : len(x.Reasoning)-1]
	} else {
		r.live = false
	}
	return r
}

// upperASCII upper-cases the ASCII letters of s only.
func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = upper(c)
	}
	return string(b)
}

// unions keeps the unions last built, by their candidates: a detecting
// parser is made per answer, and its candidates (a registry's profiles,
// which do not change once learnt) are the same from answer to answer. A
// Profile is not changed once built, so parsers share it.
var unions struct {
	mu      sync.Mutex
	entries []unionEntry
}

type unionEntry struct {
	cands []*Profile
	prof  *Profile
}

// unionsKept bounds the unions kept (one per registry in use).
const unionsKept = 8

// unionOf is union(candidates), built once per candidate list.
func unionOf(candidates []*Profile) *Profile {
	unions.mu.Lock()
	for _, e := range unions.entries {
		if slices.Equal(e.cands, candidates) {
			unions.mu.Unlock()
			return e.prof
		}
	}
	unions.mu.Unlock()
	p := union(candidates)
	unions.mu.Lock()
	if len(unions.entries) >= unionsKept {
		unions.entries = unions.entries[1:]
	}
	unions.entries = append(unions.entries, unionEntry{cands: slices.Clone(candidates), prof: p})
	unions.mu.Unlock()
	return p
}

// union is the profile used before a dialect is detected: every
// candidate's markers are triggers, and plain text follows the registry's
// reading of output no dialect recognised (reasoning split at <think>, the
// rest trimmed).
func union(candidates []*Profile) *Profile {
	var triggers []trigger
	headerStart := false
	var headers []func(string) bool
	bare := map[byte]bool{}
	for _, cp := range candidates {
		if cp.syn.MarkedStart && cp.syn.Header != nil {
			headers = append(headers, cp.syn.Header)
		}
		// An opaque dialect (no streaming description: an API response
		// body, Functionary v3.2, glimmer) is tried at the points and when
		// the output ends; answer text stops at its markers, which it may
		// read as a call (Functionary v3.2's ">>>" after prose).
		syn := cp.syn
		if syn.Opaque {
			headerStart = headerStart || claimsHeader(cp.d)
			if m, ok := cp.d.(dialects.Marked); ok {
				for _, w := range m.Markers() {
					if w != "" {
						triggers = append(triggers, trigger{word: w, role: roleToken})
					}
				}
			}
			continue
		}
		words := append(append(append(append([]string(nil), syn.Starts...), syn.Ends...), syn.Tokens...), syn.CallEnds...)
		for _, tags := range syn.Reasoning {
			if tags != dialects.Think {
				words = append(words, tags.Open, tags.Close)
			}
		}
		for _, w := range words {
			triggers = append(triggers, trigger{word: w, role: roleToken})
		}
		for i := 0; i < len(syn.Bare); i++ {
			bare[syn.Bare[i]] = true
		}
	}
	// The reading of output no dialect recognised takes the tags as
	// written only.
	triggers = append(triggers,
		trigger{word: dialects.Think.Open, role: roleOpen, exact: true},
		trigger{word: dialects.Think.Close, role: roleClose, exact: true},
		// In another case a dialect may still read them: hold.
		trigger{word: dialects.Think.Open, role: roleToken},
		trigger{word: dialects.Think.Close, role: roleToken})
	var bs []byte
	for c := range bare {
		bs = append(bs, c)
	}
	return &Profile{
		m:           newMatcher(triggers, string(bs)),
		plain:       true,
		headerStart: headerStart,
		headerLike:  anyHeader(headers),
		// The detector trims the content's leading whitespace, whatever
		// the dialect's reading (Detector.Parse): it is never unsure.
		spaceUnsure: false,
		nameBare:    bare['('],
		trimLead:    true,
		pairs:       []pairRules{thinkAgreed(candidates)},
	}
}

// thinkAgreed is how <think>…</think> is read before a dialect is decided:
// what the reading of output no dialect recognised (a block split off, an
// implicit one too, trimmed, two blocks joined as written) and every
// candidate that reads plain text as content agree on. Text the union
// streams stays as streamed whichever candidate the output turns out to
// be in; where they differ (a closing tag with no opening one is the end
// of a block the template opened in one family, text in another), the
// union holds, and the dialect decided, or the final parse, settles it.
func thinkAgreed(candidates []*Profile) pairRules {
	agreed := pairRules{tags: dialects.Think, live: true, implicit: true, openFirst: true}
	opts := &dialects.Options{}
	for _, cp := range candidates {
		d := cp.d
		parse := func(s string) *dialects.Extraction { return d.Extract(s, opts) }
		if x := parse(plainSample); len(x.Calls) > 0 || x.Content != plainSample {
			// A dialect that reads no plain text as content (an API
			// response body) is decided only on output wholly its own.
			continue
		}
		r := learnPair(parse, dialects.Think)
		agreed.live = agreed.live && r.live
		agreed.openFirst = agreed.openFirst && r.openFirst
		if !r.implicit || r.implicitOdd || r.keepLead || r.keepTrail {
			agreed.implicitOdd = true
		}
		if r.spaceJoin || r.oddJoin {
			agreed.oddJoin = true
		}
		if r.joiner != agreed.joiner {
			agreed.joinerOdd = true
		}
	}
	return agreed
}

// anyHeader returns a test that holds when any of headers does, or nil
// when there are none.
func anyHeader(headers []func(string) bool) func(string) bool {
	if len(headers) == 0 {
		return nil
	}
	return func(text string) bool {
		for _, h := range headers {
			if h(text) {
				return true
			}
		}
		return false
	}
}

// claimsHeader reports whether an opaque dialect reads a call out of output
// that opens with a bare name line, as Functionary v3.2 does when the prompt
// wrote its first marker.
func claimsHeader(d dialects.Dialect) bool {
	for _, s := range []string{"get_weather\n{}", "get_weather{}"} {
		if len(d.Extract(s, &dialects.Options{}).Calls) > 0 {
			return true
		}
	}
	return false
}
