package apicheck

import (
	"flag"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/api.txt with the module's exported API")

// golden is the reviewed list of the exported API.
const golden = "testdata/api.txt"

// The exported API of every public package is the one reviewed in
// testdata/api.txt: a name added, removed or changed in type fails here
// until the list is regenerated (go test ./internal/apicheck -run
// TestAPIGolden -update) and the change is read in the diff.
func TestAPIGolden(t *testing.T) {
	var lines []string
	for _, pkg := range loadAPI(t) {
		lines = append(lines, apiLines(pkg)...)
	}
	slices.Sort(lines)
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/apicheck -run TestAPIGolden -update)", err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	added, removed := difference(lines, want), difference(want, lines)
	for _, l := range added {
		t.Errorf("+ %s", l)
	}
	for _, l := range removed {
		t.Errorf("- %s", l)
	}
	if len(added)+len(removed) > 0 {
		t.Errorf("the exported API differs from %s (+ new, - gone): review the change, then run go test ./internal/apicheck -run TestAPIGolden -update", filepath.ToSlash(golden))
	}
}

// difference lists the lines of a, sorted, that b lacks.
func difference(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, l := range b {
		in[l] = true
	}
	var out []string
	for _, l := range a {
		if !in[l] {
			out = append(out, l)
		}
	}
	return out
}

// apiLines lists pkg's exported API, a line per name, field, interface
// method and method, in the manner of Go's own api/*.txt files: constants
// with their value, variables, functions and methods with their signature,
// types with their kind, and the exported fields of exported structs.
func apiLines(pkg *types.Package) []string {
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	str := func(t types.Type) string { return types.TypeString(t, qual) }
	sig := func(s *types.Signature) string { return strings.TrimPrefix(types.TypeString(s, qual), "func") }
	prefix := "pkg " + strings.TrimPrefix(strings.TrimPrefix(pkg.Path(), module), "/")
	if pkg.Path() == module {
		prefix = "pkg toolcall"
	}
	var out []string
	add := func(format string, args ...any) { out = append(out, prefix+", "+fmt.Sprintf(format, args...)) }
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			add("const %s %s = %s", name, str(obj.Type()), obj.Val().ExactString())
		case *types.Var:
			add("var %s %s", name, str(obj.Type()))
		case *types.Func:
			add("func %s%s", name, sig(obj.Signature()))
		case *types.TypeName:
			if obj.IsAlias() {
				add("type %s = %s", name, str(types.Unalias(obj.Type())))
				continue
			}
			named := obj.Type().(*types.Named)
			switch u := named.Underlying().(type) {
			case *types.Struct:
				add("type %s struct", name)
				for f := range u.Fields() {
					if f.Exported() {
						embedded := ""
						if f.Embedded() {
							embedded = "embedded "
						}
						add("type %s struct, %s%s %s", name, embedded, f.Name(), str(f.Type()))
					}
				}
			case *types.Interface:
				add("type %s interface", name)
				for m := range u.Methods() {
					if m.Exported() {
						add("type %s interface, %s%s", name, m.Name(), sig(m.Signature()))
					}
				}
				for e := range u.EmbeddedTypes() {
					add("type %s interface, embedded %s", name, str(e))
				}
			default:
				add("type %s %s", name, str(u))
			}
			for m := range named.Methods() {
				if !m.Exported() {
					continue
				}
				recv := name
				if _, ptr := m.Signature().Recv().Type().(*types.Pointer); ptr {
					recv = "*" + name
				}
				add("method (%s) %s%s", recv, m.Name(), sig(m.Signature()))
			}
		}
	}
	return out
}
