package proxy

import (
	"net/url"
	"strconv"
	"testing"
	"time"
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
