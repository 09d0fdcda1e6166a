package markers_test

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markers"
	"github.com/dialectkit/toolcall/internal/streamtest"
)

// TestReaderSendsEarly feeds outputs in small deltas and checks when the
// Reader sends what it reads: answer text before the first marker as it
// arrives (its trailing whitespace held), and the first of two calls
// before the second call's name is written.
func TestReaderSendsEarly(t *testing.T) {
	two := func(first, second string) (string, string) { return first + second, second }
	rows := []struct {
		name    string
		d       *markers.Dialect
		text    string
		second  string // the text of the second call's name: the first call goes out before it ends
		content string // answer text sent before the first marker
	}{}
	add := func(name string, d *markers.Dialect, lead, first, second, secondName, tail string) {
		text, _ := two(lead+first, second+tail)
		rows = append(rows, struct {
			name    string
			d       *markers.Dialect
			text    string
			second  string
			content string
		}{name, d, text, secondName, strings.TrimSpace(lead)})
	}
	args := `{"city": "Paris"}`
	add("deepseek_v31", markers.DeepSeekV31, "Checking both. ", dsCalls+dsV31("get_weather", args), dsV31("get_time", args), "get_time", dsCallsEnd)
	add("deepseek_v3", markers.DeepSeekV3, "Checking both.\n", dsCalls+dsV3("get_weather", args), dsV3("get_time", args), "get_time", dsCallsEnd)
	add("kimi_k2", markers.KimiK2, "Checking both. ", kimiSection+kimi("functions.get_weather:0", args), kimi("functions.get_time:1", args), "get_time", kimiSectionEnd)
	add("mistral", markers.Mistral, "Checking both. ", "[TOOL_CALLS]get_weather[ARGS]"+args, "[TOOL_CALLS]get_time[ARGS]"+args, "get_time", "")
	add("functionary_v3_1", markers.FunctionaryV31, "Checking both. ", "<function=get_weather>"+args+"</function>", "<function=get_time>"+args+"</function>", "get_time", "")
	add("internlm2", markers.InternLM2, "Checking both. ", "<|action_start|><|plugin|>"+`{"name": "get_weather", "parameters": `+args+"}<|action_end|>",
		"<|action_start|><|plugin|>"+`{"name": "get_time", "parameters": `+args+"}<|action_end|>", `"get_time"`, "")
	// Bare JSON: a run of values that opens the output is read value by
	// value, each once the next has begun.
	l3 := func(name string) string { return `{"name": "` + name + `", "parameters": ` + args + `}` }
	add("llama3_json", markers.Llama3JSON, "", l3("get_weather")+"; ", l3("get_time"), `"get_time"`, "")
	add("llama3_json/lines", markers.Llama3JSON, "", l3("get_weather")+"\n", l3("get_time"), `"get_time"`, "")
	env := func(key, name string) string {
		return `{"` + key + `": {"name": "` + name + `", "arguments": ` + args + `}}`
	}
	add("generic_json", markers.GenericJSON, "", env("tool_call", "get_weather")+"\n", env("tool_call", "get_time"), `"get_time"`, "")
	add("gemini", markers.Gemini, "", env("function_call", "get_weather")+", ", env("function_call", "get_time"), `"get_time"`, "")
	add("granite", markers.Granite, "", l3("get_weather")+";\n", l3("get_time"), `"get_time"`, "")
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			opts := &dialects.Options{ReasoningClosed: true}
			want := r.d.Extract(r.text, opts)
			if len(want.Calls) != 2 || want.Calls[0].Err != nil || want.Calls[1].Err != nil {
				t.Fatalf("the text reads as %+v", want.Calls)
			}
			nameEnd := strings.LastIndex(r.text, r.second) + len(r.second)
			rd := r.d.NewReader(opts)
			var content, early string
			firstAt := -1
			for at := 0; at < len(r.text); at += 4 {
				end := min(at+4, len(r.text))
				for _, p := range rd.Write(r.text[at:end]) {
					switch {
					case p.Kind == dialects.PieceContent:
						content += p.Text
					case p.Kind == dialects.PieceCall && p.Index == 0:
						firstAt = end
					}
				}
				if end <= len(r.content)+4 {
					early = content
				}
			}
			rd.Close()
			if early != r.content || content != r.content {
				t.Errorf("answer text sent as it came %q, before Close %q, want %q", early, content, r.content)
			}
			if firstAt < 0 || firstAt >= nameEnd {
				t.Errorf("the first call went out after %d bytes; the second call's name ends at %d", firstAt, nameEnd)
			}
		})
	}
}

