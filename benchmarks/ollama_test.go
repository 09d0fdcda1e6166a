package benchmarks

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/model/parsers"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
)

// The side-by-side suite: the same model outputs through Ollama's own
// parsers (model/parsers at the version the library pins, set up as
// Ollama's tests set them up: Init with the tools and thinking off, then
// Add) and through the library with the dialect named, one-shot and in
// 16-byte deltas, for three shapes (one ~200-byte call, one call with a
// 64 KB argument, 50 calls) with and without tools declared.
//
// Machines here are shared and noisy, so candidate and baseline are timed
// in alternation within one run: each pair runs a batch of the baseline
// then a batch of the candidate, each batch a few hundred microseconds,
// and a cell's figure is the median of the per-pair ratios
// (library ÷ Ollama; below 1 the library is faster), with their range.

// pair names one of our dialects and the Ollama parser for the same format.
type pair struct {
	ours, theirs string
	// call writes one call with the given name and JSON arguments (an
	// object whose values are strings or numbers, for the tagged formats).
	call func(name string, args []kv) string
	// join puts calls together into one output.
	join func(calls []string) string
	// lead, when set, writes the text before the calls as the format
	// does; otherwise it stands as written.
	lead func(text string) string
}

// kv is one argument: a key and its JSON value.
type kv struct{ key, json string }

func argsJSON(args []kv) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: %s", a.key, a.json)
	}
	b.WriteByte('}')
	return b.String()
}

// rawText is the text of a JSON value as a tagged format writes it.
func rawText(v string) string {
	if strings.HasPrefix(v, `"`) {
		var s string
		if json.Unmarshal([]byte(v), &s) == nil {
			return s
		}
	}
	return v
}

var pairs = []pair{
	{ours: "hermes", theirs: "qwen3",
		call: func(name string, args []kv) string {
			return "<tool_call>\n{\"name\": \"" + name + "\", \"arguments\": " + argsJSON(args) + "}\n</tool_call>"
		},
		join: func(calls []string) string { return strings.Join(calls, "\n") }},
	{ours: "deepseek_v31", theirs: "deepseek3",
		call: func(name string, args []kv) string {
			return "<｜tool▁call▁begin｜>" + name + "<｜tool▁sep｜>" + argsJSON(args) + "<｜tool▁call▁end｜>"
		},
		join: func(calls []string) string {
			return "<｜tool▁calls▁begin｜>" + strings.Join(calls, "") + "<｜tool▁calls▁end｜>"
		}},
	// The template writes <|start|>assistant: the output opens in a
	// header, and the text before the calls is a preamble message. The
	// server stops generation on <|call|> and strips it, so a call's
	// message ends the output.
	{ours: "harmony", theirs: "harmony",
		lead: func(text string) string {
			return "<|channel|>commentary<|message|>" + strings.TrimSpace(text) + "<|end|><|start|>assistant"
		},
		call: func(name string, args []kv) string {
			return "<|channel|>commentary to=functions." + name + " <|constrain|>json<|message|>" + argsJSON(args)
		},
		join: func(calls []string) string { return strings.Join(calls, "<|call|><|start|>assistant") }},
	{ours: "mistral", theirs: "ministral",
		call: func(name string, args []kv) string {
			return "[TOOL_CALLS]" + name + "[ARGS]" + argsJSON(args)
		},
		join: func(calls []string) string { return strings.Join(calls, "") }},
	{ours: "glm45", theirs: "glm-4.7",
		call: func(name string, args []kv) string {
			var b strings.Builder
			b.WriteString("<tool_call>" + name + "\n")
			for _, a := range args {
				b.WriteString("<arg_key>" + a.key + "</arg_key>\n<arg_value>" + rawText(a.json) + "</arg_value>\n")
			}
			b.WriteString("</tool_call>")
			return b.String()
		},
		join: func(calls []string) string { return strings.Join(calls, "\n") }},
	{ours: "qwen3_coder", theirs: "qwen3-coder",
		call: func(name string, args []kv) string {
			var b strings.Builder
			b.WriteString("<tool_call>\n<function=" + name + ">\n")
			for _, a := range args {
				b.WriteString("<parameter=" + a.key + ">\n" + rawText(a.json) + "\n</parameter>\n")
			}
			b.WriteString("</function>\n</tool_call>")
			return b.String()
		},
		join: func(calls []string) string { return strings.Join(calls, "\n") }},
}

