package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/editdist"
	"github.com/dialectkit/toolcall/registry"
)

// checkDialects checks dialect names given on the command line (--dialect,
// --fallback). An unknown one is a usage error (TLP-018, exit status 2)
// that names the registered dialects closest to it, or all of them when
// none is close.
func checkDialects(flag string, names ...string) error {
	reg := registry.Default()
	for _, name := range names {
		if name == "" {
			continue
		}
		if _, ok := reg.Lookup(name); ok {
			continue
		}
		msg := fmt.Sprintf("%s %q: no dialect is registered under that name", flag, name)
		if near := closestDialects(reg.Names(), name, 3); len(near) > 0 {
			msg += "; the closest known: " + strings.Join(near, ", ") + ` (all of them: dialect-probe dialects)`
		} else {
			msg += "; known: " + strings.Join(reg.Names(), ", ")
		}
		return toolcall.NewError(toolcall.CodeUnknownDialect, msg)
	}
	return nil
}

// closestDialects returns up to n names nearest to name: the ones that
// contain it or that it contains first, then by edit distance, ignoring
// case, '-', '_' and '.'.
func closestDialects(names []string, name string, n int) []string {
	key := dialectKey(name)
	if key == "" {
		return nil
	}
	type scored struct {
		name      string
		dist, raw int
	}
	var all []scored
	for _, cand := range names {
		ck := dialectKey(cand)
		raw := editdist.Distance(key, ck)
		d := raw
		if strings.Contains(ck, key) || strings.Contains(key, ck) {
			d = min(d, 1)
		}
		all = append(all, scored{cand, d, raw})
	}
	slices.SortStableFunc(all, func(a, b scored) int { return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(a.raw, b.raw)) })
	// A name further than half its length away shares nothing with it.
	limit := max(2, (len(key)+1)/2)
	var out []string
	for _, s := range all {
		if len(out) == n || s.dist > limit {
			break
		}
		out = append(out, s.name)
	}
	return out
}

func dialectKey(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', '.', ' ':
			return -1
		}
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
