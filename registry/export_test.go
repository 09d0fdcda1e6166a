package registry

import (
	"context"

	"github.com/dialectkit/toolcall/stream"
)

// SetPrefilter turns detection's marker prefilter on or off, for the
// differential test; it returns the previous setting.
func SetPrefilter(on bool) bool {
	old := prefilter
	prefilter = on
	return old
}

// DecidedBy reports whether prefix, the beginning of an output, already
// decides its dialect under detection: a detecting stream fed prefix,
// not closed, decided it at one of its points. It returns the Detection
// that decided, or the whole output's when none did.
func (r *Registry) DecidedBy(prefix string, opts *Options) (Detection, bool) {
	if opts == nil {
		opts = &Options{}
	}
	d := &detector{r: r, opts: opts, tab: r.table(), ctx: context.Background(), full: true}
	p := stream.NewDetecting(d, &stream.Options{Parse: opts.DialectOptions(), MaxBytes: -1})
	p.Write(prefix)
	if d.det.decided {
		return d.det, true
	}
	return r.detect(context.Background(), prefix, opts, true), false
}
