package stream_test

import (
	"slices"
	"testing"

	"github.com/dialectkit/toolcall/stream"
)

// TestPointsInFence: inside a fence (textlayer.IsFenceAt: backticks, or
// tildes that begin their line), a list's first element is no point; only
// the list's end is.
func TestPointsInFence(t *testing.T) {
	list := `[{"a": 1}, {"b": 2}]`
	for _, tc := range []struct {
		text   string
		fenced bool
	}{
		{list, false},
		{"```json\n" + list, true},
		{"~~~json\n" + list, true},
		{"so ~~~json\n" + list, false}, // tildes inside a line open no fence
	} {
		pt := stream.NewPointSet(nil).Points()
		var got []int
		for {
			p, ok := pt.Next(tc.text)
			if !ok {
				break
			}
			got = append(got, p)
		}
		first := len(tc.text) - len(list) + len(`[{"a": 1}`)
		if slices.Contains(got, first) == tc.fenced {
			t.Errorf("%q: points %v; the first element's end (%d) a point: %v", tc.text, got, first, !tc.fenced)
		}
		if !slices.Contains(got, len(tc.text)) {
			t.Errorf("%q: points %v lack the list's end", tc.text, got)
		}
	}
}
