// Package rawcall holds what the built-in engines write on the raw calls
// they read beyond a call's name and arguments: the text of the region a
// call was read from, and the call cap past which an engine stops reading.
package rawcall

import (
	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/caps"
)

// KeepText gives the calls read from one region of the output the region's
// whole text, markers and header included, as their RawCall.Text (a call
// whose Text is set keeps its own). Finish makes it the raw text of a
// failed call's error, so that a call that fails loses none of the text it
// was read from: the words of its header, of a fence's info line, or of
// prose inside its markers. A region that holds several calls gives each
// of them its whole text.
func KeepText(calls []dialects.RawCall, text string) {
	for i := range calls {
		if calls[i].Text == "" {
			calls[i].Text = text
		}
	}
}

// Limit is the call cap of opts (Options.MaxCalls), or -1 for none. An
// engine stops reading an output once it holds more calls than this
// (NotRead): Finish drops those past the cap anyway, and a million markers
// cost no million calls.
func Limit(opts *dialects.Options) int {
	if opts == nil {
		return caps.DefaultCalls
	}
	return caps.Calls(opts.MaxCalls)
}

// NotRead is the call an engine that stopped reading past the call cap
// appends, holding the rest of the output from offset.
func NotRead(offset int, rest string) dialects.RawCall {
	e := toolcall.NewError(toolcall.CodeTooMany, "the output holds more calls than the limit: the rest was not read")
	e.Offset, e.Raw = offset, rest
	return dialects.RawCall{Offset: offset, Err: e}
}
