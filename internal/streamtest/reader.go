package streamtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
)

// CheckReader checks a family engine's Reader on text, cut every way Cuts
// gives: the pieces of every cutting make the Extraction that reading the
// text whole makes, and they keep the Reader's rules (calls begin in
// order, each started call ends with exactly one PieceCall after its
// start, PieceMarked comes at most once). A piece, once returned, stays
// as it was returned: what the Reader writes later, and what other
// Readers of the dialect write after it (pooled arrays used again), never
// changes the text it holds. A Reader that is a dialects.Peeker is peeked
// after each delta of every cutting of up to maxPeeked deltas: the pieces
// so far and the peek make the Extraction that reading the text so far
// whole makes, and the peeks change nothing the Reader returns after.
func CheckReader(d dialects.Incremental, text string, opts *dialects.Options) error {
	if opts == nil {
		opts = &dialects.Options{}
	}
	want := dialects.Read(d.NewReader(opts), text)
	wantWas := renderExtraction(want)
	var all []dialects.Piece
	var was []string
	for _, cut := range Cuts(text, nil, len(text) > maxEveryCut) {
		r := d.NewReader(opts)
		var ps []dialects.Piece
		fed := 0
		for _, c := range cut {
			n := len(ps)
			ps = append(ps, r.Write(c)...)
			for _, p := range ps[n:] {
				was = append(was, renderPiece(&p))
			}
			fed += len(c)
			if pk, ok := r.(dialects.Peeker); ok && len(cut) <= maxPeeked {
				if err := checkPeek(d, pk, ps, text[:fed], opts); err != nil {
					return fmt.Errorf("%s: cut in %d deltas: %w", d.Name(), len(cut), err)
				}
			}
		}
		n := len(ps)
		ps = append(ps, r.Close()...)
		for _, p := range ps[n:] {
			was = append(was, renderPiece(&p))
		}
		all = append(all, ps...)
		if err := pieceRules(ps); err != nil {
			return fmt.Errorf("%s: cut in %d deltas: %w", d.Name(), len(cut), err)
		}
		got := dialects.Read(&replay{ps: ps}, "")
		if err := SameExtraction(want, got); err != nil {
			return fmt.Errorf("%s: cut in %d deltas (%q…): %w", d.Name(), len(cut), cut[0], err)
		}
	}
	for i := range all {
		if now := renderPiece(&all[i]); now != was[i] {
			return fmt.Errorf("%s: a piece changed after it was returned: %q, was %q", d.Name(), now, was[i])
		}
	}
	if now := renderExtraction(want); now != wantWas {
		return fmt.Errorf("%s: the one-shot reading changed after other readings: %q, was %q", d.Name(), now, wantWas)
	}
	return nil
}

// maxPeeked is the most deltas of a cutting CheckReader peeks after each
// of: a peek costs a reading of the text so far.
const maxPeeked = 200

// checkPeek checks a Peeker that read prefix and returned ps: ps and
// what it peeks make the Extraction of prefix read whole.
func checkPeek(d dialects.Incremental, pk dialects.Peeker, ps []dialects.Piece, prefix string, opts *dialects.Options) error {
	peeked := append(slices.Clone(ps), pk.Peek()...)
	if err := pieceRules(peeked); err != nil {
		return fmt.Errorf("peeked after %d bytes: %w", len(prefix), err)
	}
	want := dialects.Read(d.NewReader(opts), prefix)
	if err := SameExtraction(want, dialects.Read(&replay{ps: peeked}, "")); err != nil {
		return fmt.Errorf("peeked after %d bytes (%q): %w", len(prefix), prefix, err)
	}
	return nil
}

// renderPiece writes out every string a piece holds, its call's included,
// so that a later change to any of them shows.
func renderPiece(p *dialects.Piece) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%d|%q|%q|%v", p.Kind, p.Index, p.Text, p.Name, p.Err)
	if p.Call != nil {
		renderCall(&b, p.Call)
	}
	return b.String()
}

// renderExtraction writes out every string an Extraction holds.
func renderExtraction(x *dialects.Extraction) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q|%q|%v|%v", x.Content, x.Reasoning, x.Marked, x.Errors)
	for i := range x.Calls {
		renderCall(&b, &x.Calls[i])
	}
	return b.String()
}

func renderCall(b *strings.Builder, rc *dialects.RawCall) {
	fmt.Fprintf(b, "|%q|%q|%q|%q|%d|%v|%v|%v", rc.ID, rc.Name, rc.Arguments, rc.Text, rc.Offset, rc.Params, rc.Repairs, rc.Err)
}

// replay returns recorded pieces, all at once.
type replay struct{ ps []dialects.Piece }

func (r *replay) Write(string) []dialects.Piece { return nil }
func (r *replay) Close() []dialects.Piece       { return r.ps }