// The declared tools, as JSON Schema.
var toolsJSON = `[
 {"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city",
  "parameters": {"type": "object", "properties": {
   "location": {"type": "string", "description": "City and country"},
   "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
   "days": {"type": "integer", "minimum": 1, "maximum": 14}},
   "required": ["location"]}}},
 {"type": "function", "function": {"name": "write_file", "description": "Write a file",
  "parameters": {"type": "object", "properties": {
   "path": {"type": "string"}, "content": {"type": "string"}},
   "required": ["path", "content"]}}}
]`

// shape is one model output to parse, as calls to write.
type shape struct {
	name  string
	lead  string // text before the calls
	calls int
	args  func(i int) (string, []kv)
}

func weather(i int) (string, []kv) {
	cities := []string{"San Francisco, CA", "Paris, France", "Tokyo, Japan", "Berlin, Germany"}
	return "get_weather", []kv{{"location", fmt.Sprintf("%q", cities[i%len(cities)])}, {"unit", `"celsius"`}, {"days", fmt.Sprint(1 + i%7)}}
}

// largeContent is about 64 KB of source-like text, with quotes, tabs and
// newlines to escape.
var largeContent = func() string {
	var b strings.Builder
	line := "func handler(w http.ResponseWriter, r *http.Request) {\n\tfmt.Fprintf(w, \"hello, %s\", r.URL.Path) // <b>tag</b>\n}\n"
	for b.Len() < 64<<10 {
		b.WriteString(line)
	}
	return b.String()
}()

var shapes = []shape{
	{name: "200B", lead: "I'll look that up for you.\n", calls: 1, args: weather},
	{name: "64KB", lead: "Writing the file now.\n", calls: 1, args: func(int) (string, []kv) {
		c, _ := json.Marshal(largeContent)
		return "write_file", []kv{{"path", `"server/handler.go"`}, {"content", string(c)}}
	}},
	{name: "50calls", lead: "Checking all of them.\n", calls: 50, args: weather},
}

func (p pair) output(s shape) string {
	calls := make([]string, s.calls)
	for i := range calls {
		name, args := s.args(i)
		calls[i] = p.call(name, args)
	}
	if p.lead != nil {
		return p.lead(s.lead) + p.join(calls)
	}
	return s.lead + p.join(calls)
}

func chunked(text string, n int) []string {
	var out []string
	for len(text) > 0 {
		k := min(n, len(text))
		for k < len(text) && !utf8.RuneStart(text[k]) {
			k++ // deltas are whole tokens: never cut a character
		}
		out = append(out, text[:k])
		text = text[k:]
	}
	return out
}

// sides are the two contenders for one cell, each parsing the output and
// returning the number of calls found.
type sides struct {
	ours, theirs func() int
}

