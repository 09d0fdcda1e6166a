package stream

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/schema"
)

// step is one fragment fed to an Accumulator, with what Add must return:
// the completions, summarised (see summary), and the code of its error.
type step struct {
	f    Fragment
	done []string
	err  toolcall.Code
}

// summary renders a completion as "index:name arguments" for a call and
// "index!code" for an error.
func summary(c Completion) string {
	if c.Err != nil {
		return fmt.Sprintf("%d!%s", c.Index, coded.As(c.Err).Code)
	}
	if c.Call.Name == "" { // Raw mode
		return fmt.Sprintf("%d:%s %s", c.Index, c.Raw.Name, c.Raw.Arguments)
	}
	return fmt.Sprintf("%d:%s %s", c.Index, c.Call.Name, c.Call.Arguments)
}

func summaries(cs []Completion) []string {
	var out []string
	for _, c := range cs {
		out = append(out, summary(c))
	}
	return out
}

// Fragment constructors, to keep the tables readable.
func head(i int, id, name string) Fragment {
	return Fragment{Index: i, ID: id, Type: "function", Name: name}
}
func piece(i int, args string) Fragment { return Fragment{Index: i, Arguments: args} }
func last(i int, args string) Fragment  { return Fragment{Index: i, Arguments: args, Complete: true} }
func whole(i int, id, name, args string) Fragment {
	return Fragment{Index: i, ID: id, Name: name, Arguments: args, Whole: true}
}