// TestBareRun holds the reading of a run of bare values that opens the
// output (each value decided by its own region, sent once the next has
// begun) to what the whole output reads, and the Reader to its contract
// however the output is cut: a value that fails or that the text after it
// may place waits for Close, and nothing later (a marker, a reasoning
// block, prose, a value that is no call) takes back a value sent.
func TestBareRun(t *testing.T) {
	a := `{"name": "get_weather", "parameters": {"city": "Paris"}}`
	b := `{"name": "get_time", "parameters": {"tz": "CET"}}`
	undeclared := `{"name": "launch", "parameters": {}}`
	tools := toolSet(t, []string{"get_weather", "get_time"})
	rows := []struct {
		name    string
		d       *markers.Dialect
		text    string
		tools   bool
		calls   []string // the names read, in order
		content string
	}{
		{"two", markers.Llama3JSON, a + "; " + b, false, []string{"get_weather", "get_time"}, ""},
		{"lines", markers.Llama3JSON, a + "\n" + b + "\n", true, []string{"get_weather", "get_time"}, ""},
		{"no separator on a line", markers.Llama3JSON, a + " " + b, false, []string{"get_weather", "get_time"}, ""},
		{"prose after the run", markers.Llama3JSON, a + "; " + b + "\nDone.", false, []string{"get_weather", "get_time"}, "Done."},
		{"prose on the last value's line", markers.Llama3JSON, a + "; " + b + " and more", true, []string{"get_weather", "get_time"}, "and more"},
		{"marker on the next line", markers.Llama3JSON, a + "\n<|python_tag|>" + b, false, []string{"get_weather", "get_time"}, ""},
		{"fence on the next line", markers.Llama3JSON, a + "\n```json\n" + b + "\n```", true, []string{"get_weather", "get_time"}, ""},
		{"marker after the run", markers.Llama3JSON, a + "; " + b + "\n<|python_tag|>" + a, false, []string{"get_weather", "get_time", "get_weather"}, ""},
		{"marker inside a value", markers.Llama3JSON, `{"name": "get_weather", "parameters": {"city": "<|python_tag|>"}}; ` + b, false, []string{"get_weather", "get_time"}, ""},
		{"reasoning after the run", markers.Granite, a + "; " + b + "\n<think>done</think> Sent.", false, []string{"get_weather", "get_time"}, "Sent."},
		{"undeclared second", markers.Llama3JSON, a + "; " + undeclared + "\nok", true, []string{"get_weather"}, "; " + undeclared + "\nok"},
		{"undeclared alone", markers.Llama3JSON, undeclared + "; " + a, true, []string{"launch", "get_weather"}, ""},
		{"not a call second", markers.Llama3JSON, a + "; " + `{"city": "Paris"}` + "\nok", false, []string{"get_weather"}, `; {"city": "Paris"}` + "\nok"},
		{"closers too many", markers.Llama3JSON, a + "; " + b + "}", false, []string{"get_weather", "get_time"}, ""},
		{"content value", markers.GenericJSON, `{"tool_call": {"name": "get_weather", "arguments": {}}}; {"response": "hi"}}`, false, []string{"get_weather"}, "hi"},
		{"cut", markers.Gemini, `{"function_call": {"name": "get_weather", "args": {}}}, {"function_call": {"name": "get_ti`, false, []string{"get_weather"}, `, {"function_call": {"name": "get_ti`},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			opts := &dialects.Options{}
			if r.tools {
				opts.Tools = tools
			}
			x := r.d.Extract(r.text, opts)
			var names []string
			for _, c := range x.Calls {
				names = append(names, c.Name)
			}
			if strings.Join(names, ",") != strings.Join(r.calls, ",") || x.Content != r.content {
				t.Errorf("read %q, content %q; want %q, content %q", names, x.Content, r.calls, r.content)
			}
			for i, c := range x.Calls {
				if c.Offset < 0 && c.Err == nil {
					t.Errorf("call %d has no offset", i)
				}
			}
			checkReader(t, r.d, r.text, opts)
		})
	}
}

