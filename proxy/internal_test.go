package proxy

import (
	"bytes"
	"encoding/json"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/registry"
)

func TestOutgoingURL(t *testing.T) {
	for _, tc := range []struct{ upstream, path, want string }{
		{"http://h:11434", "/api/chat?x=1", "http://h:11434/api/chat?x=1"},
		{"http://h:11434/", "/api/tags", "http://h:11434/api/tags"},
		{"http://h:11434/v1", "/v1/chat/completions", "http://h:11434/v1/chat/completions"},
		{"http://h:8080/prefix", "/v1/models", "http://h:8080/prefix/v1/models"},
	} {
		c, err := newCore(Options{Upstream: tc.upstream}, true)
		if err != nil {
			t.Fatal(err)
		}
		in, _ := url.Parse(tc.path)
		if got := c.outgoingURL(in).String(); got != tc.want {
			t.Errorf("%s + %s = %s, want %s", tc.upstream, tc.path, got, tc.want)
		}
	}
}

func TestEvidenceCacheBounded(t *testing.T) {
	ec := newEvidenceCache(3)
	for i := range 10 {
		ec.put(strconv.Itoa(i), evidence{template: "t", at: time.Now()})
	}
	if len(ec.m) != 3 || len(ec.order) != 3 {
		t.Errorf("%d entries, %d in order", len(ec.m), len(ec.order))
	}
	if _, ok := ec.m["9"]; !ok {
		t.Error("the newest entry went")
	}
}

// TestZeroConfigIsDefaultConfig: a zero Options.Config means
// DefaultConfig(), which is config.Default() with recovery off; a
// Config given as config.Default() keeps recovery on.
func TestZeroConfigIsDefaultConfig(t *testing.T) {
	zero, err := newCore(Options{Upstream: "http://127.0.0.1:1"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := zero.configFor("m"); !reflect.DeepEqual(got, DefaultConfig()) || got.MaxRetries != 0 {
		t.Errorf("zero Config gives %+v, want DefaultConfig()", got)
	}
	want := config.Default()
	want.MaxRetries = 0
	if !reflect.DeepEqual(DefaultConfig(), want) {
		t.Errorf("DefaultConfig() = %+v, want config.Default() with MaxRetries 0", DefaultConfig())
	}
	def, err := newCore(Options{Upstream: "http://127.0.0.1:1", Config: config.Default()}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := def.configFor("m"); got.MaxRetries != config.Default().MaxRetries {
		t.Errorf("config.Default() given: MaxRetries %d, want %d", got.MaxRetries, config.Default().MaxRetries)
	}
}

// marshalString's fast path writes what encoding/json writes, without
// HTML escaping, for every kind of string.
func TestMarshalString(t *testing.T) {
	for _, s := range []string{"", "plain text", "a<b>&c", "quote \" and \\ back", "line\nbreak\ttab", "\x00\x1f",
		"héllo 日本", "sep\u2028ar\u2029", "bad \xff utf8", "emoji 🙂"} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		if got, want := string(marshalString(s)), strings.TrimSuffix(b.String(), "\n"); got != want {
			t.Errorf("marshalString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestCorePrepares: building a Handler's or a Transport's core builds its
// registry's detection tables, so the first request does not.
func TestCorePrepares(t *testing.T) {
	for _, handler := range []bool{true, false} {
		reg := registry.New(registry.Default().Dialects()...)
		if reg.Prepared() {
			t.Fatal("a new registry reads as prepared")
		}
		if _, err := newCoreOn(reg, Options{Upstream: "http://h:11434"}, handler); err != nil {
			t.Fatal(err)
		}
		if !reg.Prepared() {
			t.Errorf("handler %v: the core did not prepare its registry", handler)
		}
	}
}