func weatherTools(t testing.TB) *schema.Set {
	t.Helper()
	tools, err := toolcall.ParseTools([]byte(`[
		{"type":"function","function":{"name":"get_weather","parameters":{"type":"object",
			"properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}},
		{"type":"function","function":{"name":"get_time","parameters":{"type":"object",
			"properties":{"zone":{"type":"string"}}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestAccumulator(t *testing.T) {
	tools := weatherTools(t)
	tests := []struct {
		name  string
		opts  *AccumulatorOptions
		steps []step
		// final are the completions of End, in order.
		final []string
	}{
		{
			name: "fragments in order complete at the end",
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: piece(0, `{"city":`)},
				{f: piece(0, ` "Paris"}`)},
			},
			final: []string{`0:get_weather {"city":"Paris"}`},
		},
		{
			name: "name in pieces",
			steps: []step{
				{f: head(0, "c0", "get_")},
				{f: Fragment{Index: 0, Name: "wea"}},
				{f: Fragment{Index: 0, Name: "ther", Arguments: `{"city":"Oslo"}`}},
			},
			final: []string{`0:get_weather {"city":"Oslo"}`},
		},
		{
			name: "the whole name resent on every delta is a repeat",
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: Fragment{Index: 0, ID: "c0", Name: "get_weather", Arguments: `{"city"`}},
				{f: Fragment{Index: 0, ID: "c0", Name: "get_weather", Arguments: `:"Oslo"}`}},
			},
			final: []string{`0:get_weather {"city":"Oslo"}`},
		},
		{
			name: "a name resent longer before the arguments replaces the old one",
			steps: []step{
				{f: head(0, "c0", "get")},
				{f: Fragment{Index: 0, Name: "get_weather"}},
				{f: piece(0, `{"city":"Oslo"}`)},
			},
			final: []string{`0:get_weather {"city":"Oslo"}`},
		},
		{
			name: "arguments in one-byte pieces",
			steps: func() []step {
				s := []step{{f: head(0, "c0", "get_weather")}}
				for _, b := range []byte(`{"city": "Lima", "days": 2}`) {
					s = append(s, step{f: piece(0, string(b))})
				}
				return s
			}(),
			final: []string{`0:get_weather {"city":"Lima","days":2}`},
		},
		{
			name: "interleaved calls are told apart by index",
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: head(1, "c1", "get_time")},
				{f: piece(1, `{"zone":`)},
				{f: piece(0, `{"city":`)},
				{f: piece(0, `"Rome"}`)},
				{f: piece(1, `"CET"}`)},
			},
			final: []string{`0:get_weather {"city":"Rome"}`, `1:get_time {"zone":"CET"}`},
		},
		{
			name: "completion by flag",
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: piece(0, `{"city":`)},
				{f: last(0, `"Rome"}`), done: []string{`0:get_weather {"city":"Rome"}`}},
				{f: head(1, "c1", "get_time")},
			},
			final: []string{`1:get_time {}`},
		},
		{
			name: "a complete higher index waits for the lower ones",
			steps: []step{
				{f: whole(2, "c2", "get_time", `{"zone":"UTC"}`)},
				{f: head(0, "c0", "get_weather")},
				{f: whole(1, "c1", "get_time", `{}`)},
				{f: last(0, `{"city":"Rome"}`), done: []string{`0:get_weather {"city":"Rome"}`, `1:get_time {}`, `2:get_time {"zone":"UTC"}`}},
			},
		},
		{
			name: "out of order: index 1 before index 0's last piece",
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: piece(0, `{"city":`)},
				{f: head(1, "c1", "get_time")},
				{f: piece(1, `{}`)},
				{f: piece(0, `"Rome"}`)},
			},
			final: []string{`0:get_weather {"city":"Rome"}`, `1:get_time {}`},
		},
		{
			name: "sequential: the next index completes the previous one",
			opts: &AccumulatorOptions{Sequential: true},
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: piece(0, `{"city":"Rome"}`)},
				{f: head(1, "c1", "get_time"), done: []string{`0:get_weather {"city":"Rome"}`}},
				{f: piece(1, `{"zone":"CET"}`)},
			},
			final: []string{`1:get_time {"zone":"CET"}`},
		},
		{
			name: "sequential: a skipped index is reported when the stream passes it",
			opts: &AccumulatorOptions{Sequential: true},
			steps: []step{
				{f: whole(0, "c0", "get_time", `{}`), done: []string{`0:get_time {}`}},
				{f: head(3, "c3", "get_time"), done: []string{`1!TLP-008`}},
			},
			final: []string{`3:get_time {}`},
		},
		{
			name: "sequential: a lower index after a higher one is an error",
			opts: &AccumulatorOptions{Sequential: true},
			steps: []step{
				{f: head(1, "c1", "get_time"), done: []string{`0!TLP-008`}},
				{f: head(0, "c0", "get_weather"), err: toolcall.CodeStream},
				{f: piece(1, `{}`)},
			},
			final: []string{`1:get_time {}`},
		},
		{
			name: "without sequential, a lower index may start late",
			steps: []step{
				{f: head(1, "c1", "get_time")},
				{f: head(0, "c0", "get_weather")},
				{f: piece(0, `{"city":"Rome"}`)},
			},
			final: []string{`0:get_weather {"city":"Rome"}`, `1:get_time {}`},
		},
		{
			name: "an index gap at the end is reported before the calls after it",
			steps: []step{
				{f: whole(2, "c2", "get_time", `{}`)},
				{f: whole(5, "c5", "get_time", `{}`)},
			},
			final: []string{`0!TLP-008`, `2:get_time {}`, `3!TLP-008`, `5:get_time {}`},
		},
		{
			name: "a fragment for a completed index is an error, reported once",
			steps: []step{
				{f: whole(0, "c0", "get_time", `{}`), done: []string{`0:get_time {}`}},
				{f: piece(0, `{"zone":"UTC"}`), err: toolcall.CodeStream},
				{f: piece(0, `{"zone":"UTC"}`)},
				{f: whole(1, "c1", "get_time", `{}`), done: []string{`1:get_time {}`}},
			},
		},
		{
			name: "a fragment for a complete call that waits is an error",
			steps: []step{
				{f: whole(1, "c1", "get_time", `{}`)},
				{f: piece(1, `{}`), err: toolcall.CodeStream},
				{f: whole(0, "c0", "get_time", `{}`), done: []string{`0:get_time {}`, `1:get_time {}`}},
			},
		},
		{
			name: "a conflicting id fails that call only",
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: head(1, "c1", "get_time")},
				{f: Fragment{Index: 0, ID: "c9", Arguments: `{"city":"Rome"}`}},
				{f: piece(0, `,"days":1}`)},
				{f: piece(1, `{}`)},
			},
			final: []string{`0!TLP-008`, `1:get_time {}`},
		},
		{
			name: "a different name after the arguments began is a conflict",
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: piece(0, `{"city":"Rome"}`)},
				{f: Fragment{Index: 0, Name: "get_time"}},
			},
			final: []string{`0!TLP-008`},
		},
		{
			name: "a conflicting type is a conflict",
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: Fragment{Index: 0, Type: "custom", Arguments: `{"city":"Rome"}`}},
			},
			final: []string{`0!TLP-008`},
		},
		{
			name: "a negative index is an error, reported once",
			steps: []step{
				{f: head(-1, "c0", "get_weather"), err: toolcall.CodeStream},
				{f: piece(-1, `{}`)},
				{f: whole(0, "c0", "get_time", `{}`), done: []string{`0:get_time {}`}},
			},
		},
		{
			name: "whole arguments complete the call; more pieces are an error",
			steps: []step{
				{f: whole(0, "c0", "get_weather", `{"city":"Rome"}`), done: []string{`0:get_weather {"city":"Rome"}`}},
				{f: piece(0, `{"city":"Rome"}`), err: toolcall.CodeStream},
			},
		},
		{
			name: "whole arguments after pieces are a conflict",
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: piece(0, `{"city":`)},
				{f: whole(0, "", "", `{"city":"Rome"}`), done: []string{`0!TLP-008`}},
			},
		},
		{
			name: "whole arguments after a header without arguments are fine",
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: whole(0, "", "", `{"city":"Rome"}`), done: []string{`0:get_weather {"city":"Rome"}`}},
			},
		},
		{
			name: "Ollama: whole calls, one per chunk",
			steps: []step{
				{f: whole(0, "call_a", "get_weather", `{"city":"Rome"}`), done: []string{`0:get_weather {"city":"Rome"}`}},
				{f: whole(1, "call_b", "get_time", `{"zone":"CET"}`), done: []string{`1:get_time {"zone":"CET"}`}},
			},
		},
		{
			name: "malformed argument pieces are repaired",
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: piece(0, `{'city': 'Rome',`)},
				{f: piece(0, ` "days": 2,}`)},
			},
			final: []string{`0:get_weather {"city":"Rome","days":2}`},
		},
		{
			name: "a wrong type is a schema error",
			opts: &AccumulatorOptions{Parse: dialects.Options{Tools: tools}},
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: piece(0, `{"city":"Rome","days":"many"}`)},
				{f: head(1, "c1", "get_time")},
				{f: piece(1, `{"zone":"CET"}`)},
			},
			final: []string{`0!TLP-004`, `1:get_time {"zone":"CET"}`},
		},
		{
			name: "an unknown tool",
			opts: &AccumulatorOptions{Parse: dialects.Options{Tools: tools}},
			steps: []step{
				{f: whole(0, "c0", "get_wether_report", `{}`), done: []string{`0!TLP-005`}},
			},
		},
		{
			name: "repair off: broken arguments are invalid JSON",
			opts: &AccumulatorOptions{Parse: dialects.Options{DisableRepair: true}},
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: piece(0, `{"city":"Rome",`)},
			},
			final: []string{`0!TLP-002`},
		},
		{
			name: "arguments over the size limit fail that call only",
			opts: &AccumulatorOptions{Parse: dialects.Options{Lenient: lenient.Options{MaxSize: 24}}},
			steps: []step{
				{f: head(0, "c0", "get_weather")},
				{f: whole(1, "c1", "get_time", `{"zone":"CET"}`)},
				{f: piece(0, `{"city":"Rome",`)},
				{f: piece(0, `"days":12345678}`)},
				{f: piece(0, `}`)},
			},
			final: []string{`0!TLP-009`, `1:get_time {"zone":"CET"}`},
		},
		{
			name: "a name over the size limit",
			opts: &AccumulatorOptions{Parse: dialects.Options{Lenient: lenient.Options{MaxSize: 8}}},
			steps: []step{
				{f: head(0, "c0", "get_")},
				{f: Fragment{Index: 0, Name: "weather"}},
			},
			final: []string{`0!TLP-009`},
		},
		{
			name: "too many open calls: the first extra index is an error, later ones are dropped",
			opts: &AccumulatorOptions{MaxOpenCalls: 2},
			steps: []step{
				{f: head(0, "c0", "get_time")},
				{f: head(1, "c1", "get_time")},
				{f: head(2, "c2", "get_time"), err: toolcall.CodeStream},
				{f: piece(2, `{}`)},
				{f: last(0, `{}`), done: []string{`0:get_time {}`}},
				{f: head(3, "c3", "get_time")},
			},
			final: []string{`1:get_time {}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAccumulator(tt.opts)
			for i, s := range tt.steps {
				done, err := a.Add(s.f)
				if got := summaries(done); !reflect.DeepEqual(got, s.done) {
					t.Errorf("step %d: Add returned %q, want %q", i, got, s.done)
				}
				switch {
				case s.err == "" && err != nil:
					t.Errorf("step %d: unexpected error %v", i, err)
				case s.err != "" && err == nil:
					t.Errorf("step %d: no error, want %s", i, s.err)
				case s.err != "" && !errors.Is(err, &toolcall.Error{Code: s.err}):
					t.Errorf("step %d: error %v, want %s", i, err, s.err)
				}
				checkCompletions(t, done)
			}
			final := a.End()
			if got := summaries(final); !reflect.DeepEqual(got, tt.final) {
				t.Errorf("End returned %q\nwant %q", got, tt.final)
			}
			checkCompletions(t, final)
			if more := a.End(); more != nil {
				t.Errorf("a second End returned %q", summaries(more))
			}
			if _, err := a.Add(head(0, "", "x")); !errors.Is(err, toolcall.ErrStream) {
				t.Errorf("Add after End: err = %v, want TLP-008", err)
			}
		})
	}
}

