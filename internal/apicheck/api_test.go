package apicheck

import (
	"encoding/json"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

const module = "github.com/dialectkit/toolcall"

// foreignAllowed lists the third-party packages a public package may name
// in its API, and why: the Ollama adapter takes the ollama client's own
// types (api.Client, api.ThinkValue, api.Duration) because wrapping them is
// its job.
var foreignAllowed = map[string][]string{
	module + "/client/ollamaclient": {"github.com/ollama/ollama/api"},
}

// listed is what `go list -export` says of one package.
type listed struct {
	ImportPath string
	Export     string
	Name       string
	Standard   bool
	DepOnly    bool
	Module     *struct{ Path string }
	Imports    []string
	Dir        string
}

// modRoot is the module's root directory.
func modRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// goList runs `go list -json` with args in the module root.
func goList(t *testing.T, args ...string) []listed {
	t.Helper()
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append([]string{"list", "-json"}, args...)...)
	cmd.Dir = modRoot(t)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	var pkgs []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// public reports whether path is a package whose API users see.
func public(p listed) bool {
	return !p.DepOnly && p.Name != "main" && !strings.Contains(p.ImportPath+"/", "/internal/")
}

// loaded caches loadAPI's packages: both API tests walk the same ones.
var loaded struct {
	sync.Mutex
	pkgs []*types.Package
}

// loadAPI type-checks every public package of the module from its export
// data.
func loadAPI(t *testing.T) []*types.Package {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the module's export data")
	}
	loaded.Lock()
	defer loaded.Unlock()
	if loaded.pkgs != nil {
		return loaded.pkgs
	}
	pkgs := goList(t, "-export", "-deps", "./...")
	exports := map[string]string{}
	for _, p := range pkgs {
		exports[p.ImportPath] = p.Export
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
	var out []*types.Package
	for _, p := range pkgs {
		if !public(p) || p.Module == nil || p.Module.Path != module {
			continue
		}
		tp, err := imp.Import(p.ImportPath)
		if err != nil {
			t.Fatalf("import %s: %v", p.ImportPath, err)
		}
		out = append(out, tp)
	}
	if len(out) < 10 {
		t.Fatalf("found only %d public packages", len(out))
	}
	loaded.pkgs = out
	return out
}

// apiItem is one exported name and a type it exposes.
type apiItem struct {
	where string
	typ   types.Type
	// result marks a function result, where the typed-nil trap bites.
	result bool
}

// exported lists the types a package's API exposes: function and method
// parameters and results, exported fields of exported structs, variables
// and constants.
func exported(pkg *types.Package) []apiItem {
	var items []apiItem
	sig := func(where string, s *types.Signature) {
		for i := range s.Params().Len() {
			items = append(items, apiItem{where: where + " parameter", typ: s.Params().At(i).Type()})
		}
		for i := range s.Results().Len() {
			items = append(items, apiItem{where: where + " result", typ: s.Results().At(i).Type(), result: true})
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		where := pkg.Path() + "." + name
		switch obj := obj.(type) {
		case *types.Func:
			sig(where, obj.Type().(*types.Signature))
		case *types.Var:
			items = append(items, apiItem{where: where, typ: obj.Type(), result: true})
		case *types.Const:
		case *types.TypeName:
			named, ok := obj.Type().(*types.Named)
			if !ok { // an alias
				items = append(items, apiItem{where: where + " (alias)", typ: obj.Type()})
				continue
			}
			switch u := named.Underlying().(type) {
			case *types.Struct:
				for f := range u.Fields() {
					if f.Exported() {
						items = append(items, apiItem{where: where + "." + f.Name(), typ: f.Type(), result: true})
					}
				}
			case *types.Interface:
				for m := range u.Methods() {
					if m.Exported() {
						sig(where+"."+m.Name(), m.Type().(*types.Signature))
					}
				}
			default:
				items = append(items, apiItem{where: where + " (underlying)", typ: u})
			}
			for m := range named.Methods() {
				if m.Exported() {
					sig(where+"."+m.Name(), m.Type().(*types.Signature))
				}
			}
		}
	}
	return items
}

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// pointerToError reports whether t is a pointer whose value implements
// error: returned or stored as an error, its nil is not a nil error.
func pointerToError(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Pointer); !ok {
		return false
	}
	return types.Implements(t, errorType)
}

// constructors build a *toolcall.Error and never return nil, so the
// typed-nil trap cannot happen with them; they return the concrete type so
// that the caller can set its fields (Offset, Tool, …) before returning it.
var constructors = map[string]bool{
	module + ".NewError result": true,
	module + ".Errorf result":   true,
}

// Every function and method returns error, not a concrete error pointer, and
// every field holding an error is of type error; the concrete type is reached
// with errors.As. A pointer result would make `return x, r.Err` a non-nil
// error that prints <nil>. Slices of coded errors ([]*toolcall.Error) are
// allowed: their elements are never nil.
func TestNoPointerToErrorInAPI(t *testing.T) {
	var bad []string
	for _, pkg := range loadAPI(t) {
		for _, it := range exported(pkg) {
			if it.result && pointerToError(it.typ) && !constructors[it.where] {
				bad = append(bad, it.where+": "+types.TypeString(it.typ, nil))
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s: use error", b)
	}
}

// foreignTypes returns the packages outside the standard library and the
// module whose named types t mentions, following pointers, slices, maps,
// channels, signatures and unnamed structs.
func foreignTypes(t types.Type, seen map[types.Type]bool, found map[string]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if obj := t.Obj(); obj.Pkg() != nil {
			path := obj.Pkg().Path()
			first, _, _ := strings.Cut(path, "/")
			if strings.Contains(first, ".") && path != module && !strings.HasPrefix(path, module+"/") {
				found[path] = true
			}
		}
		for a := range t.TypeArgs().Types() {
			foreignTypes(a, seen, found)
		}
	case *types.Alias:
		foreignTypes(types.Unalias(t), seen, found)
	case *types.Pointer:
		foreignTypes(t.Elem(), seen, found)
	case *types.Slice:
		foreignTypes(t.Elem(), seen, found)
	case *types.Array:
		foreignTypes(t.Elem(), seen, found)
	case *types.Map:
		foreignTypes(t.Key(), seen, found)
		foreignTypes(t.Elem(), seen, found)
	case *types.Chan:
		foreignTypes(t.Elem(), seen, found)
	case *types.Signature:
		for v := range t.Params().Variables() {
			foreignTypes(v.Type(), seen, found)
		}
		for v := range t.Results().Variables() {
			foreignTypes(v.Type(), seen, found)
		}
	case *types.Struct:
		for f := range t.Fields() {
			if f.Exported() || f.Embedded() {
				foreignTypes(f.Type(), seen, found)
			}
		}
	case *types.Interface:
		for m := range t.Methods() {
			foreignTypes(m.Type(), seen, found)
		}
	}
}

// The API names only standard and module types: a user is never tied to a
// dependency (gjson, the ollama client) by a signature.
func TestNoThirdPartyTypesInAPI(t *testing.T) {
	var bad []string
	for _, pkg := range loadAPI(t) {
		allowed := map[string]bool{}
		for _, p := range foreignAllowed[pkg.Path()] {
			allowed[p] = true
		}
		for _, it := range exported(pkg) {
			found := map[string]bool{}
			foreignTypes(it.typ, map[types.Type]bool{}, found)
			for p := range found {
				if !allowed[p] {
					bad = append(bad, it.where+": "+types.TypeString(it.typ, nil))
				}
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s: a third-party type in the API", b)
	}
}

// heavy are the packages a program that only parses must not link: the
// ollama client and what it pulls in (its ssh request signing), YAML, the
// CLI framework.
var heavy = []string{
	"github.com/ollama/ollama",
	"golang.org/x/crypto",
	"gopkg.in/yaml",
	"github.com/goccy/go-yaml",
	"sigs.k8s.io/yaml",
	"github.com/spf13/cobra",
}

// heavyVia lists, for a heavy package, the one dependency allowed to bring
// it in: kaptinlin/jsonschema, the schema validator, imports goccy/go-yaml
// (to compile schemas written in YAML), which no package here can avoid
// short of replacing the validator.
var heavyVia = map[string]string{
	"github.com/goccy/go-yaml": "github.com/kaptinlin/jsonschema",
}

// Importing the parser is light: registry, the dialects, lenient, schema and
// stream depend on no ollama client, no YAML package of their own and no CLI
// framework.
func TestParserImportsLightly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	pkgs := goList(t, "-deps", "./registry", "./dialects/...", "./lenient", "./schema", "./stream")
	isHeavy := func(path string) string {
		for _, h := range heavy {
			if path == h || strings.HasPrefix(path, h+"/") {
				return h
			}
		}
		return ""
	}
	for _, p := range pkgs {
		if isHeavy(p.ImportPath) != "" {
			continue
		}
		for _, imp := range p.Imports {
			h := isHeavy(imp)
			if h == "" {
				continue
			}
			if via, ok := heavyVia[h]; ok && (p.ImportPath == via || strings.HasPrefix(p.ImportPath, via+"/")) {
				continue
			}
			t.Errorf("%s imports %s", p.ImportPath, imp)
		}
	}
}