func cell(tb testing.TB, p pair, s shape, streamed, withTools bool) sides {
	text := p.output(s)
	var apiTools []api.Tool
	opts := &registry.Options{Dialect: p.ours, ReasoningClosed: true}
	if withTools {
		if err := json.Unmarshal([]byte(toolsJSON), &apiTools); err != nil {
			tb.Fatal(err)
		}
		tools, err := toolcall.ParseTools(json.RawMessage(toolsJSON))
		if err != nil {
			tb.Fatal(err)
		}
		set, err := schema.NewSet(tools...)
		if err != nil {
			tb.Fatal(err)
		}
		opts.Tools = set
	}
	think := &api.ThinkValue{Value: false}
	chunks := chunked(text, 16)
	var c sides
	if !streamed {
		c.theirs = func() int {
			parser := parsers.ParserForName(p.theirs)
			parser.Init(apiTools, nil, think)
			_, _, calls, err := parser.Add(text, true)
			if err != nil {
				return -1
			}
			return len(calls)
		}
		c.ours = func() int {
			res := registry.Parse(text, opts)
			if len(res.Errors) > 0 {
				return -1
			}
			return len(res.Calls)
		}
	} else {
		c.theirs = func() int {
			parser := parsers.ParserForName(p.theirs)
			parser.Init(apiTools, nil, think)
			n := 0
			for i, ch := range chunks {
				_, _, calls, err := parser.Add(ch, i == len(chunks)-1)
				if err != nil {
					return -1
				}
				n += len(calls)
			}
			return n
		}
		c.ours = func() int {
			sp := registry.Stream(opts)
			for _, ch := range chunks {
				sp.Write(ch)
			}
			evs := sp.Close()
			res := evs[len(evs)-1].Result
			if res == nil || len(res.Errors) > 0 {
				return -1
			}
			return len(res.Calls)
		}
	}
	if got := c.theirs(); got != s.calls {
		tb.Skipf("Ollama's %s parser finds %d calls, not %d", p.theirs, got, s.calls)
	}
	if got := c.ours(); got != s.calls {
		res := registry.Parse(text, opts)
		tb.Fatalf("%s finds %d calls, not %d: %v", p.ours, got, s.calls, res.Errors)
	}
	return c
}

// batchSize picks how many runs of f take about 300 µs.
func batchSize(f func() int) int {
	n := 1
	for {
		start := time.Now()
		for range n {
			f()
		}
		if d := time.Since(start); d > 300*time.Microsecond || n >= 1<<16 {
			return n
		}
		n *= 2
	}
}

// ratios times pairs of batches, baseline then candidate, and returns the
// per-pair ratios and the time per run of each side.
func ratios(c sides, pairs int) (rs []float64, oursNs, theirsNs float64) {
	k := max(batchSize(c.theirs), batchSize(c.ours))
	k = max(1, k/2)
	var tOurs, tTheirs time.Duration
	for range pairs {
		start := time.Now()
		for range k {
			c.theirs()
		}
		mid := time.Now()
		for range k {
			c.ours()
		}
		end := time.Now()
		tTheirs += mid.Sub(start)
		tOurs += end.Sub(mid)
		rs = append(rs, float64(end.Sub(mid))/float64(mid.Sub(start)))
	}
	slices.Sort(rs)
	n := float64(pairs * k)
	return rs, float64(tOurs.Nanoseconds()) / n, float64(tTheirs.Nanoseconds()) / n
}

// bytesPerRun is the memory one run of f allocates.
func bytesPerRun(f func() int) (bytes, allocs float64) {
	var a, b runtime.MemStats
	const runs = 5
	f()
	runtime.ReadMemStats(&a)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&b)
	return float64(b.TotalAlloc-a.TotalAlloc) / runs, float64(b.Mallocs-a.Mallocs) / runs
}

func median(rs []float64) float64 { return rs[len(rs)/2] }

type cellName struct {
	p         pair
	s         shape
	streamed  bool
	withTools bool
}

func (c cellName) String() string {
	mode, tools := "oneshot", "notools"
	if c.streamed {
		mode = "stream16"
	}
	if c.withTools {
		tools = "tools"
	}
	return fmt.Sprintf("%s/%s/%s/%s", c.p.ours, c.s.name, mode, tools)
}

func allCells() []cellName {
	var out []cellName
	for _, p := range pairs {
		for _, s := range shapes {
			for _, streamed := range []bool{false, true} {
				for _, withTools := range []bool{false, true} {
					out = append(out, cellName{p, s, streamed, withTools})
				}
			}
		}
	}
	return out
}

