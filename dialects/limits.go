package dialects

import (
	"errors"
	"fmt"
	"unicode/utf8"
	"unsafe"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
)

// Per-output caps (Options.MaxCalls, MaxErrors, MaxErrorMessage).
const (
	DefaultMaxCalls        = 1024
	DefaultMaxErrors       = 64
	DefaultMaxErrorMessage = 1024
)

// CallLimit is the call cap of opts (Options.MaxCalls), or -1 for none. A
// dialect may stop reading an output once it holds more calls than this:
// Finish drops those past the cap anyway.
func CallLimit(opts *Options) int {
	if opts == nil {
		return DefaultMaxCalls
	}
	return capOf(opts.MaxCalls, DefaultMaxCalls)
}

// NotRead is the call a dialect that stopped reading past the call cap
// appends, holding the rest of the output from offset.
func NotRead(offset int, rest string) RawCall {
	e := toolcall.NewError(toolcall.CodeTooMany, "the output holds more calls than the limit: the rest was not read")
	e.Offset, e.Raw = offset, rest
	return RawCall{Offset: offset, Err: e}
}

func capOf(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return -1
	}
	return v
}

// CapCalls applies the call cap of opts to ext: calls past it are dropped
// before any work is spent on them, and one TLP-026 error says how many
// there were, holding their text. Finish applies it; a caller that
// finishes an extraction's calls itself applies it first.
func CapCalls(ext *Extraction, opts *Options) {
	if ext == nil {
		return
	}
	limit := CallLimit(opts)
	if limit < 0 || len(ext.Calls) <= limit {
		return
	}
	dropped := ext.Calls[limit:]
	msg := fmt.Sprintf("the output holds %d calls, the limit is %d: the last %d were not read", len(ext.Calls), limit, len(dropped))
	if last := coded.As(dropped[len(dropped)-1].Err); last != nil && last.Code == toolcall.CodeTooMany {
		msg = fmt.Sprintf("the output holds more than %d calls, the limit: the rest were not read", limit)
	}
	e := toolcall.NewError(toolcall.CodeTooMany, msg)
	e.Offset = dropped[0].Offset
	var raw rawJoin
	for _, rc := range dropped {
		if e := coded.As(rc.Err); e != nil && e.Raw != "" {
			if raw.add(e.Raw) {
				raw.buf = append(raw.buf, '\n')
			}
		} else {
			raw.buf = append(raw.buf, rc.Name...)
			raw.buf = append(raw.buf, ' ')
			raw.buf = append(raw.buf, rc.Arguments...)
			raw.buf = append(raw.buf, '\n')
		}
	}
	e.Raw = string(raw.buf)
	ext.Calls = ext.Calls[:limit:limit]
	ext.Errors = append([]*toolcall.Error{e}, ext.Errors...)
}

// ErrUnlisted is the cause (toolcall.Error.Err) of the TLP-026 error that
// CapErrors puts in place of the errors past the cap: errors.Is tells that
// summary from every other error, whatever its message says.
var ErrUnlisted = errors.New("errors past the cap are not listed")

// CapErrors applies the error caps of opts to res: messages are cut to
// MaxErrorMessage bytes, and past MaxErrors errors the rest are replaced
// by one TLP-026 error saying how many more there were, caused by
// ErrUnlisted.
func CapErrors(res *toolcall.Result, opts *Options) {
	if res == nil {
		return
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	msgLimit := capOf(o.MaxErrorMessage, DefaultMaxErrorMessage)
	limit := capOf(o.MaxErrors, DefaultMaxErrors)
	if limit >= 0 && len(res.Errors) > limit {
		keep := max(limit-1, 0)
		rest := res.Errors[keep:]
		e := toolcall.Errorf(toolcall.CodeTooMany, ErrUnlisted, fmt.Sprintf("%d more errors, past the limit of %d, are not listed", len(rest), limit))
		var raw rawJoin
		for _, r := range rest {
			raw.add(r.Raw)
		}
		e.Raw = string(raw.buf)
		if len(rest) > 0 {
			e.Offset = rest[0].Offset
		}
		res.Errors = append(res.Errors[:keep:keep], e)
	}
	if msgLimit >= 0 {
		for _, e := range res.Errors {
			if len(e.Message) > msgLimit {
				e.Message = cutText(e.Message, msgLimit) + "…"
			}
		}
	}
}

// cutText cuts s to at most n bytes on a character boundary.
func cutText(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// rawJoin joins the texts of the errors a summary error stands for. The
// texts are mostly views of the one output, and views that overlap (a
// region's text held by each error found in it) are joined without
// repeating what they share: appended whole, n errors that each hold the
// rest of an output of n markers made a summary of n² bytes.
type rawJoin struct {
	buf []byte
	// [lo, hi) is the memory of the texts appended last, one run of it.
	lo, hi uintptr
}

// add appends what of s is not already in the run appended last: all of
// it, unless s is a view that starts inside that run. It reports whether
// it appended anything.
func (j *rawJoin) add(s string) bool {
	if s == "" {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	e := p + uintptr(len(s))
	if j.hi == 0 || p < j.lo || p > j.hi {
		// Memory apart from the run: another text.
		j.buf = append(j.buf, s...)
		j.lo, j.hi = p, e
		return true
	}
	// s starts inside the run (two live texts share memory only when
	// they are views of one): only its part past the run is new.
	if e <= j.hi {
		return false
	}
	j.buf = append(j.buf, s[j.hi-p:]...)
	j.hi = e
	return true
}