// pieceRules checks the order rules of a Reader's pieces.
func pieceRules(ps []dialects.Piece) error {
	const (
		none = iota
		started
		ended
	)
	var state []int
	marked := false
	for _, p := range ps {
		switch p.Kind {
		case dialects.PieceMarked:
			if marked {
				return fmt.Errorf("PieceMarked twice")
			}
			marked = true
		case dialects.PieceCallStart, dialects.PieceArguments, dialects.PieceCall:
			if p.Index > len(state) || p.Index < 0 {
				return fmt.Errorf("call %d begins before call %d", p.Index, len(state))
			}
			if p.Index == len(state) {
				state = append(state, none)
			}
			s := &state[p.Index]
			switch {
			case *s == ended:
				return fmt.Errorf("call %d: %v after its PieceCall", p.Index, p.Kind)
			case p.Kind == dialects.PieceCallStart && *s == started:
				return fmt.Errorf("call %d started twice", p.Index)
			case p.Kind == dialects.PieceArguments && *s != started:
				return fmt.Errorf("call %d: arguments before its start", p.Index)
			case p.Kind == dialects.PieceCall:
				if p.Call == nil {
					return fmt.Errorf("call %d: PieceCall without a call", p.Index)
				}
				*s = ended
			default:
				*s = started
			}
		case dialects.PieceError:
			if p.Err == nil {
				return fmt.Errorf("PieceError without an error")
			}
		case dialects.PieceContent, dialects.PieceReasoning:
		default:
			return fmt.Errorf("unknown piece kind %d", p.Kind)
		}
	}
	if i := slices.Index(state, started); i >= 0 {
		return fmt.Errorf("call %d started and never ended", i)
	}
	return nil
}

// SameExtraction reports how two extractions differ, or nil when they read
// the same calls (name, arguments, parameters, id, offset, text, error
// code, repairs, whether cut at the end), content, reasoning, markers and
// errors.
func SameExtraction(want, got *dialects.Extraction) error {
	switch {
	case want.Content != got.Content:
		return fmt.Errorf("content %q, want %q", got.Content, want.Content)
	case want.Reasoning != got.Reasoning:
		return fmt.Errorf("reasoning %q, want %q", got.Reasoning, want.Reasoning)
	case want.Marked != got.Marked:
		return fmt.Errorf("marked %v, want %v", got.Marked, want.Marked)
	case len(want.Calls) != len(got.Calls):
		return fmt.Errorf("%d calls, want %d", len(got.Calls), len(want.Calls))
	case len(want.Errors) != len(got.Errors):
		return fmt.Errorf("%d errors, want %d", len(got.Errors), len(want.Errors))
	}
	for i := range want.Calls {
		w, g := &want.Calls[i], &got.Calls[i]
		switch {
		case w.Name != g.Name || w.Arguments != g.Arguments || w.ID != g.ID || w.Text != g.Text:
			return fmt.Errorf("call %d is %s(%s) id %q, want %s(%s) id %q", i, g.Name, g.Arguments, g.ID, w.Name, w.Arguments, w.ID)
		case !slices.Equal(w.Params, g.Params):
			return fmt.Errorf("call %d params %v, want %v", i, g.Params, w.Params)
		case w.Offset != g.Offset || w.AtEnd != g.AtEnd:
			return fmt.Errorf("call %d at %d (cut %v), want %d (cut %v)", i, g.Offset, g.AtEnd, w.Offset, w.AtEnd)
		case codeOf(w.Err) != codeOf(g.Err):
			return fmt.Errorf("call %d error %v, want %v", i, g.Err, w.Err)
		case !slices.EqualFunc(w.Repairs, g.Repairs, func(a, b toolcall.Repair) bool { return a.Kind == b.Kind && a.Offset == b.Offset }):
			return fmt.Errorf("call %d repairs %v, want %v", i, g.Repairs, w.Repairs)
		}
	}
	for i := range want.Errors {
		if want.Errors[i].Code != got.Errors[i].Code {
			return fmt.Errorf("error %d is %v, want %v", i, got.Errors[i], want.Errors[i])
		}
	}
	return nil
}

func codeOf(err error) toolcall.Code {
	if err == nil {
		return ""
	}
	if e, ok := err.(*toolcall.Error); ok {
		return e.Code
	}
	return "other"
}

// SentSoFar writes text to r a byte at a time, without closing it, and
// returns what the Reader has sent by then: its reasoning and content
// pieces joined, and the number of calls it has ended. A test of what
// streams early (reasoning before its closing tag, an answer after it)
// compares these with what no later byte can change.
func SentSoFar(r dialects.Reader, text string) (reasoning, content string, calls int) {
	var rb, cb strings.Builder
	for i := 0; i < len(text); i++ {
		for _, p := range r.Write(text[i : i+1]) {
			switch p.Kind {
			case dialects.PieceReasoning:
				rb.WriteString(p.Text)
			case dialects.PieceContent:
				cb.WriteString(p.Text)
			case dialects.PieceCall:
				calls++
			}
		}
	}
	return rb.String(), cb.String(), calls
}

// Sent is a row of CheckSent: after Before is written, Calls calls have
// gone out; Rest ends the output. Unknown: the reasoning start is not
// given (else the output opens with no reasoning block).
type Sent struct {
	Name         string
	Before, Rest string
	Unknown      bool
	Calls        int
}

// CheckSent runs each row as a subtest: it writes the row's Before to a
// new Reader of d a byte at a time (SentSoFar) and checks the calls sent
// by then, then holds the whole output to the Reader's contract
// (CheckReader).
func CheckSent(t *testing.T, d dialects.Incremental, rows []Sent) {
	t.Helper()
	for _, tt := range rows {
		t.Run(tt.Name, func(t *testing.T) {
			opts := &dialects.Options{ReasoningClosed: !tt.Unknown}
			if _, _, n := SentSoFar(d.NewReader(opts), tt.Before); n != tt.Calls {
				t.Errorf("%d calls sent after %q, want %d", n, tt.Before, tt.Calls)
			}
			if err := CheckReader(d, tt.Before+tt.Rest, opts); err != nil {
				t.Error(err)
			}
		})
	}
}