// BenchmarkOllama runs every cell: each b.Loop iteration is one pair of
// batches (Ollama, then the library). It reports the median ratio and its
// range over the pairs, the time and allocation per run of each side, and
// (b.ReportAllocs) what a pair allocated.
//
//	go test -run XXX -bench Ollama -benchtime 40x
func BenchmarkOllama(b *testing.B) {
	for _, cn := range allCells() {
		b.Run(cn.String(), func(b *testing.B) {
			b.ReportAllocs()
			c := cell(b, cn.p, cn.s, cn.streamed, cn.withTools)
			var all []float64
			var ours, theirs float64
			for b.Loop() {
				rs, o, t := ratios(c, 1)
				all = append(all, rs...)
				ours, theirs = ours+o, theirs+t
			}
			slices.Sort(all)
			b.ReportMetric(median(all), "ratio")
			b.ReportMetric(all[0], "ratio-min")
			b.ReportMetric(all[len(all)-1], "ratio-max")
			b.ReportMetric(ours/float64(len(all)), "ours-ns/run")
			b.ReportMetric(theirs/float64(len(all)), "ollama-ns/run")
			ob, oa := bytesPerRun(c.ours)
			tb, ta := bytesPerRun(c.theirs)
			b.ReportMetric(ob, "ours-B/run")
			b.ReportMetric(tb, "ollama-B/run")
			b.ReportMetric(oa, "ours-allocs/run")
			b.ReportMetric(ta, "ollama-allocs/run")
		})
	}
}

// TestOllamaTable prints the side-by-side table as markdown, for
// docs/performance.md. It runs only when DIALECTKIT_OLLAMA_TABLE names the
// number of pairs per cell:
//
//	DIALECTKIT_OLLAMA_TABLE=21 go test -run TestOllamaTable -v
func TestOllamaTable(t *testing.T) {
	pairsPerCell := 0
	fmt.Sscan(os.Getenv("DIALECTKIT_OLLAMA_TABLE"), &pairsPerCell)
	if pairsPerCell <= 0 {
		t.Skip("set DIALECTKIT_OLLAMA_TABLE to the number of pairs per cell")
	}
	type figure struct {
		med, lo, hi float64
		ok          bool
	}
	results := map[string]figure{}
	worst := 0.0
	for _, cn := range allCells() {
		t.Run(cn.String(), func(t *testing.T) {
			c := cell(t, cn.p, cn.s, cn.streamed, cn.withTools)
			rs, o, th := ratios(c, pairsPerCell)
			f := figure{median(rs), rs[0], rs[len(rs)-1], true}
			results[cn.String()] = f
			worst = math.Max(worst, f.med)
			ob, _ := bytesPerRun(c.ours)
			tb, _ := bytesPerRun(c.theirs)
			t.Logf("ratio %.2f (%.2f–%.2f); ours %.1f µs %.0f B, Ollama %.1f µs %.0f B", f.med, f.lo, f.hi, o/1e3, ob, th/1e3, tb)
		})
	}
	var b strings.Builder
	b.WriteString("| dialect vs Ollama parser | tools | ~200 B one-shot | ~200 B streamed | 64 KB one-shot | 64 KB streamed | 50 calls one-shot | 50 calls streamed |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, p := range pairs {
		for _, withTools := range []bool{false, true} {
			tools := "no"
			if withTools {
				tools = "yes"
			}
			fmt.Fprintf(&b, "| %s vs %s | %s |", p.ours, p.theirs, tools)
			for _, s := range shapes {
				for _, streamed := range []bool{false, true} {
					f, ok := results[cellName{p, s, streamed, withTools}.String()]
					if !ok || !f.ok {
						b.WriteString(" n/a |")
						continue
					}
					fmt.Fprintf(&b, " %.2f (%.2f–%.2f) |", f.med, f.lo, f.hi)
				}
			}
			b.WriteString("\n")
		}
	}
	t.Logf("worst median %.2f\n%s", worst, b.String())
}

// BenchmarkOllamaSides times each side of every cell on its own, for
// profiling one side (go test -bench 'OllamaSides/hermes/64KB/oneshot/tools/ours'
// -cpuprofile …); the ratios come from BenchmarkOllama and TestOllamaTable.
func BenchmarkOllamaSides(b *testing.B) {
	for _, cn := range allCells() {
		b.Run(cn.String(), func(b *testing.B) {
			c := cell(b, cn.p, cn.s, cn.streamed, cn.withTools)
			for _, side := range []struct {
				name string
				f    func() int
			}{{"ours", c.ours}, {"ollama", c.theirs}} {
				b.Run(side.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						side.f()
					}
				})
			}
		})
	}
}
