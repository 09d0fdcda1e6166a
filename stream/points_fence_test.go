package stream_test

import (
	"slices"
	"testing"

	"github.com/dialectkit/toolcall/stream"
)

// TestPointsInFence: inside a fence (textlayer.IsFenceAt: backticks, or
// tildes that begin their line) as outside one, each element of a list is
// a point, and so is the list's end: json and markdown_json send each
// element of a fenced list as it closes, so the first element shows which
// dialect reads the fence as it does in a bare list.
func TestPointsInFence(t *testing.T) {
	list := `[{"a": 1}, {"b": 2}]`
	for _, text := range []string{
		list,
		"```json\n" + list,
		"~~~json\n" + list,
		"so ~~~json\n" + list, // tildes inside a line open no fence
	} {
		pt := stream.NewPointSet(nil).Points()
		var got []int
		for {
			p, ok := pt.Next(text)
			if !ok {
				break
			}
			got = append(got, p)
		}
		start := len(text) - len(list)
		want := []int{start + len(`[{"a": 1}`), start + len(`[{"a": 1}, {"b": 2}`), len(text)}
		if !slices.Equal(got, want) {
			t.Errorf("%q: points %v, want %v (each element's end, the list's end)", text, got, want)
		}
	}
}
