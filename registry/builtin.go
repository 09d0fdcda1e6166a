package registry

import (
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/plainjson"
)

// builtins are the dialects of this module, in the order detection breaks
// ties: marker dialects first, the marker-less fallbacks last.
func builtins() []dialects.Dialect {
	var ds []dialects.Dialect
	ds = append(ds, plainjson.Dialect)
	return ds
}

func newDefault() *Registry {
	r := New(builtins()...)
	r.models = append(r.models, defaultModelRules...)
	r.templates = append(r.templates, defaultTemplateRules...)
	return r
}