// TestBareRunReadOnce streams a long run of bare values byte by byte and
// checks that each value is read about once (the readings cost a small
// multiple of the output's length, not its square) and each call goes out
// before Close.
func TestBareRunReadOnce(t *testing.T) {
	for _, sep := range []string{"; ", "\n", ",\n"} {
		var b strings.Builder
		const n = 200
		for i := range n {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(`{"name": "get_weather", "parameters": {"city": "Paris", "day": ` + strings.Repeat("1", i%7+1) + `}}`)
		}
		text := b.String()
		r := markers.Llama3JSON.NewReader(&dialects.Options{})
		early := 0
		for i := range len(text) {
			for _, p := range r.Write(text[i : i+1]) {
				if p.Kind == dialects.PieceCall {
					early++
				}
			}
		}
		cost := markers.ReadCost(r)
		late := 0
		for _, p := range r.Close() {
			if p.Kind == dialects.PieceCall {
				late++
			}
		}
		if early != n-1 || late != 1 {
			t.Errorf("sep %q: %d calls before Close, %d at Close; want %d and 1", sep, early, late, n-1)
		}
		if cost > 3*len(text) {
			t.Errorf("sep %q: the readings read %d bytes of a %d-byte output", sep, cost, len(text))
		}
	}
}

// TestListReadOnce streams long lists of calls, and values repeated after
// their marker, byte by byte: each element is read about once (the
// readings cost a small multiple of the output's length) and each call
// but the last goes out before Close.
func TestListReadOnce(t *testing.T) {
	const n = 120
	elem := func(i int) string {
		return `{"name": "get_weather", "arguments": {"city": "Paris", "day": ` + strings.Repeat("1", i%7+1) + `}}`
	}
	list := func(open, sep, close string, e func(int) string) string {
		var b strings.Builder
		b.WriteString(open)
		for i := range n {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(e(i))
		}
		b.WriteString(close)
		return b.String()
	}
	apertus := func(i int) string { return `{"get_weather": {"day": ` + strings.Repeat("2", i%5+1) + `}}` }
	rows := []struct {
		name string
		d    *markers.Dialect
		text string
	}{
		{"granite", markers.Granite, list("<|tool_call|>[", ", ", "]", elem)},
		{"apertus", markers.Apertus, list("<|tools_prefix|>[", ",\n", "]<|tools_suffix|>", apertus)},
		{"mistral list", markers.Mistral, list("[TOOL_CALLS][", ", ", "]", elem)},
		{"granite_20b_fc", markers.Granite20bFC, list("<function_call> ", "\n<function_call> ", "", elem)},
		{"llama3_json tagged", markers.Llama3JSON, list("<|python_tag|>", "; ", "", func(i int) string {
			return `{"name": "get_weather", "parameters": {"day": ` + strings.Repeat("3", i%4+1) + `}}`
		})},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			want := r.d.Extract(r.text, nil)
			if len(want.Calls) != n {
				t.Fatalf("the text reads as %d calls", len(want.Calls))
			}
			rd := r.d.NewReader(&dialects.Options{})
			early := 0
			for i := range len(r.text) {
				for _, p := range rd.Write(r.text[i : i+1]) {
					if p.Kind == dialects.PieceCall {
						early++
					}
				}
			}
			cost := markers.ReadCost(rd)
			rd.Close()
			if early < n-1 {
				t.Errorf("%d calls before Close, want at least %d", early, n-1)
			}
			if cost > 3*len(r.text) {
				t.Errorf("the readings read %d bytes of a %d-byte output", cost, len(r.text))
			}
		})
	}
}

