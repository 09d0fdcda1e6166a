package stream_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// TestPointsPassMarkers checks where an output may decide its dialect
// (stream.Points): after a call's closing marker and after a value at
// depth zero closes, never at a bracket inside a candidate's marker, and
// at the same bytes however the output arrives.
func TestPointsPassMarkers(t *testing.T) {
	var ds []dialects.Dialect
	for _, name := range registry.Names() {
		d, _ := registry.Lookup(name)
		ds = append(ds, d)
	}
	set := stream.NewPointSet(ds)
	m3 := "]<]minimax[>["
	rows := []struct {
		name, text string
		// after are the texts the first points end: each point is the
		// end of the first occurrence of after[i] past the last point.
		after []string
	}{
		{"minimax_m3 tokens hold brackets",
			"Sure.\n" + m3 + "<tool_call>" + m3 + `<invoke name="f">` + m3 + "<a>1" + m3 + "</a>" + m3 + "</invoke>" + m3 + `<invoke name="g">` + m3 + "</invoke>" + m3 + "</tool_call>",
			[]string{m3 + "</invoke>", m3 + "</invoke>", m3 + "</tool_call>"}},
		{"mistral's markers hold brackets",
			// A bracket that may begin a marker is a point once the byte
			// after it shows it does not.
			"[THINK]a [b][/THINK][TOOL_CALLS][{\"name\": \"f\", \"arguments\": {}}, {\"name\": \"g\", \"arguments\": {}}]\n",
			[]string{"[b]", `{}}`, `{}}`, "]"}},
		{"a list is still a value", `Here: [1, 2] and (3)`, []string{"]", ")"}},
		{"the output ends with a bracket a marker may begin with", `Here: [1, 2]`, nil},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			var want []int
			from := 0
			for _, a := range tt.after {
				i := strings.Index(tt.text[from:], a)
				if i < 0 {
					t.Fatalf("%q not after %d", a, from)
				}
				from += i + len(a)
				want = append(want, from)
			}
			whole := points(set, []string{tt.text})
			if !slices.Equal(whole, want) {
				t.Errorf("points %v, want %v", whole, want)
			}
			bytewise := make([]string, len(tt.text))
			for i := range tt.text {
				bytewise[i] = tt.text[i : i+1]
			}
			if got := points(set, bytewise); !slices.Equal(got, want) {
				t.Errorf("streamed byte by byte: points %v, want %v", got, want)
			}
		})
	}
}

// points returns the points of the text the deltas make, asked after each.
func points(set *stream.PointSet, deltas []string) []int {
	pts := set.Points()
	var out []int
	text := ""
	for _, d := range deltas {
		text += d
		for {
			at, ok := pts.Next(text)
			if !ok {
				break
			}
			out = append(out, at)
		}
	}
	return out
}

// TestPointBehindTheDelta streams under detection outputs whose decision
// point is a bracket that a delta ends after, followed by the first bytes
// of a marker, which only the next delta shows is none (Points): the
// point lies behind what the candidates read, and the stream still agrees with the one-shot parse, however the
// output is cut.
func TestPointBehindTheDelta(t *testing.T) {
	for _, text := range []string{
		`[get_weather(city="Paris")]<br> and done`,
		`[get_weather(city="Paris")]<]mini and done`,
		"See [1, 2]<br> then [get_weather(city=\"Paris\")]",
		"See (1, 2)]<]mi and [3]<]minimax then",
		"Sure.\n[get_weather(city=\"Paris\")]\n[get_time(zone=\"UTC\")]",
		`[{"name": "get_weather", "arguments": {"city": "Paris"}}] ok`,
	} {
		for _, opts := range []*registry.Options{{}, {ReasoningClosed: true}} {
			want := registry.Parse(text, opts)
			err := streamtest.CheckCuts(want, func() *stream.Parser { return registry.Stream(opts) }, text, nil, false)
			if err != nil {
				t.Errorf("%q (closed %v): %v", text, opts.ReasoningClosed, err)
			}
		}
	}
}

// TestPointsAfterStrings: a value's end is found past its strings, where
// a quote after an escaped backslash ends one and an escaped quote does
// not (jsonscan.Escaped).
func TestPointsAfterStrings(t *testing.T) {
	for _, text := range []string{`{"a": "x\\"}`, `{"a": "x\\\"}"}`, `{"a": "}"}`} {
		pt := stream.NewPointSet(nil).Points()
		if p, ok := pt.Next(text); !ok || p != len(text) {
			t.Errorf("%q: first point %d %v, want %d", text, p, ok, len(text))
		}
	}
}
