package probe

import "github.com/dialectkit/toolcall/render"

// defaultRenderer is the renderer of a dialect from package render: every
// registered dialect, and "native".
func defaultRenderer(dialect string) (Renderer, bool) {
	r, ok := render.For(dialect)
	if !ok {
		return nil, false
	}
	return r, true
}

// renderedDialects lists the dialects package render can write.
func renderedDialects() []string { return render.Names() }
