package render_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/render"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenRows are the calls every golden file shows.
func goldenRows() []row {
	return []row{
		{"single", []toolcall.Call{call("get_weather", `{"city":"Paris","days":2}`)}},
		{"nested and typed", []toolcall.Call{call("get_weather", `{"city":"Oslo","metric":false,"ratio":0.5,"nothing":null,"where":{"lat":59.9,"tags":["a","b"]}}`)}},
		{"escapes", []toolcall.Call{call("get_weather", `{"city":"It's \"São Paulo\"","note":"line one\nline two\\"}`)}},
		{"several calls", []toolcall.Call{
			call("get_weather", `{"city":"Paris"}`),
			call("get_time", `{}`),
		}},
	}
}

// golden writes everything a renderer produces for the test tools and
// rows, in one text per dialect.
func golden(r render.Renderer) string {
	var b strings.Builder
	section := func(title, body string) {
		b.WriteString("==== " + title + "\n" + body + "\n")
	}
	section("tools", r.Tools(testTools))
	for _, rw := range goldenRows() {
		section("calls: "+rw.name, r.Calls(rw.calls))
	}
	first := toolcall.Call{Name: "get_weather", Index: 0}
	section("result: JSON output", r.Result(first, `{"temperature": 21, "unit": "C"}`))
	section("result: text output", r.Result(toolcall.Call{Name: "get_time", Index: 1}, "It is 10:42."))
	return b.String()
}

// TestGolden compares every dialect's output with testdata/NAME.golden;
// run with -update to rewrite the files after a deliberate change.
func TestGolden(t *testing.T) {
	for _, name := range render.Names() {
		t.Run(name, func(t *testing.T) {
			r, _ := render.For(name)
			got := golden(r)
			path := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./render/ -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (run with -update after a deliberate change)\n--- got\n%s", path, got)
			}
		})
	}
}
