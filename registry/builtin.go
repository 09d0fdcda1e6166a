package registry

import (
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/gemma"
	"github.com/dialectkit/toolcall/dialects/harmony"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/dialects/markdownjson"
	"github.com/dialectkit/toolcall/dialects/markers"
	"github.com/dialectkit/toolcall/dialects/ollama"
	"github.com/dialectkit/toolcall/dialects/plainjson"
	"github.com/dialectkit/toolcall/dialects/pythonic"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

// builtins are the dialects of this module, in the order detection breaks
// ties between equal scores: dialects with markers first, the marker-less
// fallbacks (bare JSON, fenced JSON, pythonic lists) last.
func builtins() []dialects.Dialect {
	var ds []dialects.Dialect
	ds = append(ds, ollama.Dialect{})
	ds = append(ds, hermes.All()...)
	ds = append(ds, tagged.All()...)
	ds = append(ds, markers.All()...)
	ds = append(ds, harmony.Dialect)
	ds = append(ds, gemma.All()...)
	ds = append(ds, pythonic.All()...)
	ds = append(ds, markdownjson.All()...)
	ds = append(ds, plainjson.Dialect)
	return ds
}

func newDefault() *Registry {
	r := New(builtins()...)
	r.models = append(r.models, defaultModelRules...)
	r.templates = append(r.templates, defaultTemplateRules...)
	return r
}
