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

// BenchmarkStreamShapes streams every dialect's own shape in 16-byte
// deltas, against its own one-shot parse in the same run (x_oneshot, as
// BenchmarkStream): one ordinary call after a line of answer text, and 50
// calls written as the dialect writes several (one list, one section, or
// one region each), with the dialect named and detected. B/byte is the
// bytes the stream allocates per byte of output.
//
//	go test ./stream -run '^$' -bench StreamShapes -benchtime 20x -cpu 1
func BenchmarkStreamShapes(b *testing.B) {
	tools := shapeTools(b)
	many := make([]toolcall.Call, 50)
	for i := range many {
		many[i] = shapeCall(i)
	}
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
			for _, detect := range []bool{false, true} {
				opts := &registry.Options{ReasoningClosed: true}
				opts.Tools = tools
				how := "named"
				if detect {
					how = "detected"
				} else {
					opts.Dialect = name
				}
				want := registry.Parse(sh.text, opts)
				if len(want.Calls) != sh.calls || want.Dialect != name {
					// The shape is not this dialect's own under these
					// options (detection reads it as another family's):
					// no baseline to hold it to.
					continue
				}
				chunks := split(sh.text, 16)
				b.Run(fmt.Sprintf("%s/%s/%s", name, sh.name, how), func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(sh.text)))
					pair := pairTimer{}
					var alloc uint64
					var ms runtime.MemStats
					for b.Loop() {
						runtime.ReadMemStats(&ms)
						before := ms.TotalAlloc
						pair.stream(b, func() {
							p := registry.Stream(opts)
							for _, c := range chunks {
								p.Write(c)
							}
							evs := p.Close()
							if res := evs[len(evs)-1].Result; len(res.Calls) != sh.calls {
								b.Fatalf("%d calls streamed, want %d", len(res.Calls), sh.calls)
							}
						})
						runtime.ReadMemStats(&ms)
						alloc += ms.TotalAlloc - before
						pair.baseline(b, func() { registry.Parse(sh.text, opts) })
					}
					pair.report(b)
					b.ReportMetric(float64(alloc)/float64(b.N)/float64(len(sh.text)), "B/byte")
				})
			}
		}
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
	tools := shapeTools(b)
	many := make([]toolcall.Call, 50)
	for i := range many {
		many[i] = shapeCall(i)
	}
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok || name == "ollama" {
			continue
		}
		for _, sh := range []struct {
			name, text string
			calls      int
		}{
			{"one", "Let me check the weather for you.\n" + r.Calls([]toolcall.Call{shapeCall(0)}), 1},
			{"fifty", r.Calls(many), 50},
		} {
			for _, how := range []string{"named", "detected"} {
				opts := &registry.Options{ReasoningClosed: true, Tools: tools}
				if how == "named" {
					opts.Dialect = name
				}
				chunks := split(sh.text, 16)
				b.Run(name+"/"+sh.name+"/"+how+"/stream", func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(sh.text)))
					for b.Loop() {
						p := registry.Stream(opts)
						for _, c := range chunks {
							p.Write(c)
						}
						p.Close()
					}
				})
				b.Run(name+"/"+sh.name+"/"+how+"/oneshot", func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(sh.text)))
					for b.Loop() {
						registry.Parse(sh.text, opts)
					}
				})
			}
		}
	}
}
