package markers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
)

// A bare output streamed in small deltas is read about once, however its
// calls stand: in a list, in a run of values, or in an envelope holding a
// list of calls. The opening brackets of bare JSON are literals of the
// Reader too; when they were not counted as brackets, every closing
// bracket seemed to end a value, and an envelope of 50 calls was read
// again at each of its elements (22 times its one-shot parse).
func TestBareReadOnce(t *testing.T) {
	call := func(i int) string {
		return fmt.Sprintf(`{"name": "get_weather", "arguments": {"city": "Paris %d", "unit": "celsius", "days": 3}}`, i)
	}
	join := func(sep string) string {
		var parts []string
		for i := range 50 {
			parts = append(parts, call(i))
		}
		return strings.Join(parts, sep)
	}
	for _, c := range []struct {
		name string
		d    *Dialect
		text string
	}{
		{"generic_json envelope", GenericJSON, `{"tool_calls": [` + join(", ") + `]}`},
		{"xlam list", XLAM, "[" + join(", ") + "]"},
		{"llama3_json run", Llama3JSON, join("; ")},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.d.NewReader(&dialects.Options{}).(*reader)
			calls := 0
			count := func(ps []dialects.Piece) {
				for _, p := range ps {
					if p.Kind == dialects.PieceCall {
						calls++
					}
				}
			}
			for i := 0; i < len(c.text); i += 16 {
				count(r.Write(c.text[i:min(i+16, len(c.text))]))
			}
			count(r.Close())
			if calls != 50 {
				t.Fatalf("%d calls, want 50", calls)
			}
			if r.tried > 2*len(c.text) {
				t.Errorf("read %d bytes again for %d bytes of output: more than twice", r.tried, len(c.text))
			}
		})
	}
}
