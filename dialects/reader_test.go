package dialects_test

import (
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

func TestRead(t *testing.T) {
	read := func(text string) *dialects.Extraction { return dialects.Read(streamtest.Lines{}.NewReader(nil), text) }
	x := read("a\nMARK\nCALL f {}\nb\nc\nERR bad\nCALL g {\"x\":")
	if x.Content != "a\nb\nc" || len(x.Calls) != 2 || x.Calls[0].Name != "f" || x.Calls[1].Name != "g" || !x.Marked ||
		len(x.Errors) != 1 || x.Errors[0].Code != toolcall.CodeMalformedCall || x.Calls[0].AtEnd || !x.Calls[1].AtEnd {
		t.Fatalf("Read = %+v", x)
	}
	if x := read("only"); x.Content != "only" || x.Marked || len(x.Calls) != 0 || len(x.Errors) != 0 {
		t.Fatalf("Read = %+v", x)
	}
}