// checkCompletions checks what every completion must satisfy: errors carry
// their index and never print argument values, calls carry their index.
func checkCompletions(t *testing.T, cs []Completion) {
	t.Helper()
	for _, c := range cs {
		if c.Err != nil {
			if coded.As(c.Err).CallIndex != c.Index {
				t.Errorf("completion %d: error call index %d", c.Index, coded.As(c.Err).CallIndex)
			}
			for _, value := range []string{"Rome", "many", "CET", "12345678"} {
				if strings.Contains(c.Err.Error(), value) {
					t.Errorf("completion %d: error %q prints an argument value", c.Index, c.Err)
				}
			}
			continue
		}
		if c.Call.Index != c.Index || c.Call.ID == "" {
			t.Errorf("completion %d: call index %d id %q", c.Index, c.Call.Index, c.Call.ID)
		}
	}
}

func TestAccumulatorCompletionDetails(t *testing.T) {
	a := NewAccumulator(nil)
	a.Add(head(0, "", "get_weather"))
	a.Add(piece(0, `{"city": "Rome",`))
	a.Add(head(1, "c1", "get_time"))
	a.Add(Fragment{Index: 1, ID: "c2"})
	res := a.Finish()
	if res.Dialect != NativeDialect || len(res.Calls) != 1 || len(res.Errors) != 1 {
		t.Fatalf("result = %+v", res)
	}
	c := res.Calls[0]
	if !strings.HasPrefix(c.ID, "call_") || c.Name != "get_weather" || string(c.Arguments) != `{"city":"Rome"}` || c.Index != 0 {
		t.Errorf("call = %+v; want a generated id and repaired arguments", c)
	}
	if len(res.Repairs) == 0 || res.Repairs[0].CallIndex != 0 {
		t.Errorf("repairs = %v, want the repair of call 0", res.Repairs)
	}
	e := res.Errors[0]
	if !errors.Is(e, toolcall.ErrStream) || e.CallIndex != 1 || e.CallID != "c1" || e.Tool != "get_time" {
		t.Errorf("error = %+v", e)
	}
	if !strings.Contains(e.Error(), "call 1") || !strings.Contains(e.Error(), "id") {
		t.Errorf("message %q does not say which call and what", e)
	}
}

