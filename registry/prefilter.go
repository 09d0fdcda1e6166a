package registry

import (
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/stream"
)

// detectTable is what detection needs of every registered dialect, read
// once per change of the registry (a dialect's Markers and Triggers are
// fixed): the dialects in registration order, and the literals they are
// prefiltered by and marked with, each distinct literal listed once.
type detectTable struct {
	gen      uint64
	entries  []detectEntry
	literals []string
	// wrappers are the reasoning wrappers of every dialect, each once.
	wrappers []dialects.ReasoningTags
	// cands are the candidates of a detecting stream (Registry.candidates),
	// made on first use.
	cands atomic.Pointer[stream.CandidateSet]
	// pts are its decision points (Registry.points), made on first use.
	pts atomic.Pointer[stream.PointSet]
}

// detectEntry is one dialect of the table; triggers and markers hold
// indexes into detectTable.literals.
type detectEntry struct {
	d dialects.Dialect
	// always: not prefiltered (no Triggers, or an empty one): the dialect
	// may find something in any text.
	always   bool
	triggers []int
	// markers are its non-empty markers, strongest first.
	markers []int
	// body: the dialect reads response bodies (dialects.Syntax.Body).
	body bool
	// reasoning are the wrappers the dialect reads.
	reasoning []dialects.ReasoningTags
	// reasoningClosed: the family's templates open no reasoning block
	// (dialects.Syntax.ReasoningClosed), so a lone closing tag is text in
	// it unless the caller says one was opened.
	reasoningClosed bool
}

// table returns the registry's detection table, built on first use after
// a change.
func (r *Registry) table() *detectTable {
	r.mu.RLock()
	t := r.detectTab
	ok := t != nil && t.gen == r.gen
	r.mu.RUnlock()
	if ok {
		return t
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.detectTab != nil && r.detectTab.gen == r.gen {
		return r.detectTab
	}
	t = &detectTable{gen: r.gen}
	ids := map[string]int{}
	id := func(lit string) int {
		if i, ok := ids[lit]; ok {
			return i
		}
		ids[lit] = len(t.literals)
		t.literals = append(t.literals, lit)
		return len(t.literals) - 1
	}
	for _, name := range r.order {
		syn := dialects.SyntaxOf(r.byName[name])
		e := detectEntry{d: r.byName[name], always: true, body: syn.Body, reasoning: syn.Reasoning, reasoningClosed: syn.ReasoningClosed}
		for _, w := range syn.Reasoning {
			if w.Open != "" && w.Close != "" && !slices.Contains(t.wrappers, w) {
				t.wrappers = append(t.wrappers, w)
			}
		}
		if pf, ok := e.d.(dialects.Prefiltered); ok {
			if triggers := pf.Triggers(); len(triggers) > 0 {
				e.always = false
				for _, lit := range triggers {
					if lit == "" {
						e.always = true
						break
					}
					e.triggers = append(e.triggers, id(lit))
				}
			}
		}
		if m, ok := e.d.(dialects.Marked); ok {
			for _, mk := range m.Markers() {
				if mk != "" {
					e.markers = append(e.markers, id(mk))
				}
			}
		}
		t.entries = append(t.entries, e)
	}
	r.detectTab = t
	return t
}

// present answers, for one output and the prefixes of it that detection
// reads (the points it may be decided at, then the whole), which literals
// of a detection table they hold. Each literal is looked for once per output, however
// many dialects share it and however many prefixes are read: a prefix
// holds a literal when the literal's first occurrence in the output ends
// within it, and the output is searched no further than the longest
// prefix read.
type present struct {
	text string // the whole output
	n    int    // the length of the prefix read now
	tab  *detectTable
	// first occurrence of each literal, -1 while none was found in the
	// first searched bytes of the text (offsets past 2 GiB are looked for
	// each time).
	first, searched []int32
	buf             [2 * 128]int32
}

// init readies p for text, read whole until prefix says otherwise.
func (p *present) init(text string, tab *detectTable) {
	p.text, p.n, p.tab = text, len(text), tab
	n := len(tab.literals)
	all := p.buf[:0]
	if 2*n > len(p.buf) {
		all = make([]int32, 2*n)
	}
	all = all[:2*n]
	p.first, p.searched = all[:n], all[n:]
	for i := range p.first {
		p.first[i], p.searched[i] = -1, 0
	}
}

// prefix sets the prefix read to the first n bytes of the output, and
// returns it.
func (p *present) prefix(n int) string {
	p.n = n
	return p.text[:n]
}

// has reports whether literal i occurs in the prefix read.
func (p *present) has(i int) bool {
	lit := p.tab.literals[i]
	if p.n > math.MaxInt32 {
		return strings.Contains(p.text[:p.n], lit)
	}
	if p.first[i] < 0 && int(p.searched[i]) < p.n {
		// Search the bytes not searched yet, from where an occurrence
		// could still start.
		from := max(0, int(p.searched[i])-len(lit)+1)
		if at := strings.Index(p.text[from:p.n], lit); at >= 0 {
			p.first[i] = int32(from + at)
		}
		p.searched[i] = int32(p.n)
	}
	return p.first[i] >= 0 && int(p.first[i])+len(lit) <= p.n
}

// anyMarker reports whether the prefix read holds a marker of some
// dialect.
func (p *present) anyMarker() bool {
	for i := range p.tab.entries {
		if p.marker(&p.tab.entries[i]) != "" {
			return true
		}
	}
	return false
}

// any reports whether e's dialect may find something in the prefix read:
// it is not prefiltered, or one of its triggers or markers is there.
func (p *present) any(e *detectEntry) bool {
	if e.always {
		return true
	}
	for _, i := range e.triggers {
		if p.has(i) {
			return true
		}
	}
	for _, i := range e.markers {
		if p.has(i) {
			return true
		}
	}
	return false
}

// marker returns the first of e's markers in the prefix read, or "".
func (p *present) marker(e *detectEntry) string {
	if lit, _ := p.markerAt(e); lit >= 0 {
		return p.tab.literals[lit]
	}
	return ""
}

// markerAt returns the literal of the first of e's markers in the prefix
// read and its rank among e's markers (0: its strongest), or -1.
func (p *present) markerAt(e *detectEntry) (lit, rank int) {
	for r, i := range e.markers {
		if p.has(i) {
			return i, r
		}
	}
	return -1, -1
}

// owners says, for the markers seen in the prefix read, which dialects
// own them: a marker several dialects list (a family's shared tag) is
// owned by the dialects that list it strongest, as the first marker they
// see. A dialect for which it is weaker evidence (it lists it after
// markers of its own, none of which is there) saw only its family's
// marker, not its own.
type owners struct {
	best []markerRank // the lowest rank each seen marker has
	buf  [8]markerRank
}

type markerRank struct{ lit, rank int }

// init ranks the markers seen in p's prefix.
func (o *owners) init(p *present) {
	o.best = o.buf[:0]
	for k := range p.tab.entries {
		lit, rank := p.markerAt(&p.tab.entries[k])
		if lit < 0 {
			continue
		}
		found := false
		for i := range o.best {
			if o.best[i].lit == lit {
				o.best[i].rank = min(o.best[i].rank, rank)
				found = true
			}
		}
		if !found {
			o.best = append(o.best, markerRank{lit, rank})
		}
	}
}

// owns reports whether the dialect that sees marker lit at rank owns it.
// No marker (lit < 0) is nobody's to contest.
func (o *owners) owns(lit, rank int) bool {
	for _, b := range o.best {
		if b.lit == lit {
			return rank <= b.rank
		}
	}
	return true
}
