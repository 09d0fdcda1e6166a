package callobject

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall/lenient"
)

// members lists what a walk over an object's members gives: each key, and
// its value's type, raw text and string.
func members(walk func(visit func(string, gjson.Result) bool)) string {
	var b strings.Builder
	walk(func(k string, v gjson.Result) bool {
		fmt.Fprintf(&b, "%q=%v:%q:%q;", k, v.Type, v.Raw, v.String())
		return true
	})
	return b.String()
}

// validMembers gives the members of a strict JSON object exactly as
// gjson's ForEach does.
func checkMembers(t *testing.T, obj string) {
	if !lenient.ValidString(obj) || !gjson.Parse(obj).IsObject() {
		return
	}
	o := gjson.Parse(obj)
	got := members(func(v func(string, gjson.Result) bool) { validMembers(o.Raw, v) })
	want := members(func(v func(string, gjson.Result) bool) {
		o.ForEach(func(k, val gjson.Result) bool { return v(k.String(), val) })
	})
	if got != want {
		t.Fatalf("%s:\nvalidMembers %s\nForEach      %s", obj, got, want)
	}
}

var memberSeeds = []string{
	`{}`, ` { } `, `{"name": "f", "arguments": {"a": [1, {"b": "}"}]}, "id": 12}`,
	`{"na\u006de":"f","arguments":"{\"a\": 1}","id":-1.5e3}`,
	"{\n\t\"name\" : \"f\\n\\\"q\\\"\" ,\r\n \"args\" : [ ] , \"x\": true, \"y\": false, \"z\": null }",
	`{"é": "日本", "k\"": "v\\"}`, `{"a": 0}`, `{"function": {"name": "f", "arguments": {}}, "type": "function"}`,
}

func TestValidMembers(t *testing.T) {
	for _, s := range memberSeeds {
		checkMembers(t, s)
	}
}

func FuzzValidMembers(f *testing.F) {
	for _, s := range memberSeeds {
		f.Add(s)
	}
	f.Fuzz(checkMembers)
}