func TestAccumulatorRaw(t *testing.T) {
	a := NewAccumulator(&AccumulatorOptions{Raw: true, Parse: dialects.Options{Lenient: lenient.Options{MaxSize: 10}}})
	done, _ := a.Add(Fragment{Index: 0, ID: "c0", Name: "f", Arguments: `{"a": 1,`, Whole: true})
	if len(done) != 1 {
		t.Fatalf("done = %v", summaries(done))
	}
	want := dialects.RawCall{ID: "c0", Name: "f", Arguments: `{"a": 1,`, Offset: -1}
	if c := done[0]; c.Err != nil || !reflect.DeepEqual(c.Raw, want) || c.Call.Name != "" || c.Repairs != nil {
		t.Errorf("completion = %+v; want the raw call, unfinished", c)
	}
	a.Add(head(1, "c1", "g"))
	a.Add(piece(1, `{"b":"0123456789"}`))
	final := a.End()
	if len(final) != 1 || final[0].Err == nil || coded.As(final[0].Err).Code != toolcall.CodeTooLarge || final[0].Raw.Err != final[0].Err {
		t.Errorf("final = %+v; want a TLP-009 error also set on Raw", final)
	}
	if res := Accumulate([]Fragment{whole(0, "c0", "f", `{}`)}, &AccumulatorOptions{Raw: true}); len(res.Calls) != 0 || len(res.Errors) != 0 {
		t.Errorf("Raw Accumulate = %+v; want no finished calls", res)
	}
}

