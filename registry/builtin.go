package registry

import (
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/gemma"
	"github.com/dialectkit/toolcall/dialects/harmony"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/dialects/markdownjson"
	"github.com/dialectkit/toolcall/dialects/markers"
	"github.com/dialectkit/toolcall/dialects/ollamawire"
	"github.com/dialectkit/toolcall/dialects/plainjson"
	"github.com/dialectkit/toolcall/dialects/pythonic"
	"github.com/dialectkit/toolcall/dialects/tagged"
)

// builtins are the dialects of this module. Their order breaks ties
// between equal scores. Candidates that saw their markers already beat
// those that did not, so a tie is between readings of the same evidence:
// then the plainest reading of unmarked text wins (bare JSON is "json",
// not hermes's tag-less fallback), and among marked dialects the one
// listed first.
func builtins() []dialects.Dialect {
	var ds []dialects.Dialect
	// markdown_json before json: it reads only fenced calls, so when both
	// read the same calls they stood in a fence, its own syntax.
	ds = append(ds, ollamawire.Dialect{})
	ds = append(ds, markdownjson.All()...)
	ds = append(ds, plainjson.Dialect)
	ds = append(ds, hermes.All()...)
	ds = append(ds, tagged.All()...)
	ds = append(ds, markers.All()...)
	ds = append(ds, harmony.Dialect)
	ds = append(ds, gemma.All()...)
	ds = append(ds, pythonic.All()...)
	return ds
}

func newDefault() *Registry {
	r := New(builtins()...)
	r.models = append(r.models, defaultModelRules...)
	r.templates = append(r.templates, defaultTemplateRules...)
	return r
}
