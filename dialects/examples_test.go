package dialects

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/internal/longtest"
)

func TestShownSpans(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"The syntax is `<tool_call>x</tool_call>`.", []string{"`<tool_call>x</tool_call>`"}},
		{"Run `a\nb` now", []string{"`a\nb`"}},
		{"Run `a\n\nb` now", nil},                 // a blank line ends the paragraph
		{`{"cmd": "echo ` + "`date`" + `"}`, nil}, // inside a word or string
		{"For example:\n```\nx\n```\nok", []string{"```\nx\n```"}},
		{"Here it is:\n```\nx\n```", nil},
		{"```\nx\n```", nil},
		{"The format:\n```\nx", []string{"```\nx"}},
		// Prose right after a closed fence that disowns it: a mention.
		{"Here it is:\n```\nx\n```\nbut I won't call it.", []string{"```\nx\n```"}},
		{"```\nx\n```\n\nI’m not going to run this.", []string{"```\nx\n```"}},
		{"Here it is:\n```\nx\n```\nI will not execute that", []string{"```\nx\n```"}},
		// Prose after a fence that does not disown it: still a call.
		{"Here it is:\n```\nx\n```\nLet me know if you need anything else.", nil},
		{"```\nx\n```\nIf it does not work, run it again.", nil},
		{"```\nx\n```\nNothing to run yet.", nil},
		{"```\nx\n```", nil},
		{"Here it is:\n```\nx\nbut I won't call it.", nil}, // the fence is not closed: no line after it
		// Inline code that holds a fence line (DeepSeek V3's arguments in
		// backticks): the paragraph goes on through the fence.
		{"Write `f\n```json\n{}\n```g` here.", []string{"`f\n```json\n{}\n```g`"}},
		{"Write `f\n```json\n{}\n```\ng` here.", []string{"`f\n```json\n{}\n```\ng`"}},
		{"Write `a` b\n```json\n{}\n```", []string{"`a`"}}, // closed before the fence
		{"Write `f\n```json\n\n{}\n```g` here.", nil},      // a blank line ends the paragraph
		{"Write `f\n```json\n{}\n```g` and `h`.", []string{"`f\n```json\n{}\n```g`", "`h`"}},
		{"Write `f\n```\nx\n```g`, then `h\n```\ny\n```i` ok", []string{"`f\n```\nx\n```g`", "`h\n```\ny\n```i`"}},
		// A call quoted inside a sentence.
		{`Write "<tool_call>{"a": ["x", 1]}</tool_call>" to call f.`, []string{`"<tool_call>{"a": ["x", 1]}</tool_call>"`}},
		{"It answers \u201C[T]f{}\u201D here.", []string{"\u201C[T]f{}\u201D"}},
		{"Say \u2018[f(a='don\u2019t')]\u2019, then stop.", []string{"\u2018[f(a='don\u2019t')]\u2019"}},
		{`I would write "<t>".`, []string{`"<t>"`}},
		{`Write "<t>"`, []string{`"<t>"`}}, // the end of the line ends the sentence
		{"Write \"<t>\"  \nNext", []string{`"<t>"`}},
		{`Write "<t>"x`, nil},                    // a word right after it: no quotation's end
		{`"<t>" is the tag`, nil},                // no word before it
		{`Write "Paris" now <t>`, nil},           // no call syntax inside
		{`{"a": "<t>" b}`, nil},                  // a string of JSON opens no quotation
		{`<p k="It's "x"<c>a k="n" t="s">`, nil}, // a quoted phrase in a value closes before the syntax goes on
		{`Write "<t>` + "\n" + `x" to`, nil},     // a quotation ends with its line
		// A tight quotation (a call's syntax right inside the quote) spans lines.
		{"Write \"<t>\n{\"a\": 1}\n</t>\" to call f.", []string{"\"<t>\n{\"a\": 1}\n</t>\""}},
		{"Write \u201C<t>\nx</t>\u201D here.", []string{"\u201C<t>\nx</t>\u201D"}},
		{"Write \"<t>\n\n</t>\" to call f.", nil},     // a blank line ends it
		{"Write \"<t>\nI said \"hi\" to you", nil},    // a later quote not after the call's end abandons it
		{"Write \"Paris\n<t>x</t>\" to call f.", nil}, // not tight: it ends with its line
		{"I look up \"<t>\n<t>{\"q\": 1}</t>\nThat was \"f\" for you.", nil},
		// ASCII single quotes: only around a call's syntax.
		{`Write '<t>{"a": "it's"}</t>' to call f.`, []string{`'<t>{"a": "it's"}</t>'`}},
		{`Say '[f(a='x', b="y")]', then stop.`, []string{`'[f(a='x', b="y")]'`}},
		{`Say '[f(a=1)]'`, []string{`'[f(a=1)]'`}},
		{`It's the users' <t>{"a": 1}</t> now`, nil}, // apostrophes open nothing
		{`I'd say 'hello' <t>{"a": 1}</t> now`, nil}, // not tight
		{`Say '<t>x</t> it's' now`, nil},             // closes only after the call's end
		{"Write '<t>\n{}\n</t>' now.", []string{"'<t>\n{}\n</t>'"}},
	} {
		var got []string
		for _, sp := range Shown(tc.text) {
			got = append(got, tc.text[sp.Start:sp.End])
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Shown(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// Shown reads a paragraph of unclosed backticks in linear time, and a
// ShownScan reads each line once however many markers it is asked about.
func TestShownLinear(t *testing.T) {
	measure := func(n int) time.Duration {
		text := strings.Repeat(" `a", n)
		start := time.Now()
		Shown(text)
		var s ShownScan
		for at := 0; at < len(text); at += 3 {
			s.MayBeShown(text, at)
		}
		lines := strings.Repeat("x `y` <tool_call>\n", n/6)
		var s2 ShownScan
		for at := 2; at < len(lines); at += 18 {
			s2.MayBeShown(lines, at)
		}
		// Quotations that may span lines and never close, apostrophes.
		quotes := strings.Repeat("say \"<t>\n{x 'it's' '<b>\n", n/6)
		Shown(quotes)
		var s3 ShownScan
		for at := 5; at < len(quotes); at += 26 {
			s3.MayBeShown(quotes, at)
		}
		return time.Since(start)
	}
	// Sixteen times the input: linear work takes about 16 times as long,
	// quadratic 256 times; the bound of 64 leaves a loaded machine room.
	// A timing, so a long suite (DIALECTKIT_LONG=1), not the quick run.
	longtest.Skip(t)
	small, large := measure(10000), measure(160000)
	if large > 64*small+50*time.Millisecond {
		t.Errorf("16x the input took %v against %v: not linear", large, small)
	}
	// Fences in a paragraph with inline code open: crossing the fences,
	// and not (acrossFence).
	fences := func(n int) time.Duration {
		start := time.Now()
		Shown(strings.Repeat("a `f\n```\nx\n```g` b\n", n))
		Shown(strings.Repeat("a `f\n```\nx\n```\n", n))
		Shown(strings.Repeat("a `f\n```\n", n))
		return time.Since(start)
	}
	small, large = fences(4000), fences(64000)
	if large > 64*small+50*time.Millisecond {
		t.Errorf("fences: 16x the input took %v against %v: not linear", large, small)
	}
}

// A ShownScan asked about growing positions answers as a fresh reading of
// the whole text does, and a marker that Shown lists in a part is may be
// shown on every prefix: the scan pairs backtick runs as Shown does.
func TestShownScanAgrees(t *testing.T) {
	const call = `<tool_call>{"name":"f","arguments":{}}</tool_call>`
	r := rand.New(rand.NewPCG(3, 4))
	for _, text := range []string{
		// A run glued after a word opens no code: the next run opens it.
		"a` ``x " + call + "`` and more",
		"a` `x " + call + "` and more",
		"a`` `x " + call + "` and more",
		"a`` b` c`` `x " + call + "` and more",
		// A run of three that is no fence opens nothing.
		"a ```b` `x " + call + "` and more",
		"a ```b`` ``x " + call + "`` and more",
		// A run that no blank or punctuation follows closes nothing.
		"a `b`c d` `y " + call + "` and more",
		"a ``b``c d`` ``y " + call + "`` and more",
		// Runs of one and two backticks nested, and a run with no closer.
		"a ` `` ` `x " + call + "` and more",
		"a `` ` `` `x " + call + "` and more",
		"a `b `c " + call + "` and more",
		// Code closes within its paragraph only.
		"a `b\n\nc` `x " + call + "` and more",
		"a ``b\n\nc`` ``x " + call + "`` and more",
	} {
		checkShownScan(t, text, r)
	}
	pieces := []string{"`", "``", "```", "\n", "\n\n", "For example:\n", "x ", "<tool_call>", " `y` ", "```json\n",
		" \"", "\" ", "{\"", "\u201C", "\u201D ", "]", "[", "x", " '", "' ", "'", ">", " \"<", " '<",
		"a`", "a``", "b", " ", "`c"}
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(14) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		if !checkShownScan(t, b.String(), r) {
			return
		}
	}
}

// checkShownScan checks text as TestShownScanAgrees says, and reports
// whether it held.
func checkShownScan(t *testing.T, text string, r *rand.Rand) bool {
	t.Helper()
	var s ShownScan
	for at := 0; at <= len(text); at += 1 + r.IntN(6) {
		fresh := func() bool { var f ShownScan; return f.MayBeShown(text, at) }()
		if got := s.MayBeShown(text, at); got != fresh {
			t.Errorf("MayBeShown(%q, %d): incremental %v, fresh %v", text, at, got, fresh)
			return false
		}
	}
	// A marker inside a part Shown lists may be shown, on every prefix.
	for _, sp := range Shown(text) {
		for at := sp.Start + 1; at < sp.End; at++ {
			if text[at] == '<' && !MayBeShown(text[:at+1], at) {
				t.Errorf("MayBeShown(%q, %d) = false inside %q", text[:at+1], at, text[sp.Start:sp.End])
				return false
			}
		}
	}
	return true
}

// Backticks inside a call open no inline code (inCall), a call that
// starts inside code is the code's, as if it were not a call, and a
// ShownScan told of the calls as they end answers as a fresh reading.
func TestShownLeavesCallsOut(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"<c>use `ls</c>\n<c>p` here</c>", nil},
		{"Run `ls`.\n<c>use `ls</c> and `pwd` then", []string{"`ls`", "`pwd`"}},
		{"Write `<c>a `b</c>` to call", []string{"`<c>a `b</c>`"}},
		{"Write `<c>x` y</c>` to call", []string{"`<c>x`"}},
	} {
		var calls []Span
		for i := 0; ; {
			s := strings.Index(tc.text[i:], "<c>")
			if s < 0 {
				break
			}
			e := strings.Index(tc.text[i+s:], "</c>")
			calls = append(calls, Span{i + s, i + s + e + 4})
			i += s + e + 4
		}
		var got []string
		for _, sp := range code(tc.text, calls) {
			got = append(got, tc.text[sp.Start:sp.End])
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("code(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}

	pieces := []string{"`", "``", "\n", "\n\n", "x ", " `y` ", "<m>", " <m>", "```json\n", "```\n", " `b"}
	inner := []string{"`", "``", "a", " ", "\n", "x` ", " `y"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		var b strings.Builder
		var calls []Span
		for range 1 + r.IntN(12) {
			if r.IntN(3) == 0 {
				start := b.Len()
				b.WriteString("<c>")
				for range r.IntN(4) {
					b.WriteString(inner[r.IntN(len(inner))])
				}
				b.WriteString("</c>")
				calls = append(calls, Span{start, b.Len()})
				continue
			}
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		spans := code(text, calls)
		// The calls a stream enters: those that start in no listed part.
		var real []Span
		for _, c := range calls {
			in := false
			for _, sp := range spans {
				in = in || sp.Start < c.Start && c.Start < sp.End
			}
			if !in {
				real = append(real, c)
			}
		}
		if again := code(text, real); !equalSpans(again, spans) {
			t.Fatalf("code(%q): %v with every call, %v with the calls a stream enters", text, spans, again)
		}
		// Told of the calls as they end, a scan answers as a fresh one
		// told of the same calls; as a stream, it is asked about no
		// point inside a call.
		var s ShownScan
		k := 0
		for at := 0; at <= len(text); at += 1 + r.IntN(5) {
			if k < len(real) && real[k].Start < at && at < real[k].End {
				continue
			}
			for k < len(real) && real[k].End <= at {
				s.Call(real[k].Start, real[k].End)
				k++
			}
			var f ShownScan
			for _, c := range real[:k] {
				f.Call(c.Start, c.End)
			}
			if got, want := s.MayBeShown(text, at), f.MayBeShown(text, at); got != want {
				t.Fatalf("MayBeShown(%q, %d) with calls %v: incremental %v, fresh %v", text, at, real[:k], got, want)
			}
		}
	}
}

func equalSpans(a, b []Span) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestShownAtIgnoresLaterText: ShownAt decides by what precedes the
// marker, so the answer for a marker is the same whatever part of the
// text after it has arrived; a stream cut right after a marker and the
// whole text read the marker alike. A fence opened on the marker's own
// line is read no further than the marker (its label, and a backtick
// after the marker, are not read). The listed texts, then texts built at
// random (seeded) from the pieces fences, inline code and quotations are
// made of.
func TestShownAtIgnoresLaterText(t *testing.T) {
	const marker = "<tool_call>"
	texts := []string{
		"```Example: " + marker + "`",
		"```" + marker + `{"name": "f", "arguments": {}}</tool_call>` + "\n```",
		"```" + marker + "x` more",
		"Here:\n```" + marker + "{}</tool_call> and `code`\n```",
		"```json " + marker + "{}</tool_call>\n```",
		"A `run " + marker + "{}</tool_call> closed` later.",
		"> " + marker + "{}</tool_call>",
	}
	parts := []string{"```", "`", "json", "python", " ", "\n", "x", marker, "{}", "</tool_call>", "Example:", "~~~", `"`, ">"}
	rng := rand.New(rand.NewPCG(1, 1))
	for len(texts) < 20000 {
		var b strings.Builder
		for range 2 + rng.IntN(7) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		if strings.Contains(b.String(), marker) {
			texts = append(texts, b.String())
		}
	}
	for _, text := range texts {
		at := strings.Index(text, marker)
		var whole ShownScan
		want := whole.ShownAt(text, at)
		for k := at + 1; k <= len(text); k++ {
			var s ShownScan
			if got := s.ShownAt(text[:k], at); got != want {
				t.Errorf("%q: ShownAt with %d bytes = %v, with the whole text %v", text, k, got, want)
				break
			}
		}
	}
}

// TestShownAtCallLinesOpenNoFence: a line that starts inside a call
// region the scan was told of (a DeepSeek call's argument fence) is the
// call's own text and opens no fence, so inline code after the call is
// read as prose's and shows the next marker; a fence opened before a call
// is told still closes in it.
func TestShownAtCallLinesOpenNoFence(t *testing.T) {
	const call = "<c>f\n```json\n{}\n```</c>"
	for _, tc := range []struct {
		text  string
		calls int // the calls told: the first that many <c>…</c> regions
		want  bool
	}{
		{call + "\nThe syntax is `<c>g`.", 1, true},
		{call + "\nThen <c>g", 1, false},
		{"```\n" + call + "\n```\nThe syntax is `<c>g`.", 1, true},
		{"```\n" + call + "\n```\nThen <c>g", 1, false},
		{call + "\nThe syntax is `<c>g`.", 0, false}, // not told: the fence runs on
	} {
		var s ShownScan
		from := 0
		for k := 0; k < tc.calls; k++ {
			st := from + strings.Index(tc.text[from:], "<c>")
			en := st + strings.Index(tc.text[st:], "</c>") + len("</c>")
			s.ShownAt(tc.text, st)
			s.Call(st, en)
			from = en
		}
		at := strings.LastIndex(tc.text, "<c>g")
		if got := s.ShownAt(tc.text, at); got != tc.want {
			t.Errorf("%q with %d calls told: ShownAt(%d) = %v, want %v", tc.text, tc.calls, at, got, tc.want)
		}
	}
}