func TestAccumulateCollectsEverything(t *testing.T) {
	res := Accumulate([]Fragment{
		whole(0, "c0", "get_time", `{}`),
		piece(0, `{}`), // after completion
		head(-3, "", "x"),
		head(2, "c2", "get_time"),
		piece(2, `{"zone":"UTC"}`),
	}, nil)
	var codes []string
	for _, e := range res.Errors {
		codes = append(codes, fmt.Sprintf("%d!%s", e.CallIndex, e.Code))
	}
	if want := []string{"0!TLP-008", "-1!TLP-008", "1!TLP-008"}; !reflect.DeepEqual(codes, want) {
		t.Errorf("errors = %v, want %v", codes, want)
	}
	if len(res.Calls) != 2 || res.Calls[0].Index != 0 || res.Calls[1].Index != 2 || string(res.Calls[1].Arguments) != `{"zone":"UTC"}` {
		t.Errorf("calls = %+v", res.Calls)
	}
}

// The same fragments in any interleaving that keeps each call's own order
// give the same calls, with or without completion flags on last pieces.
func TestAccumulatorInterleavingProperty(t *testing.T) {
	args := []string{
		`{"city": "Paris", "days": 3}`,
		`{"zone": "Europe/Paris"}`,
		`{"city": "Tōkyō 東京", "note": "a \"quoted\" word"}`,
		``,
		`{"city": "Lima",}`,
	}
	names := []string{"get_weather", "get_time", "get_weather", "get_time", "get_weather"}
	// sequences cuts each call into fragments: a header, then pieces of
	// varying size (a multi-byte character may be split: pieces are bytes).
	sequences := func(r *rand.Rand, flagLast bool) [][]Fragment {
		out := make([][]Fragment, len(args))
		for i, a := range args {
			seq := []Fragment{{Index: i, ID: fmt.Sprintf("c%d", i), Type: "function", Name: names[i][:3]},
				{Index: i, Name: names[i][3:]}}
			for rest := a; rest != ""; {
				n := min(len(rest), 1+r.IntN(6))
				seq = append(seq, piece(i, rest[:n]))
				rest = rest[n:]
			}
			if flagLast {
				seq[len(seq)-1].Complete = true
			}
			out[i] = seq
		}
		return out
	}
	calls := func(res *toolcall.Result) []string {
		var out []string
		for _, c := range res.Calls {
			out = append(out, fmt.Sprintf("%d %s %s %s", c.Index, c.ID, c.Name, c.Arguments))
		}
		for _, e := range res.Errors {
			out = append(out, e.Error())
		}
		return out
	}
	var inOrder []Fragment
	for _, seq := range sequences(rand.New(rand.NewPCG(1, 1)), false) {
		inOrder = append(inOrder, seq...)
	}
	want := calls(Accumulate(inOrder, nil))
	if len(want) != len(args) {
		t.Fatalf("baseline = %q", want)
	}
	r := rand.New(rand.NewPCG(7, 42))
	for trial := range 300 {
		seqs := sequences(r, trial%2 == 1)
		var mixed []Fragment
		for {
			var live []int
			for i, s := range seqs {
				if len(s) > 0 {
					live = append(live, i)
				}
			}
			if len(live) == 0 {
				break
			}
			i := live[r.IntN(len(live))]
			mixed = append(mixed, seqs[i][0])
			seqs[i] = seqs[i][1:]
		}
		if got := calls(Accumulate(mixed, nil)); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: calls = %q\nwant %q", trial, got, want)
		}
	}
}

// Arguments pieces are appended, never re-joined: feeding a large argument
// one byte at a time allocates a number of times logarithmic in its size.
func TestAccumulatorAppendIsAmortised(t *testing.T) {
	const size = 64 << 10
	allocs := testing.AllocsPerRun(5, func() {
		a := NewAccumulator(&AccumulatorOptions{Raw: true})
		a.Add(head(0, "c0", "write_file"))
		for range size {
			a.Add(piece(0, "x"))
		}
		if done := a.End(); len(done) != 1 || len(done[0].Raw.Arguments) != size {
			t.Fatal("lost arguments")
		}
	})
	if allocs > 100 {
		t.Errorf("%v allocations for %d one-byte pieces; appending is not amortised", allocs, size)
	}
}
