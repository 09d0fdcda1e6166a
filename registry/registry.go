// Package registry is the set of dialects: registration by name, lookup,
// detection of the dialect a model wrote, and parsing with a fallback chain.
//
// It reads like image.RegisterFormat and image.Decode: the default registry
// holds every built-in dialect, Register adds more (a dialect package outside
// this module registers itself in its init function, so a blank import adds
// it, as database/sql drivers do), and Parse sniffs the output and says
// which dialect it chose and why.
package registry

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
)

// Registry is a set of dialects with the tables detection uses. It is safe
// for concurrent use.
type Registry struct {
	mu        sync.RWMutex
	byName    map[string]dialects.Dialect
	order     []string // registration order: ties in detection go to the earlier one
	models    []ModelRule
	templates []TemplateRule
	// models' dialects by model name, as modelDialect found them; gen
	// counts the changes to the dialects and rules, which empty it.
	modelMemo map[string]modelMatch
	// templateMemo: templates' dialects, as templateDialects found them.
	templateMemo map[string][]string
	// detectTab is detection's view of the dialects (table), built for
	// the generation it names.
	detectTab *detectTable
	gen       uint64
}

// New returns a registry holding ds, with no model or template rules.
// It panics if two dialects share a name, as that is a programming error.
func New(ds ...dialects.Dialect) *Registry {
	r := &Registry{byName: map[string]dialects.Dialect{}}
	for _, d := range ds {
		if err := r.Register(d); err != nil {
			panic(err)
		}
	}
	return r
}

// Register adds a dialect. A second dialect with the same name is an error.
func (r *Registry) Register(d dialects.Dialect) error {
	if d == nil || d.Name() == "" {
		return toolcall.NewError(toolcall.CodeInvalidInput, "registry: a dialect needs a name")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[d.Name()]; dup {
		return toolcall.NewError(toolcall.CodeInvalidInput, fmt.Sprintf("registry: dialect %q registered twice", d.Name()))
	}
	r.byName[d.Name()] = d
	r.order = append(r.order, d.Name())
	r.changed()
	return nil
}

// Lookup returns the dialect registered under name.
func (r *Registry) Lookup(name string) (dialects.Dialect, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	d, ok := r.byName[name]
	return d, ok
}

// Names returns the registered dialect names, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	names := append([]string(nil), r.order...)
	r.mu.RUnlock()
	sort.Strings(names)
	return names
}

// Dialects returns the registered dialects in registration order.
func (r *Registry) Dialects() []dialects.Dialect {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]dialects.Dialect, len(r.order))
	for i, n := range r.order {
		out[i] = r.byName[n]
	}
	return out
}

// Lookup errors name the dialects that do exist.
func (r *Registry) unknown(name string) *toolcall.Error {
	e := toolcall.NewError(toolcall.CodeUnknownDialect,
		fmt.Sprintf("no dialect is registered as %q; known: %s", name, strings.Join(r.Names(), ", ")))
	return e
}

var defaultRegistry = newDefault()

// Default returns the default registry: every built-in dialect, the built-in
// model and template tables, and whatever Register added.
func Default() *Registry { return defaultRegistry }

// Register adds a dialect to the default registry. It panics if the name
// is taken, like sql.Register, because it runs from init functions where a
// clash is a programming error.
func Register(d dialects.Dialect) {
	if err := defaultRegistry.Register(d); err != nil {
		panic(err)
	}
}

// Lookup finds a dialect in the default registry.
func Lookup(name string) (dialects.Dialect, bool) { return defaultRegistry.Lookup(name) }

// Names lists the default registry's dialects.
func Names() []string { return defaultRegistry.Names() }

// Parse parses text with the default registry.
func Parse(text string, opts *Options) *toolcall.Result { return defaultRegistry.Parse(text, opts) }

// Detect detects with the default registry.
func Detect(text string, opts *Options) Detection { return defaultRegistry.Detect(text, opts) }
