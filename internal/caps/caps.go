// Package caps holds the per-output caps on calls and errors
// (dialects.Options.MaxCalls, MaxErrors, MaxErrorMessage), applied alike by
// a one-shot parse (dialects.Finish) and by a stream's result.
package caps

import (
	"errors"
	"fmt"
	"unicode/utf8"
	"unsafe"

	"github.com/dialectkit/toolcall"
)

// The caps' defaults, for an option left at zero.
const (
	DefaultCalls   = 1024
	DefaultErrors  = 64
	DefaultMessage = 1024
)

// ErrUnlisted is the cause (toolcall.Error.Err) of the TLP-026 error that
// Errors puts in place of the errors past the cap.
var ErrUnlisted = errors.New("errors past the cap are not listed")

// Of resolves the option v of a cap whose default is def: zero is def, a
// negative value is -1, no cap.
func Of(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return -1
	}
	return v
}

// Calls is the call cap the option maxCalls sets, or -1 for none.
func Calls(maxCalls int) int { return Of(maxCalls, DefaultCalls) }

// Past is what the error of the calls past the cap keeps of one of them:
// its offset, the error it failed with, if any, and its name and
// arguments.
type Past struct {
	Offset          int
	Err             *toolcall.Error
	Name, Arguments string
}

// TooMany is the one TLP-026 error that stands for the calls past the cap
// limit of an output (past, in order): it says how many there were and
// holds their text, the raw text of a call that failed, the name and
// arguments of one read. past ends with the call of a dialect that stopped
// reading there (a TLP-026 error of its own) when the rest was not read.
func TooMany(limit int, past []Past) *toolcall.Error {
	msg := fmt.Sprintf("the output holds %d calls, the limit is %d: the last %d were not read", limit+len(past), limit, len(past))
	if last := past[len(past)-1].Err; last != nil && last.Code == toolcall.CodeTooMany {
		msg = fmt.Sprintf("the output holds more than %d calls, the limit: the rest were not read", limit)
	}
	e := toolcall.NewError(toolcall.CodeTooMany, msg)
	e.Offset = past[0].Offset
	var raw rawJoin
	for _, p := range past {
		if p.Err != nil && p.Err.Raw != "" {
			if raw.add(p.Err.Raw) {
				raw.buf = append(raw.buf, '\n')
			}
		} else {
			raw.buf = append(raw.buf, p.Name...)
			raw.buf = append(raw.buf, ' ')
			raw.buf = append(raw.buf, p.Arguments...)
			raw.buf = append(raw.buf, '\n')
		}
	}
	e.Raw = string(raw.buf)
	return e
}

// Errors applies the error caps the options maxErrors and maxMessage set
// to res: messages are cut to the message cap, and past the error cap the
// rest are replaced by one TLP-026 error saying how many more there were,
// caused by ErrUnlisted.
func Errors(res *toolcall.Result, maxErrors, maxMessage int) {
	if res == nil {
		return
	}
	msgLimit := Of(maxMessage, DefaultMessage)
	limit := Of(maxErrors, DefaultErrors)
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
