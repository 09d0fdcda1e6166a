package hermes_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
)

func TestTmpCount(t *testing.T) {
	r := hermes.Dialect.(dialects.Incremental).NewReader(&dialects.Options{})
	ps := append([]dialects.Piece{}, r.Write(multiText)...)
	ps = append(ps, r.Close()...)
	for _, p := range ps {
		t.Logf("%d %q", p.Kind, p.Text)
	}
}
