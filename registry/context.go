package registry

import (
	"context"

	"github.com/dialectkit/toolcall"
)

// ParseContext is Parse that honours ctx: once ctx is done it returns at
// once, whatever the size of the text, with no call and one TLP-022 error
// whose Raw is the text (so nothing of the output is lost). Detection
// also stops trying dialects, so the work left behind is at most the one
// dialect parse under way. A ctx that can never be done (Background)
// parses as Parse does.
func (r *Registry) ParseContext(ctx context.Context, text string, opts *Options) *toolcall.Result {
	res, _ := r.ParseDetectContext(ctx, text, opts)
	return res
}

// ParseDetectContext is ParseDetect that honours ctx, as ParseContext does.
// The Detection of a parse that ctx stopped names no dialect.
func (r *Registry) ParseDetectContext(ctx context.Context, text string, opts *Options) (*toolcall.Result, Detection) {
	if ctx.Done() == nil {
		return r.parseDetect(ctx, text, opts, true)
	}
	if err := ctx.Err(); err != nil {
		return canceledResult(text, err), canceledDetection(text, err)
	}
	type parsed struct {
		res *toolcall.Result
		det Detection
	}
	done := make(chan parsed, 1)
	go func() {
		res, det := r.parseDetect(ctx, text, opts, true)
		done <- parsed{res, det}
	}()
	select {
	case p := <-done:
		return p.res, p.det
	case <-ctx.Done():
		return canceledResult(text, ctx.Err()), canceledDetection(text, ctx.Err())
	}
}

// ParseContext parses text with the default registry, honouring ctx (see
// Registry.ParseContext).
func ParseContext(ctx context.Context, text string, opts *Options) *toolcall.Result {
	return defaultRegistry.ParseContext(ctx, text, opts)
}

// canceledResult is the result of a parse ctx stopped: no call, the whole
// text as the raw text of a TLP-022 error.
func canceledResult(text string, cause error) *toolcall.Result {
	e := toolcall.Errorf(toolcall.CodeCanceled, cause, "parsing stopped before the end of the output: "+cause.Error())
	e.Raw = text
	return &toolcall.Result{Calls: []toolcall.Call{}, Errors: []*toolcall.Error{e}}
}

func canceledDetection(text string, cause error) Detection {
	return Detection{Reason: "stopped: " + cause.Error(), result: canceledResult(text, cause)}
}
