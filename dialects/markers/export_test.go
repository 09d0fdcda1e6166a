package markers

import "github.com/dialectkit/toolcall/dialects"

// ExtractWhole is one reading of a whole text as a single unit, for the
// benchmarks that compare it with the Reader.
func ExtractWhole(d *Dialect, text string, opts *dialects.Options) *dialects.Extraction {
	if opts == nil {
		opts = &dialects.Options{}
	}
	return d.extractWhole(text, opts)
}
