package proxy

import (
	"sync"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/schema"
)

// toolCacheSize bounds the tool sets whose compiled schemas are kept.
const toolCacheSize = 64

// maxCachedToolsBytes is the largest tools array kept: a larger one is
// compiled for its request only.
const maxCachedToolsBytes = 256 << 10

// toolEntry is a request's tools, parsed and compiled once; err is kept
// too, so that tools that do not compile are not compiled again.
type toolEntry struct {
	list []toolcall.Tool
	set  *schema.Set
	err  error
}

// toolCache keeps the compiled tool sets, keyed by the bytes of the
// request's tools array: an agent sends the same tools with every turn.
// Bounded: past the size the oldest entry goes. A schema.Set is safe for
// concurrent use and the proxy only reads it.
type toolCache struct {
	mu    sync.Mutex
	m     map[string]*toolEntry
	order []string
}

func newToolCache() *toolCache { return &toolCache{m: map[string]*toolEntry{}} }

// get returns the tools of raw, compiling them on first sight.
func (tc *toolCache) get(raw []byte) *toolEntry {
	if len(raw) <= maxCachedToolsBytes {
		tc.mu.Lock()
		e, ok := tc.m[string(raw)]
		tc.mu.Unlock()
		if ok {
			return e
		}
	}
	e := compileTools(raw)
	if len(raw) > maxCachedToolsBytes {
		return e
	}
	key := string(raw)
	tc.mu.Lock()
	if _, ok := tc.m[key]; !ok {
		tc.order = append(tc.order, key)
	}
	tc.m[key] = e
	for len(tc.order) > toolCacheSize {
		delete(tc.m, tc.order[0])
		tc.order = tc.order[1:]
	}
	tc.mu.Unlock()
	return e
}

func compileTools(raw []byte) *toolEntry {
	tools, err := toolcall.ParseTools(raw)
	if err != nil || len(tools) == 0 {
		return &toolEntry{}
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		return &toolEntry{err: err}
	}
	return &toolEntry{list: tools, set: set}
}