// TestListElements holds the reading of a list of calls element by
// element to its contract: each call is read from its own element, so an
// element that fails (broken, too deep, not an object, a string that runs
// over the closing marker, a cut) fails alone, and the Reader agrees with
// the whole output however it is cut.
func TestListElements(t *testing.T) {
	a := `{"name": "get_weather", "arguments": {"city": "Paris"}}`
	b := `{"name": "get_time", "arguments": {"tz": "CET"}}`
	deep := `{"name": "f", "arguments": {"a": ` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}}`
	rows := []struct {
		name  string
		d     *markers.Dialect
		text  string
		names []string // the calls read, then "!" for each failed one
	}{
		{"three", markers.Granite, "<|tool_call|>[" + a + ", " + b + ", " + a + "]", []string{"get_weather", "get_time", "get_weather"}},
		{"no tool in the middle", markers.Granite, "<|tool_call|>[" + a + ", " + `{"city": "Paris"}` + ", " + a + "]", []string{"get_weather", "get_weather", "!"}},
		{"too deep", markers.Granite, "<|tool_call|>[" + a + ", " + deep + ", " + b + "]", []string{"get_weather", "get_time", "!"}},
		{"not an object", markers.Apertus, `<|tools_prefix|>[{"get_weather": {}}, 3, {"get_time": {}}]<|tools_suffix|>`, []string{"get_weather", "!"}},
		{"swallowed", markers.Apertus, `<|tools_prefix|>[{"get_weather": {}}, {"get_time": {"tz": "C<|tools_suffix|>`, []string{"get_weather", "!"}},
		{"cut", markers.Cohere, `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {}}, {"tool_call_id": "1", "tool_name": "get_ti`, []string{"get_weather", "!"}},
		{"closers too many", markers.Mistral, "[TOOL_CALLS][" + a + ", " + b + "]]", []string{"get_weather", "get_time"}},
		{"values then marker", markers.Granite20bFC, "<function_call> " + a + "\n<function_call> " + b + "</function_call> done", []string{"get_weather", "get_time"}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			res := dialects.Parse(r.d, r.text, nil)
			var got []string
			for _, c := range res.Calls {
				got = append(got, c.Name)
			}
			for range res.Errors {
				got = append(got, "!")
			}
			if strings.Join(got, ",") != strings.Join(r.names, ",") {
				t.Errorf("read %q, want %q (errors %v)", got, r.names, res.Errors)
			}
			checkReader(t, r.d, r.text, &dialects.Options{})
		})
	}
}

