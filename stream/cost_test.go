package stream_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/stream"
)

// TestSteadyWritesDoNotAllocate holds the stream to its promise: a
// delta inside a long argument string, one byte or sixteen with escapes,
// allocates nothing (the buffer's doublings aside, which AllocsPerRun's
// average rounds away).
func TestSteadyWritesDoNotAllocate(t *testing.T) {
	for _, delta := range []string{"a", `lorem \"ipsum\" `, `\n`, `\`, `\\`} {
		p := stream.NewParser(hermes.Dialect, &stream.Options{Parse: dialects.Options{ReasoningClosed: true}})
		head := "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"notes.txt\", \"text\": \"" + strings.Repeat("x", 300)
		for _, c := range split(head, 16) {
			p.Write(c)
		}
		if evs := p.Write("x"); len(evs) != 1 || evs[0].Kind != stream.CallArguments || evs[0].Text != "x" {
			t.Fatalf("a byte of a shown argument gives %+v", evs)
		}
		if allocs := testing.AllocsPerRun(2000, func() { p.Write(delta) }); allocs != 0 {
			t.Errorf("a %q delta inside an argument string allocates %v times", delta, allocs)
		}
	}
}

// TestCloseReusesRegions checks that every dialect of the corpus is
// streamed with its own Reader, which never reads the text again at Close
// (stream.OwnReader), and that the result is still exactly the one-shot
// result, for the corpus and for a 64 KB call.
func TestCloseReusesRegions(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		tools, err := v.ToolSet()
		if err != nil {
			t.Fatal(err)
		}
		opts := &registry.Options{Dialect: v.Dialect, ReasoningClosed: true}
		opts.Tools = tools
		want := registry.Parse(v.Text, opts)
		p := registry.Stream(opts)
		if err := streamtest.Compare(want, p, streamtest.Feed(p, split(v.Text, 16))); err != nil {
			t.Errorf("%s: %v", v.ID, err)
		}
		if !stream.OwnReader(p) {
			t.Errorf("%s: %s is not streamed with its own Reader", v.ID, v.Dialect)
		}
	}

	p := stream.NewParser(hermes.Dialect, &stream.Options{Parse: dialects.Options{ReasoningClosed: true}})
	text := bigCall(64 << 10)
	if err := streamtest.Compare(dialects.Parse(hermes.Dialect, text, &dialects.Options{ReasoningClosed: true}), p, streamtest.Feed(p, split(text, 16))); err != nil {
		t.Fatal(err)
	}
	if !stream.OwnReader(p) {
		t.Error("a 64 KB Hermes call is not streamed with the Reader")
	}
}

// TestSectionEndKeepsStreaming checks that the closing tag of a section
// around a call (Qwen3-Coder's </tool_call> after </function>, MiniMax's
// </minimax:tool_call> after </invoke>) ends the call's region rather than
// holding the rest of the output, so that later calls stream, with the
// one-shot result.
func TestSectionEndKeepsStreaming(t *testing.T) {
	outputs := map[string]string{
		"qwen3_coder": "Checking.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>\n" +
			"<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n</tool_call>\n" +
			"<tool_call>\n<function=get_time>\n<parameter=zone>\nUTC\n</parameter>\n</function>\n</tool_call>",
		"minimax_m2": "Checking.\n<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n</invoke>\n</minimax:tool_call>\n" +
			"<minimax:tool_call>\n<invoke name=\"get_time\">\n<parameter name=\"zone\">UTC</parameter>\n</invoke>\n</minimax:tool_call>",
	}
	for dialect, text := range outputs {
		opts := &registry.Options{Dialect: dialect, ReasoningClosed: true}
		want := registry.Parse(text, opts)
		if len(want.Calls) < 2 || len(want.Errors) > 0 {
			t.Fatalf("%s: the one-shot parse reads %d calls, %v", dialect, len(want.Calls), want.Errors)
		}
		for _, n := range []int{1, 7, 16} {
			p := registry.Stream(opts)
			var evs []stream.Event
			live := 0
			for _, c := range split(text, n) {
				for _, ev := range p.Write(c) {
					evs = append(evs, ev)
					if ev.Kind == stream.Call {
						live++
					}
				}
			}
			if err := streamtest.Compare(want, p, append(evs, p.Close()...)); err != nil {
				t.Errorf("%s in %d-byte pieces: %v", dialect, n, err)
			}
			if live != len(want.Calls) {
				t.Errorf("%s in %d-byte pieces: %d of %d calls reported before the end", dialect, n, live, len(want.Calls))
			}
		}
	}
}

// hermesOnly detects Hermes, decided by its first closing marker.
type hermesOnly struct{}

func (hermesOnly) Candidates() *stream.CandidateSet {
	return stream.NewCandidateSet([]stream.Candidate{{Dialect: hermes.Dialect}})
}
func (hermesOnly) Points() *stream.PointSet {
	return stream.NewPointSet([]dialects.Dialect{hermes.Dialect})
}
func (hermesOnly) Decide(prefix string, _ func(int) *stream.Reading) (int, string) {
	if strings.Contains(prefix, "</tool_call>") {
		return 0, "a Hermes call"
	}
	return -1, ""
}
func (hermesOnly) Priors() []string { return nil }
func (hermesOnly) Settle(text string, read func(int) *stream.Reading) (int, string, *toolcall.Result) {
	if read(0) != nil {
		return 0, "a Hermes output", nil
	}
	return -1, "", dialects.Parse(hermes.Dialect, text, &dialects.Options{})
}

// TestDetectedStreamTextAndLimit checks a detecting stream once its
// dialect is decided, when only the detected dialect's parser keeps the
// text: Text is the output read, and the output past MaxBytes is not read.
func TestDetectedStreamTextAndLimit(t *testing.T) {
	call := "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>"
	text := call + " and then some text that runs past the limit"
	limit := len(call) + 9
	p := stream.NewDetecting(hermesOnly{}, &stream.Options{MaxBytes: limit})
	for _, c := range split(text, 5) {
		p.Write(c)
	}
	if got := p.Text(); got != text[:limit] {
		t.Errorf("Text() = %q, want %q", got, text[:limit])
	}
	evs := p.Close()
	res := evs[len(evs)-1].Result
	if res.Dialect != "hermes" || len(res.Calls) != 1 || res.Content != "and then" {
		t.Errorf("result %s: %d calls, content %q", res.Dialect, len(res.Calls), res.Content)
	}
	if len(res.Errors) != 1 || !errors.Is(res.Errors[0], toolcall.ErrTooLarge) || res.Errors[0].Offset != limit {
		t.Errorf("errors %v", res.Errors)
	}
}

// TestSteadyBytes writes byte values one at a time inside two long
// argument strings, where each Write gives one event: the byte written, of
// the call written; and the result is the one-shot parse's.
// The first call's argument holds the printable bytes, the second's every
// byte but the backtick.
func TestSteadyBytes(t *testing.T) {
	argOf := func(from, to int) string {
		var arg strings.Builder
		for c := from; c < to; c++ {
			switch c {
			case '`':
				// A backtick may open inline code, which a later
				// marker could lie in: the stream holds it.
				continue
			case '"', '\\':
				arg.WriteString(`\` + string(rune(c)))
			default:
				arg.WriteByte(byte(c))
			}
			arg.WriteString(`\\`) // an escape between each, as a long string has
		}
		return arg.String()
	}
	head := "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"notes.txt\", \"text\": \""
	pad := strings.Repeat("y", 20<<10)
	args := []string{argOf(' ', 0x7f), argOf(0, 256)}
	var text strings.Builder
	var starts []int
	for i, arg := range args {
		if i > 0 {
			text.WriteString("\n")
		}
		text.WriteString(head + pad)
		starts = append(starts, text.Len())
		text.WriteString(arg + pad + "\"}}\n</tool_call>")
	}
	opts := dialects.Options{ReasoningClosed: true}
	p := stream.NewParser(hermes.Dialect, &stream.Options{Parse: opts})
	var evs []stream.Event
	s := text.String()
	for i := 0; i < len(s); i++ {
		got := p.Write(s[i : i+1])
		evs = append(evs, got...)
		for index, start := range starts {
			if at := i - start; at >= 0 && at < len(args[index]) && (len(got) != 1 || got[0].Kind != stream.CallArguments || got[0].Index != index || got[0].Text != s[i:i+1]) {
				t.Fatalf("byte %d (%q) of call %d's argument gives %+v", at, s[i], index, got)
			}
		}
	}
	if err := streamtest.Compare(dialects.Parse(hermes.Dialect, s, &opts), p, append(evs, p.Close()...)); err != nil {
		t.Fatal(err)
	}
}

// TestStreamAllocatesOnce holds a long argument streamed in small deltas
// to about one copy of the text beyond what the one-shot parse allocates.
// The hermes Reader keeps the output (dialects.TextReader), so the stream
// keeps no text of its own; a delta inside the argument is kept in chunks
// lent from a pool and copied into the output's array once, when the text
// is next read (sofar.Output.Append), where an array grown by doubling
// allocated up to four times the text. The pool may have no chunk at hand
// (the collector emptied it, or the chunk waits on another thread's list):
// the chunks are then new, one more copy of the text at most; the array
// before the chunks and the slack left after them add a quarter of it.
func TestStreamAllocatesOnce(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled memory at random; the bound is checked without it")
	}
	text := bigCall(256 << 10)
	opts := dialects.Options{ReasoningClosed: true}
	oneShot := streamtest.Allocated(func() { dialects.Parse(hermes.Dialect, text, &opts) })
	for _, delta := range []int{1, 16, 1024} {
		streamed := streamtest.Allocated(func() {
			p := stream.NewParser(hermes.Dialect, &stream.Options{Parse: opts})
			for i := 0; i < len(text); i += delta {
				p.Write(text[i:min(i+delta, len(text))])
			}
			p.Close()
		})
		limit := oneShot + 2*uint64(len(text)) + uint64(len(text))/4
		if streamed > limit {
			t.Errorf("%d-byte deltas: the stream allocates %d bytes, the one-shot parse %d (limit %d)", delta, streamed, oneShot, limit)
		}
	}
}

// TestStreamKeepsNoTextOfItsOwn holds a stream of a dialect whose Reader
// keeps the whole output (dialects.TextReader) to no copy of the text of
// its own: streamed, a long argument in small deltas allocates at most
// what the Reader fed the same deltas allocates, plus what the one-shot
// parse allocates (the call finished as dialects.Finish does it), plus a
// stream's fixed cost, whatever the text's length. A copy of the text
// (256 KB) would exceed it.
func TestStreamKeepsNoTextOfItsOwn(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled memory at random; the bound is checked without it")
	}
	opts := dialects.Options{ReasoningClosed: true}
	const fixed = 8 << 10
	for _, name := range []string{"hermes", "qwen3_coder", "pythonic", "harmony", "gemma4", "deepseek_v31", "mistral", "minimax_m1", "json", "markdown_json"} {
		d, ok := registry.Lookup(name)
		inc, isInc := d.(dialects.Incremental)
		r, rok := render.For(name)
		if !ok || !isInc || !rok {
			t.Fatalf("%s: no Incremental dialect with a renderer", name)
		}
		if _, keeps := inc.NewReader(&opts).(dialects.TextReader); !keeps {
			t.Fatalf("%s: the Reader does not keep the output (dialects.TextReader)", name)
		}
		long := strings.Repeat(`lorem ipsum dolor sit amet, "quoted" and <tags> too. `, (256<<10)/54)
		text := "Let me write that file.\n" + r.Calls([]toolcall.Call{{Name: "write_file", Arguments: json.RawMessage(`{"path":"notes.txt","text":` + strconv.Quote(long) + `}`)}})
		if res := dialects.Parse(d, text, &opts); len(res.Calls) != 1 || len(res.Errors) != 0 {
			t.Fatalf("%s: the one-shot parse gives %d calls, errors %v", name, len(res.Calls), res.Errors)
		}
		oneShot := streamtest.Allocated(func() { dialects.Parse(d, text, &opts) })
		for _, delta := range []int{16, 1024} {
			reader := streamtest.Allocated(func() {
				rd := inc.NewReader(&opts)
				for i := 0; i < len(text); i += delta {
					rd.Write(text[i:min(i+delta, len(text))])
				}
				rd.Close()
			})
			streamed := streamtest.Allocated(func() {
				p := stream.NewParser(d, &stream.Options{Parse: opts})
				for i := 0; i < len(text); i += delta {
					p.Write(text[i:min(i+delta, len(text))])
				}
				p.Close()
				if p.Text() != text {
					t.Fatalf("%s: Text() is not the output", name)
				}
			})
			if limit := reader + oneShot + fixed; streamed > limit {
				t.Errorf("%s, %d-byte deltas: the stream allocates %d bytes, its Reader alone %d, the one-shot parse %d (limit %d)", name, delta, streamed, reader, oneShot, limit)
			}
		}
	}
}

// TestMaxBytesInLongArgument cuts a long argument at the stream's limit,
// inside the parser's first array, a chunk and the one after, at several
// delta sizes: the stream reads no byte past the limit, the call
// streamed so far is the one-shot parse's of what was read, and the result
// says where the output was cut.
func TestMaxBytesInLongArgument(t *testing.T) {
	text := bigCall(64 << 10)
	opts := dialects.Options{ReasoningClosed: true}
	for _, limit := range []int{200, 300, 16 << 10, 16<<10 + 256, 40000} {
		for _, delta := range []int{1, 16, 1000} {
			p := stream.NewParser(hermes.Dialect, &stream.Options{Parse: opts, MaxBytes: limit})
			var args strings.Builder
			for i := 0; i < len(text); i += delta {
				for _, ev := range p.Write(text[i:min(i+delta, len(text))]) {
					if ev.Kind == stream.CallArguments {
						args.WriteString(ev.Text)
					}
				}
			}
			if got := p.Text(); got != text[:limit] {
				t.Fatalf("limit %d, %d-byte deltas: %d bytes read", limit, delta, len(got))
			}
			evs := p.Close()
			res := evs[len(evs)-1].Result
			if n := len(res.Errors); n == 0 || !errors.Is(res.Errors[n-1], toolcall.ErrTooLarge) || res.Errors[n-1].Offset != limit {
				t.Errorf("limit %d, %d-byte deltas: errors %v", limit, delta, res.Errors)
			}
			if at := strings.Index(text, `"arguments": `) + len(`"arguments": `); limit > at && args.String() != text[at:limit] {
				t.Errorf("limit %d, %d-byte deltas: %d bytes of arguments shown, want %d", limit, delta, args.Len(), limit-at)
			}
			if d := p.Disagreement(); d != "" {
				t.Errorf("limit %d, %d-byte deltas: %s", limit, delta, d)
			}
		}
	}
}
