package stream_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/schema"
)

// shapeCall is an ordinary call: about 110 bytes as most dialects write it.
func shapeCall(i int) toolcall.Call {
	return toolcall.Call{
		ID:        fmt.Sprintf("call_%d", i),
		Name:      "get_weather",
		Arguments: json.RawMessage(fmt.Sprintf(`{"city":"Paris %d","unit":"celsius","days":3,"hourly":false}`, i)),
	}
}

// shapeTools declares the tool the shape calls name.
func shapeTools(b *testing.B) *schema.Set {
	set, err := schema.NewSet(toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(
		`{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string"},"days":{"type":"integer"},"hourly":{"type":"boolean"}},"required":["city"]}`)})
	if err != nil {
		b.Fatal(err)
	}
	return set
}

// shapeCell is a cell of BenchmarkStreamShapes: a dialect's own shape
// (one ordinary call after a line of answer text, or 50 calls written as
// the dialect writes several), named or detected, with the calls its
// one-shot parse finds.
type shapeCell struct {
	name, shape, how string
	text             string
	calls            int
	opts             *registry.Options
}

// shapeCells lists the cells of every dialect that render writes, but
// those whose shape is not the dialect's own under their options
// (detection reads it as another family's): no baseline to hold them to.
func shapeCells(b *testing.B) []shapeCell {
	tools := shapeTools(b)
	many := make([]toolcall.Call, 50)
	for i := range many {
		many[i] = shapeCall(i)
	}
	var cells []shapeCell
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok || name == "ollama" {
			continue
		}
		shapes := []struct {
			name, text string
			calls      int
		}{
			{"one", "Let me check the weather for you.\n" + r.Calls([]toolcall.Call{shapeCall(0)}), 1},
			{"fifty", r.Calls(many), 50},
		}
		for _, sh := range shapes {
			for _, how := range []string{"named", "detected"} {
				opts := &registry.Options{ReasoningClosed: true, Tools: tools}
				if how == "named" {
					opts.Dialect = name
				}
				if want := registry.Parse(sh.text, opts); len(want.Calls) != sh.calls || want.Dialect != name {
					continue
				}
				cells = append(cells, shapeCell{name, sh.name, how, sh.text, sh.calls, opts})
			}
		}
	}
	return cells
}

// BenchmarkStreamShapes streams every dialect's own shape in 16-byte
// deltas, against its own one-shot parse in the same run (x_oneshot, as
// BenchmarkStream): one ordinary call after a line of answer text, and 50
// calls written as the dialect writes several (one list, one section, or
// one region each), with the dialect named and detected. B/byte is the
// bytes the stream allocates per byte of output.
//
//	go test ./stream -run '^$' -bench StreamShapes -benchtime 20x -cpu 1
func BenchmarkStreamShapes(b *testing.B) {
	for _, c := range shapeCells(b) {
		chunks := split(c.text, 16)
		b.Run(c.name+"/"+c.shape+"/"+c.how, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.text)))
			pair := pairTimer{}
			var alloc uint64
			var ms runtime.MemStats
			for b.Loop() {
				runtime.ReadMemStats(&ms)
				before := ms.TotalAlloc
				pair.stream(b, func() {
					p := registry.Stream(c.opts)
					for _, d := range chunks {
						p.Write(d)
					}
					evs := p.Close()
					if res := evs[len(evs)-1].Result; len(res.Calls) != c.calls {
						b.Fatalf("%d calls streamed, want %d", len(res.Calls), c.calls)
					}
				})
				runtime.ReadMemStats(&ms)
				alloc += ms.TotalAlloc - before
				pair.baseline(b, func() { registry.Parse(c.text, c.opts) })
			}
			pair.report(b)
			b.ReportMetric(float64(alloc)/float64(b.N)/float64(len(c.text)), "B/byte")
		})
	}
}

// BenchmarkShapeSides runs each side of BenchmarkStreamShapes alone: the
// stream in 16-byte deltas (stream) and its one-shot parse (oneshot), with
// the dialect named and detected, so that a tool counting the
// instructions of a whole run (two runs of different lengths, the
// difference per operation) measures one side, not the pair. Filter it to
// one cell:
//
//	go test ./stream -run '^$' -bench 'ShapeSides/hermes/one/detected/' -benchtime 50x
func BenchmarkShapeSides(b *testing.B) {
	for _, c := range shapeCells(b) {
		chunks := split(c.text, 16)
		b.Run(c.name+"/"+c.shape+"/"+c.how+"/stream", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				p := registry.Stream(c.opts)
				for _, d := range chunks {
					p.Write(d)
				}
				p.Close()
			}
		})
		b.Run(c.name+"/"+c.shape+"/"+c.how+"/oneshot", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				registry.Parse(c.text, c.opts)
			}
		})
	}
}
