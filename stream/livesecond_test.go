package stream_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// secondCase is one output of the second-call liveness measure.
type secondCase struct {
	dialect, id string
	live        bool
	at, name2   int // where the first Call event came (bytes written), where the second call's name ends
}

// secondNameEnd returns where the name of the second call of text, read
// in dialect d, ends: the end of its first appearance from the call's own
// offset on; -1 when the dialect gives no offset.
func secondNameEnd(d dialects.Dialect, text string, o *dialects.Options) int {
	ext := d.Extract(text, o)
	if len(ext.Calls) < 2 || ext.Calls[1].Offset < 0 || ext.Calls[1].Name == "" {
		return -1
	}
	c := ext.Calls[1]
	i := strings.Index(text[c.Offset:], c.Name)
	if i < 0 {
		return -1
	}
	return c.Offset + i + len(c.Name)
}

// liveSecond streams every corpus output whose result holds two valid
// calls or more, one byte at a time, with the reasoning start a caller
// would set, and records whether the first Call event came before the
// second call's name was written whole.
func liveSecond(t *testing.T, detect bool) []secondCase {
	var out []secondCase
	for _, file := range []string{"dialects.dev.jsonl", "dialects.ollama.jsonl", "dialects.own.jsonl"} {
		vs, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			d, ok := registry.Lookup(v.Dialect)
			if !ok {
				continue
			}
			tools, err := v.ToolSet()
			if err != nil {
				t.Fatal(err)
			}
			named := &registry.Options{Dialect: v.Dialect}
			named.Tools = tools
			reasoningStart(v.Text, named)
			opts := named
			if detect {
				opts = &registry.Options{}
				opts.Tools = tools
				opts.ReasoningOpen, opts.ReasoningClosed = named.ReasoningOpen, named.ReasoningClosed
			}
			res := registry.Parse(v.Text, opts)
			if len(res.Calls) < 2 || len(res.Errors) > 0 || res.Dialect != v.Dialect {
				continue
			}
			do := named.DialectOptions()
			end := secondNameEnd(d, v.Text, &do)
			if end < 0 {
				continue
			}
			c := secondCase{dialect: v.Dialect, id: v.ID, name2: end, at: -1}
			p := registry.Stream(opts)
			for i := 0; i < len(v.Text) && c.at < 0; i++ {
				for _, ev := range p.Write(v.Text[i : i+1]) {
					if ev.Kind == stream.Call && c.at < 0 {
						c.at = i + 1
					}
				}
			}
			c.live = c.at >= 0 && c.at < end
			out = append(out, c)
		}
	}
	return out
}

// The second-call liveness TestLiveSecondCall holds the engine to: percent
// of the corpus outputs with two valid calls or more whose first Call
// event comes before the second call's name is written (76.8% named and
// 81.7% detected while a marked list was read whole, and a section of
// tagged calls was read when it closed; 87.6% and 93.3% while the
// pythonic family's unmarked lists were read whole; 92.9% while the
// markers family's bare values were read whole). The outputs still late
// are unmarked JSON lists ([{…}, {…}]) and runs of values after prose
// ("Here are the results: {…}; {…}"), which the one-shot parse reads
// whole (text after the list on its line makes it content), so their
// first call is settled when the line ends; Hermes
// calls with braces too many and no closing tag, read when the next one
// opens; and Cohere2MoE's framing tokens, which hold the output. The
// issue's target is 95%.
const (
	minLiveSecondNamed    = 96.0
	minLiveSecondDetected = 98.0
)

// TestLiveSecondCall measures how soon the first of several calls reaches
// the reader: for every output of the dev, Ollama and own corpora whose
// result holds two valid calls or more, streamed one byte at a time with
// the reasoning start a caller sets, named and under detection, whether
// the first Call event came before the second call's name was written
// whole. Every output that was not live is listed.
func TestLiveSecondCall(t *testing.T) {
	for _, detect := range []bool{false, true} {
		how, floor := "named", minLiveSecondNamed
		if detect {
			how, floor = "detected", minLiveSecondDetected
		}
		cases := liveSecond(t, detect)
		live := 0
		for _, c := range cases {
			if c.live {
				live++
				continue
			}
			t.Logf("  not live: %s %s (first call after %d bytes, second name written at %d)", c.dialect, c.id, c.at, c.name2)
		}
		rate := 100 * float64(live) / float64(len(cases))
		t.Logf("%s: first call before the second call's name in %d/%d outputs (%.1f%%)", how, live, len(cases), rate)
		if rate < floor {
			t.Errorf("%s: %.1f%% of first calls before the second call's name, want at least %.1f%%", how, rate, floor)
		}
	}
}
