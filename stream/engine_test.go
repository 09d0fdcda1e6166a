package stream_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
	"github.com/dialectkit/toolcall/stream"
)

// TestEngineEvents pins the events a dialect's own Reader gives a stream
// (streamtest.Lines): each piece is an event as soon as the Reader returns
// it, a call the Reader did not announce gets its CallStart first, calls
// past the cap are not shown, and the result is the one-shot parse's.
func TestEngineEvents(t *testing.T) {
	tools, err := schema.NewSet(toolcall.Tool{Name: "f", Parameters: []byte(`{"type": "object", "properties": {"a": {"type": "integer"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		opts   stream.Options
		chunks []string
		want   [][]string // events after each chunk, then after Close
		errs   []toolcall.Code
	}{
		{
			name:   "content when its line ends, a call announced at its name, its arguments as they come, the call when its line ends",
			chunks: []string{"Let me", " check.\nCALL f", ` {"a":`, " 1}", "\nBye"},
			want: [][]string{
				{},
				{"content:Let me check."}, // the line break is held until text follows it (textlayer.Edges)
				{"call_start:0:f", "call_arguments:0"},
				{"call_arguments:0"},
				{"call:0:f:{\"a\":1}"},
				{"content:\nBye", "done:lines"},
			},
		},
		{
			name:   "reasoning; a call never announced starts when it is read; a failed call",
			chunks: []string{"THINK hm\nCALL g\n", "CALL f [1]\n"},
			want: [][]string{
				{"reasoning:hm\n", "call_start:0:g", "call:0:g:{}"},
				{"call_start:1:f", "call_arguments:1", "call_error:1:TLP-012"},
				{"done:lines"},
			},
			errs: []toolcall.Code{toolcall.CodeNotObject},
		},
		{
			name:   "a call the output ends in is cut (TLP-014); an error of no call is in the result only",
			chunks: []string{"ERR odd\nMARK\n", `CALL f {"a": 1`},
			want: [][]string{
				{},
				{"call_start:0:f", "call_arguments:0"},
				{"call_error:0:TLP-014", "done:lines"},
			},
			errs: []toolcall.Code{toolcall.CodeTruncated, toolcall.CodeMalformedCall},
		},
		{
			name:   "calls past the cap are neither started nor reported; one TLP-026 says how many",
			opts:   stream.Options{Parse: dialects.Options{MaxCalls: 1}},
			chunks: []string{"CALL f {}\n", "CALL g {}\nCALL h {", "}\n"},
			want: [][]string{
				{"call_start:0:f", "call_arguments:0", "call:0:f:{}"},
				{},
				{},
				{"done:lines"},
			},
			errs: []toolcall.Code{toolcall.CodeTooMany},
		},
		{
			name:   "errors past the error cap are summed up in one",
			opts:   stream.Options{Parse: dialects.Options{MaxErrors: 2}},
			chunks: []string{"ERR a\nERR b\nERR c\n"},
			want:   [][]string{{}, {"done:lines"}},
			errs:   []toolcall.Code{toolcall.CodeMalformedCall, toolcall.CodeTooMany},
		},
		{
			name:   "declared tools: names and arguments are checked as the call is read",
			opts:   stream.Options{Parse: dialects.Options{Tools: tools}},
			chunks: []string{`CALL f {"a": 2,}`, "\nCALL nope {}\n"},
			want: [][]string{
				{"call_start:0:f", "call_arguments:0"},
				{"call:0:f:{\"a\":2}", "call_start:1:nope", "call_arguments:1", "call_error:1:TLP-005"},
				{"done:lines"},
			},
			errs: []toolcall.Code{toolcall.CodeUnknownTool},
		},
		{
			name:   "past MaxBytes nothing is read: the call left open is cut, and TLP-009 says where",
			opts:   stream.Options{MaxBytes: 16},
			chunks: []string{"Hi\nCALL f {\"a\"", ": 1}\nmore"},
			want: [][]string{
				{"content:Hi", "call_start:0:f", "call_arguments:0"},
				{"call_arguments:0"},
				{"call_error:0:TLP-014", "done:lines"},
			},
			errs: []toolcall.Code{toolcall.CodeTruncated, toolcall.CodeTooLarge},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := stream.NewParser(streamtest.Lines{}, &tt.opts)
			var all []stream.Event
			for i, c := range tt.chunks {
				evs := p.Write(c)
				all = append(all, evs...)
				if got := trace(evs); !slices.Equal(got, tt.want[i]) {
					t.Errorf("after %q: %q, want %q", c, got, tt.want[i])
				}
			}
			evs := p.Close()
			all = append(all, evs...)
			if got := trace(evs); !slices.Equal(got, tt.want[len(tt.chunks)]) {
				t.Errorf("at Close: %q, want %q", got, tt.want[len(tt.chunks)])
			}
			res := p.Result()
			if res == nil || res != all[len(all)-1].Result {
				t.Fatalf("Result() %v is not Done's", res)
			}
			var codes []toolcall.Code
			for _, e := range res.Errors {
				codes = append(codes, e.Code)
			}
			if !slices.Equal(codes, tt.errs) {
				t.Errorf("errors %v, want %v", codes, tt.errs)
			}
			// The result is the one-shot parse of what was read, ids
			// as the stream gave them.
			text := strings.Join(tt.chunks, "")
			if max := tt.opts.MaxBytes; max > 0 && len(text) > max {
				text = text[:max]
			}
			if p.Text() != text {
				t.Errorf("Text() %q, want %q", p.Text(), text)
			}
			want := dialects.Parse(streamtest.Lines{}, text, &tt.opts.Parse)
			if tt.opts.MaxBytes > 0 {
				want.Errors = append(want.Errors, res.Errors[len(res.Errors)-1])
			}
			for i := range want.Calls {
				want.Calls[i].ID = res.Calls[i].ID
			}
			if !reflect.DeepEqual(res, want) {
				t.Errorf("result %+v\nwant %+v", res, want)
			}
			if err := streamtest.Compare(res, p, all); err != nil {
				t.Error(err)
			}
			if evs := p.Close(); evs != nil {
				t.Errorf("Close again: %q", trace(evs))
			}
			if evs := p.Write("CALL f {}\n"); evs != nil {
				t.Errorf("Write after Close: %q", trace(evs))
			}
		})
	}
}

// TestEngineCutsAgree streams the Lines dialect's rows cut every way: the
// events agree with the one-shot result whatever the cuts.
func TestEngineCutsAgree(t *testing.T) {
	texts := []string{
		"",
		"plain",
		"Let me check.\nCALL f {\"a\": 1}\nThen.\nCALL g {}",
		"THINK a\nTHINK b\nMARK\nMARK\nERR x\nCALL f [1]\nCALL h",
		"CALL é {\"k\": \"ü\"}\n\n  \nCALL f {\"a\": 1,}\n",
	}
	for _, text := range texts {
		for _, o := range []*dialects.Options{{}, {MaxCalls: 1}, {MaxErrors: 1}} {
			if err := streamtest.Check(streamtest.Lines{}, text, nil, o); err != nil {
				t.Errorf("%q %+v: %v", text, *o, err)
			}
		}
	}
}

// TestIncrementalCorpus streams every corpus vector, cut a few ways, in
// every registered dialect that reads its output with a Reader of its own
// (and in the Lines dialect, which reads any text): the stream is the
// one-shot parse, with and without the tools declared and the reasoning
// start given.
func TestIncrementalCorpus(t *testing.T) {
	ds := []dialects.Dialect{streamtest.Lines{}}
	for _, d := range registry.Default().Dialects() {
		if _, ok := d.(dialects.Incremental); ok {
			ds = append(ds, d)
		}
	}
	var vs []corpustest.Vector
	for _, file := range corpustest.PeerFiles {
		more, err := corpustest.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, more...)
	}
	t.Logf("%d dialects on their own Reader, %d vectors", len(ds), len(vs))
	for _, d := range ds {
		for _, v := range vs {
			tools, err := v.ToolSet()
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range []dialects.Options{{}, {Tools: tools, ReasoningClosed: true}, {Tools: tools, ReasoningOpen: true}} {
				want := dialects.Parse(d, v.Text, &o)
				newParser := func() *stream.Parser { return stream.NewParser(d, &stream.Options{Parse: o}) }
				if err := streamtest.CheckCuts(want, newParser, v.Text, v.Chunks, true); err != nil {
					t.Errorf("%s, %s (open %v, closed %v): %v", d.Name(), v.ID, o.ReasoningOpen, o.ReasoningClosed, err)
					continue
				}
				// The result is Parse's exactly (errors' messages,
				// offsets and texts, repairs' details), ids aside.
				p := newParser()
				evs := streamtest.Feed(p, split(v.Text, 16))
				got := evs[len(evs)-1].Result
				for i := range want.Calls {
					if i < len(got.Calls) {
						want.Calls[i].ID = got.Calls[i].ID
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s, %s (open %v, closed %v): streamed result %+v, Parse %+v", d.Name(), v.ID, o.ReasoningOpen, o.ReasoningClosed, got, want)
				}
			}
		}
	}
}

// TestEngineRegistry: a registry streams a named dialect that reads its
// output itself with its Reader, and a fallback chain still applies.
func TestEngineRegistry(t *testing.T) {
	r := registry.New()
	if err := r.Register(streamtest.Lines{}); err != nil {
		t.Fatal(err)
	}
	text := "Hi\nCALL f {\"a\": 1}\n"
	for _, o := range []registry.Options{{Dialect: "lines"}, {Dialect: "lines", Fallback: []string{"hermes"}}} {
		want := r.Parse(text, &o)
		if len(want.Calls) != 1 {
			t.Fatalf("one-shot: %+v", want)
		}
		if err := streamtest.CheckCuts(want, func() *stream.Parser { return r.Stream(&o) }, text, nil, false); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

// TestEngineDetected: when detection decides a dialect that reads its
// output itself, the dialect's Reader reads the output from its start, and
// the rest as it comes.
func TestEngineDetected(t *testing.T) {
	r := registry.New(streamtest.Lines{})
	text := "Hi.\nCALL f {\"a\": 1}\nmore\nCALL g {}\n"
	o := &registry.Options{}
	want := r.Parse(text, o)
	if want.Dialect != "lines" || len(want.Calls) != 2 {
		t.Fatalf("one-shot: %+v", want)
	}
	p := r.Stream(o)
	got := trace(streamtest.Feed(p, []string{text[:10], text[10:22], text[22:]}))
	wantEvs := []string{"detected:lines", "content:Hi.", "call_start:0:f", "call_arguments:0", "call:0:f:{\"a\":1}",
		"content:\nmore", "call_start:1:g", "call_arguments:1", "call:1:g:{}", "done:lines"}
	if !slices.Equal(got, wantEvs) {
		t.Errorf("events %q, want %q", got, wantEvs)
	}
	if err := streamtest.CheckCuts(want, func() *stream.Parser { return r.Stream(o) }, text, nil, false); err != nil {
		t.Error(err)
	}
}

// TestEngineLongText: past a chunk's length the stream keeps the text in
// chunks; Text is still the output read, up to the stream's limit.
func TestEngineLongText(t *testing.T) {
	text := strings.Repeat("a line of answer text\n", 5000) + "CALL f {\"a\": 1}\n"
	for _, limit := range []int{0, 40000, 16 << 10} {
		p := stream.NewParser(streamtest.Lines{}, &stream.Options{MaxBytes: limit})
		var content strings.Builder
		for _, c := range split(text, 7) {
			for _, ev := range p.Write(c) {
				if ev.Kind == stream.Content {
					content.WriteString(ev.Text)
				}
			}
		}
		want := text
		if limit > 0 {
			want = text[:limit]
		}
		if p.Text() != want {
			t.Errorf("limit %d: Text() is %d bytes, want %d", limit, len(p.Text()), len(want))
		}
		evs := p.Close()
		for _, ev := range evs {
			if ev.Kind == stream.Content {
				content.WriteString(ev.Text)
			}
		}
		res := evs[len(evs)-1].Result
		if wantCalls := len(want) == len(text); (len(res.Calls) == 1) != wantCalls || !strings.HasPrefix(want, res.Content) || content.String() != res.Content {
			t.Errorf("limit %d: %d calls, content %d bytes (%d streamed)", limit, len(res.Calls), len(res.Content), content.Len())
		}
	}
}

// extractOnly is a dialect that has only Extract, as a third party's may:
// hermes' reading of the whole output, without its Reader.
type extractOnly struct{}

func (extractOnly) Name() string { return "extract_only" }
func (extractOnly) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	d, _ := registry.Lookup("hermes")
	return d.Extract(text, opts)
}

// TestExtractOnlyReadsAtClose streams a dialect that is not
// dialects.Incremental: it emits nothing before Close, and Close gives the
// one-shot parse's result (its Extract with the stream's options) however
// the output is cut.
func TestExtractOnlyReadsAtClose(t *testing.T) {
	tools, err := schema.NewSet(toolcall.Tool{Name: "f", Parameters: []byte(`{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	var d extractOnly
	for _, text := range []string{
		"",
		"Just an answer.",
		"<think>hmm</think>Calling.\n<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>\n<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"x\"}}</tool_call>",
		"<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1",
		"<tool_call>{\"name\": \"g\", \"arguments\": {}}</tool_call> done",
	} {
		for _, opts := range []*dialects.Options{{}, {Tools: tools, ReasoningClosed: true}} {
			want := dialects.Parse(d, text, opts)
			if err := streamtest.Check(d, text, nil, opts); err != nil {
				t.Errorf("%q: %v", text, err)
			}
			p := stream.NewParser(d, &stream.Options{Parse: *opts})
			for _, c := range split(text, 7) {
				if evs := p.Write(c); len(evs) > 0 {
					t.Fatalf("%q: a Write before Close gives %+v", text, evs)
				}
			}
			evs := p.Close()
			if err := streamtest.SameResult(want, evs[len(evs)-1].Result); err != nil {
				t.Errorf("%q: %v", text, err)
			}
			if p.Text() != text {
				t.Errorf("%q: Text() = %q", text, p.Text())
			}
		}
	}
}
