package dialects

import (
	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/caps"
	"github.com/dialectkit/toolcall/internal/coded"
)

// Per-output caps (Options.MaxCalls, MaxErrors, MaxErrorMessage).
const (
	DefaultMaxCalls        = caps.DefaultCalls
	DefaultMaxErrors       = caps.DefaultErrors
	DefaultMaxErrorMessage = caps.DefaultMessage
)

// ErrUnlisted is the cause (toolcall.Error.Err) of the TLP-026 error that
// Finish puts in place of the errors past the cap (Options.MaxErrors):
// errors.Is tells that summary from every other error, whatever its
// message says.
var ErrUnlisted = caps.ErrUnlisted

// capCalls applies the call cap of opts to ext: calls past it are dropped
// before any work is spent on them, and one TLP-026 error says how many
// there were, holding their text (caps.TooMany).
func capCalls(ext *Extraction, opts *Options) {
	limit := caps.Calls(opts.MaxCalls)
	if limit < 0 || len(ext.Calls) <= limit {
		return
	}
	dropped := ext.Calls[limit:]
	past := make([]caps.Past, len(dropped))
	for i := range dropped {
		rc := &dropped[i]
		past[i] = caps.Past{Offset: rc.Offset, Err: coded.As(rc.Err), Name: rc.Name, Arguments: rc.Arguments}
	}
	ext.Calls = ext.Calls[:limit:limit]
	ext.Errors = append([]*toolcall.Error{caps.TooMany(limit, past)}, ext.Errors...)
}
