package registry

import (
	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/stream"
)

// Stream returns a parser for output that arrives in deltas (package
// stream). With opts.Dialect named the output is read in that dialect, and
// the fallback chain applies at the end as in Parse; otherwise the dialect
// is detected as soon as the output shows enough of it. Whatever the cuts,
// the final result equals Parse of the whole text.
func (r *Registry) Stream(opts *Options) *stream.Parser {
	if opts == nil {
		opts = &Options{}
	}
	o := *opts
	sopts := &stream.Options{Options: o.Options, Final: func(text string) *toolcall.Result { return r.Parse(text, &o) }}
	if o.Dialect != "" {
		if d, ok := r.Lookup(o.Dialect); ok {
			return r.profile(d).NewParser(sopts)
		}
		// An unknown name: the final parse reports it.
		return stream.NewDetecting(nameless{r: r, opts: &o}, sopts)
	}
	return stream.NewDetecting(detector{r: r, opts: &o}, sopts)
}

// Stream returns a parser of the default registry (see Registry.Stream).
func Stream(opts *Options) *stream.Parser { return defaultRegistry.Stream(opts) }

// profile returns the stream profile of d, learning it on first use.
func (r *Registry) profile(d dialects.Dialect) *stream.Profile {
	if p, ok := r.profiles.Load(d.Name()); ok {
		if sp := p.(*stream.Profile); sp.Dialect() == d {
			return sp
		}
	}
	sp := stream.Learn(d)
	r.profiles.Store(d.Name(), sp)
	return sp
}

// detector detects a stream's dialect with the registry.
type detector struct {
	r    *Registry
	opts *Options
}

func (d detector) Candidates() []*stream.Profile {
	ds := d.r.Dialects()
	ps := make([]*stream.Profile, len(ds))
	for i, dl := range ds {
		ps[i] = d.r.profile(dl)
	}
	return ps
}

// Detect names the dialect Detect ranks first once it has read a valid
// call out of the text (ties go to the earlier registered, as in Parse);
// the stream commits when two readings in a row agree.
func (d detector) Detect(text string) (*stream.Profile, string) {
	det := d.r.Detect(text, d.opts)
	if det.Dialect == "" || len(det.Candidates) == 0 {
		return nil, ""
	}
	best := det.Candidates[0]
	if best.Calls == 0 {
		return nil, ""
	}
	dl, ok := d.r.Lookup(det.Dialect)
	if !ok {
		return nil, ""
	}
	return d.r.profile(dl), det.Reason
}

func (d detector) Parse(text string) *toolcall.Result { return d.r.Parse(text, d.opts) }

// nameless is the detector of a stream whose named dialect does not exist:
// it never detects, and the final parse reports the name.
type nameless detector

func (n nameless) Candidates() []*stream.Profile         { return detector(n).Candidates() }
func (nameless) Detect(string) (*stream.Profile, string) { return nil, "" }
func (n nameless) Parse(text string) *toolcall.Result    { return n.r.Parse(text, n.opts) }