// TestReasoningStreams feeds outputs that open in a reasoning block the
// template opened (Options.ReasoningOpen) one byte at a time, up to a
// point, and checks the reasoning and content returned by then: the
// reasoning goes out as it arrives, as in the gemma and hermes families,
// and only what a later byte may still change waits (a partial closing
// tag, trailing blanks, a call drafted in it, the text after its
// closing tag).
func TestReasoningStreams(t *testing.T) {
	open := &dialects.Options{ReasoningOpen: true}
	args := `{"city": "Paris"}`
	rows := []struct {
		name              string
		d                 *markers.Dialect
		opts              *dialects.Options
		prefix, rest      string // what has arrived, and the rest of the output
		reasoning, answer string // what went out by the end of prefix
	}{
		{"mistral: the block streams", markers.Mistral, open,
			"I need the weather in Paris.\nLet me", " check.[/THINK][TOOL_CALLS]get_weather[ARGS]" + args,
			"I need the weather in Paris.\nLet me", ""},
		{"mistral: a partial closing tag is held", markers.Mistral, open,
			"Let me check.[/TH", "INK]Sure.", "Let me check.", ""},
		{"mistral: trailing blanks are held", markers.Mistral, open,
			"  Let me check. \n", "[/THINK]Sure.", "Let me check.", ""},
		{"mistral: a call drafted in it is held, the reasoning before it is not", markers.Mistral, open,
			"Maybe [TOOL_CALLS]f[ARGS]{} or", " not.[/THINK]No call.", "Maybe", ""},
		{"mistral: the answer after the block waits for Close", markers.Mistral, open,
			"Plan.[/THINK]The answer", " is 4.", "Plan.", ""},
		{"mistral: a framing token is taken out", markers.Mistral, open,
			"Plan</s> more", " of it.[/THINK]Done.", "Plan more", ""},
		{"deepseek_v3: the block streams", markers.DeepSeekV3, open,
			"The user wants the weather", ".</think>\n\n" + dsCalls + dsV3("get_weather", args) + dsCallsEnd,
			"The user wants the weather", ""},
		{"deepseek_v31: the block streams", markers.DeepSeekV31, open,
			"The user wants ", "the weather.</think>" + dsCalls + dsV31("get_weather", args) + dsCallsEnd,
			"The user wants", ""},
		{"deepseek_v31: a block never closed streams, up to its call", markers.DeepSeekV31, open,
			"planning the call" + dsCalls + dsCall + "f", dsSep + "{}" + dsCallEnd + dsCallsEnd,
			"planning the call", ""},
		{"kimi_k2: the block streams", markers.KimiK2, open,
			"Let me look", ".</think>" + kimiSection + kimi("functions.get_weather:0", args) + kimiSectionEnd,
			"Let me look", ""},
		{"cohere: the block streams", markers.Cohere, open,
			"I need the weather.", "<|END_THINKING|>Action: <|START_ACTION|>[]<|END_ACTION|>",
			"I need the weather.", ""},
		{"minimax_m1: the block streams", markers.MiniMaxM1, open,
			"Checking", ".</think><tool_calls>[]</tool_calls>", "Checking", ""},
		{"llama3_json: the block streams, bare JSON in it too", markers.Llama3JSON, open,
			"First the weather.\nThen {\"name\"", `: "f", "parameters": {}}</think>Done.`, "First the weather.\nThen", ""},
		{"without the option, nothing is sent before a tag settles it", markers.Mistral, &dialects.Options{},
			"Let me check", ".[/THINK]Sure.", "", ""},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			if err := streamtest.CheckReader(tt.d, tt.prefix+tt.rest, tt.opts); err != nil {
				t.Fatal(err)
			}
			whole := tt.d.Extract(tt.prefix+tt.rest, tt.opts)
			if tt.reasoning != "" && !strings.HasPrefix(whole.Reasoning, tt.reasoning) {
				t.Fatalf("one-shot reasoning %q does not begin with %q", whole.Reasoning, tt.reasoning)
			}
			r := tt.d.NewReader(tt.opts)
			reasoning, answer, _ := streamtest.SentSoFar(r, tt.prefix)
			if reasoning != tt.reasoning || answer != tt.answer {
				t.Errorf("after %q: reasoning %q, content %q; want %q, %q", tt.prefix, reasoning, answer, tt.reasoning, tt.answer)
			}
		})
	}
}

// TestCallAfterProseReadOnce streams prose and one marked call in 16-byte
// deltas, in dialects whose output may also open with bare values, and
// checks that the call is read once, at Close: the marker, with no region
// before it that it could end, starts no reading of its own.
func TestCallAfterProseReadOnce(t *testing.T) {
	const lead = "Let me check the weather for you.\n"
	for _, tt := range []struct {
		d    *markers.Dialect
		call string
	}{
		{markers.Granite, `<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Tokyo", "unit": "celsius"}}]`},
		{markers.Llama3JSON, `<|python_tag|>{"name": "get_weather", "parameters": {"city": "Tokyo", "unit": "celsius"}}`},
	} {
		t.Run(tt.d.Name(), func(t *testing.T) {
			text := lead + tt.call
			r := tt.d.NewReader(&dialects.Options{ReasoningClosed: true})
			for i := 0; i < len(text); i += 16 {
				r.Write(text[i:min(i+16, len(text))])
			}
			if cost := markers.ReadCost(r); cost != 0 {
				t.Errorf("before Close, the readings read %d bytes", cost)
			}
			calls := 0
			for _, p := range r.Close() {
				if p.Kind == dialects.PieceCall && p.Call.Err == nil {
					calls++
				}
			}
			if cost := markers.ReadCost(r); calls != 1 || cost > len(text) {
				t.Errorf("%d calls at Close, the readings read %d bytes of %d", calls, cost, len(text))
			}
		})
	}
}
