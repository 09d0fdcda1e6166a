package shown

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// TestShownAt: a marker (at the "^" of each text) is shown by what
// precedes it: inline code of its paragraph opened and not closed before
// it, a quotation opened before it in a sentence, or a fence opened before
// it that is labelled with a programming language or that the prose
// before it presents as an example. What follows it has no say.
func TestShownAt(t *testing.T) {
	for _, tc := range []struct {
		text  string
		shown bool
	}{
		// Inline code.
		{"The syntax is `^<tool_call>x</tool_call>`.", true},
		{"The syntax is `^<tool_call>x</tool_call>", true}, // not closed before it: what follows has no say
		{"Run `ls` then ^<t>", false},
		{"Run `a\n^b` now", true},
		{"Run `a\n\n^b` now", false}, // a blank line ends the paragraph
		// Runs pair as CommonMark pairs code spans: a run opens code
		// and the next run of its length closes it, whatever stands
		// around either; a run with no closer yet leaves it open.
		{"a`b ^<t>", true},
		{"a `b`c ^<t>", false},
		{"a ```b ^<t>", false}, // a run of three is a fence's, wherever it stands
		{"a ```b`` ^<t>", true},
		{"a ``b` ^<t>", true},      // a run of another length closes nothing
		{"a ``b` c`` ^<t>", false}, // the run of its length does
		{"a `b``` ^<t>", true},     // a longer run closes nothing
		{"a `b\n```\n^<t>", true},  // the open code holds the fence
		// Inline code that holds a fence line (DeepSeek V3's arguments in
		// backticks): the paragraph goes on through the fence.
		{"Write `f\n```json\n{}\n```^g` here.", true},
		{"Write `f\n```json\n\n{}\n```^g` here.", false}, // a blank line ends the paragraph
		{"Write `a` b\n```json\n{}\n```\n^<t>", false},   // closed before the fence
		// Fences.
		{"For example:\n```\n^<t>\n```\nok", true},
		{"The format:\n```\n^<t>", true},
		{"Run this:\n```python\n^<t>\n```", true},
		{"```json ^<t>", false},
		{"```python ^<t>", true},
		{"Here it is:\n```\n^<t>\n```\nbut I won't call it.", false}, // the line after has no say
		{"```\n^<t>\n```", false},
		{"For example:\n```\nx\n```\n\nNow ^<t>", false}, // after the fence closed
		{"~~~python\nx\n~~~\n^<t>", false},               // a tilde fence closes with tildes
		{"~~~python\nx\n```\n^<t>", true},                // and only with tildes
		{"```python\nx\n~~~\n^<t>", true},                // a backtick fence only with backticks
		{"~~~~python\nx\n~~~\n^<t>", true},               // with a run as long as its opening one
		{"For example:\n\n~~~\n~~~\n\n~~~\n^<t>", true},  // the walk up to the prose passes tilde fence lines
		// Quotations inside a sentence.
		{`Write "^<tool_call>{"a": ["x", 1]}</tool_call>" to call f.`, true},
		{"It answers \u201C^[T]f{}\u201D here.", true},
		{"Say \u2018[f(a='don\u2019t')]\u2019, then ^<t>", false}, // closed before it
		{`"^<t>" is the tag`, false},                              // no text before the quote
		{`Write "Paris" now ^<t>`, false},
		// A quote mark that begins a quoted text after text on its line
		// opens a quotation, whatever the punctuation and whether or not
		// it is glued to it; one that opens its line (with the run it is
		// glued to) or follows a colon opens a string that shows nothing
		// (the table's OwnLine, AfterColon); one glued to what precedes it
		// with a blank after it ends a quoted text, and opens nothing.
		{`He said, "^<t>`, true},
		{`He said,"^<t>`, true},
		{`You can call see("^<t>") now`, true},
		{`see("^<t>") now`, false}, // the run it is glued to opens the line
		{`He said:"^<t>`, false},
		{`x = {"a": 1} ^<t>`, false}, // the glued quote's partner closes it
		{`x = {"a": "^<t>`, false},   // a colon introduces the string
		{`He said "hi".` + "\n^<t>", false},
		{`It was "a", "b".` + ` Now ^<t>`, false},
		{`(see "^<t>`, true},
		{`call:f{a:<|"|>x ^<t>`, false},
		{`He said: "^<t>`, false},
		{`  "^<t>`, false},
		{`[ "^<t>`, false}, // a list's opening counts as nothing
		{`A 12" pipe ^<t>`, false},
		{`{"a": "x."} ^<t>`, false},          // the string's partner opens nothing
		{`{"a": "say \"hi\"."} ^<t>`, false}, // an escaped quote is no partner
		{`{"a": "x", "b": "^<t>`, false},
		{`Say "a", "b" and "c." Then ^<t>`, false},
		{`{"a": "^<t>" b}`, false},                                 // a string of JSON opens no quotation
		{`Write "<t>{"a": "x\\"}</t>" to call f. Now ^<t>`, false}, // the string ends at a quote after an escaped backslash
		{`Write "<t>{"a": "x\\\"}</t>" to call f. Now ^<t>`, true}, // not at an escaped quote
		// A quotation spans lines while the syntax it holds is open at
		// the line break: an element a tag opened, a bracket; a blank line
		// ends it.
		{"Write \"<t>\n{\"a\": 1}\n^</t>\" to call f.", true},
		{"Write \"<t>\n\n^</t>\" to call f.", false},
		{"Write \"Paris\n^<t>x</t>\" to call f.", false}, // nothing open: it ends with its line
		{"Write \"see <t>\n^<u>\" to call f.", true},
		{"Write \"see <t></t>\n^<u>\" to call f.", false}, // the element closed
		{"Write \"see <t/>\n^<u>\" to call f.", false},    // closed by its own tag
		{"Write \"[f(a=1,\n^b=2)]\" to call f.", true},
		{"Write \"[f(a=1)]\n^<t>\" to call f.", false},
		{"Write \"x <= y\n^<t>", false}, // a '<' glued to no name opens no tag
		// A fence's run is syntax too: it carries the quotation over, and
		// a quotation carried into a fence holds the fence's text.
		{"He said,\"```json\n^{\"a\": 1}\n```\" and left.", true},
		{"He typed \"(see\n```json\n^{}\n```)\" here.", true},
		{"He said \"x\n```json\n^{}\n```", false},
		{"```\nHe said \"x ^<t>\n```", false}, // a quotation inside the fence's text is the fence's
		// Inside the syntax's brackets or tags a quote opens a string of
		// the syntax, and the quotation closes at its partner outside them.
		{`Write "<t>{"a": "b"}</t>" to call f. Now ^<t>`, false},
		{`Write "<t a="x">" to call f. Now ^<t>`, false},
		{`Write "<t>{"a": "b"</t>" to call f. Now ^<t>`, true}, // the brace never closed
		{`Write "[f(a='x"y')]" now ^<t>`, false},
		{`Write "<t>it's "x" ^<u>`, false}, // a quote outside the syntax closes it
		{`Write '^<t>{"a": "it's"}</t>' to call f.`, true},
		{`It's the users' ^<t>{"a": 1}</t> now`, false}, // apostrophes open nothing
		{`I'd say 'hello' ^<t>{"a": 1}</t> now`, false}, // closed before it
		{`I'd say 'hello ^<t>{"a": 1}</t> now`, true},
		{`Say "don't" ^<t>`, false},
	} {
		at := strings.Index(tc.text, "^")
		text := tc.text[:at] + tc.text[at+1:]
		var s ShownScan
		if got := s.ShownAt(text, at); got != tc.shown {
			t.Errorf("ShownAt(%q, %d) = %v, want %v", text, at, got, tc.shown)
		}
	}
}

// A ShownScan reads a paragraph of unclosed backticks, lines of inline
// code, quotations that never close and fences in a paragraph with code
// open in linear time, however many markers it is asked about.
func TestShownLinear(t *testing.T) {
	scan := func(text string, step int) {
		var s ShownScan
		for at := 0; at < len(text); at += step {
			s.ShownAt(text, at)
		}
	}
	once := func(n int) time.Duration {
		start := time.Now()
		scan(strings.Repeat(" `a", n), 3)
		scan(strings.Repeat("x `y` <tool_call>\n", n/6), 18)
		// Quotations that may span lines and never close, apostrophes.
		scan(strings.Repeat("say \"<t>\n{x 'it's' '<b>\n", n/6), 26)
		// Quotes after blanks behind runs of a list's opening bytes
		// (textlayer.QuoteShows reads back over them), strings a colon
		// opens and partners glued to punctuation.
		scan(strings.Repeat(`[ , ; "x." : "y." `, n/18), 9)
		// Quotes glued to what precedes them on a line with no blank,
		// and a quotation whose brackets carry it over every line.
		scan("x "+strings.Repeat(`{"a":"b<c",`, n/11), 11)
		scan("x \"("+strings.Repeat("(<a>'b' \"c\n", n/12), 12)
		// Fences in a paragraph with inline code open: crossing the
		// fences, and not.
		scan(strings.Repeat("a `f\n```\nx\n```g` b\n", n/6), 7)
		scan(strings.Repeat("a `f\n```\nx\n```\n", n/6), 7)
		scan(strings.Repeat("a `f\n```\n", n/6), 5)
		return time.Since(start)
	}
	// The best of three runs: a pause of the collector or of a loaded
	// machine lengthens one run, never the work.
	measure := func(n int) time.Duration {
		best := once(n)
		for range 2 {
			best = min(best, once(n))
		}
		return best
	}
	// Sixteen times the input: linear work takes about 16 times as long,
	// quadratic 256 times; the bound of 64 leaves a loaded machine room.
	// A timing, so a long suite (DIALECTKIT_LONG=1), not the quick run.
	longtest.Skip(t)
	small, large := measure(10000), measure(160000)
	if large > 64*small+50*time.Millisecond {
		t.Errorf("16x the input took %v against %v: not linear", large, small)
	}
}

// A ShownScan asked about growing positions answers as a fresh scan asked
// about the last position only: the scan pairs backtick runs, fences and
// quotations the same whatever steps it took.
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
		"a`", "a``", "b", " ", "`c",
		// Strings a colon or a line's start opens, their partners glued
		// to what precedes them, escaped quotes and quote tokens.
		": \"", ", \"", "x.\"", "\\\"", "<|\"|>", "\u2018",
		// Quotes glued to a word or to punctuation, brackets and tags of
		// a quoted syntax.
		"a\"", "(\"", "it's", "(", ")", "{", "}", "</x>", "<x/>", "<x ", "<=", "a'<"}
	for range 6000 {
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
		fresh := func() bool { var f ShownScan; return f.ShownAt(text, at) }()
		if got := s.ShownAt(text, at); got != fresh {
			t.Errorf("ShownAt(%q, %d): incremental %v, fresh %v", text, at, got, fresh)
			return false
		}
	}
	return true
}

// Backticks inside a call open no inline code (inCall), and a ShownScan
// told of the calls as an engine reads them (a call whose start is not
// shown is told once it ends) answers as a fresh scan told of the same
// calls.
func TestShownLeavesCallsOut(t *testing.T) {
	for _, tc := range []struct {
		text  string
		shown bool // at the "^"; the <c>…</c> regions before it not shown are calls
	}{
		{"<c>use `ls</c>\n^<c>p` here</c>", false},
		{"<c>use `ls</c> and `pwd` then ^x", false},
		{"<c>use `ls</c> and `pwd ^x", true},
		{"Write `<c>a `b</c>` to call ^f", true}, // a shown call's backticks are prose's: the last opens code
		{"Write `<c>a `b</c>` ` to call ^f", false},
		{"Write `<c>x` y</c> ^z", false},
	} {
		at := strings.Index(tc.text, "^")
		text := tc.text[:at] + tc.text[at+1:]
		var s ShownScan
		for i := 0; ; {
			st := strings.Index(text[i:], "<c>")
			if st < 0 || i+st >= at {
				break
			}
			st += i
			en := st + strings.Index(text[st:], "</c>") + len("</c>")
			if !s.ShownAt(text, st) {
				s.Call(st, en)
			}
			i = en
		}
		if got := s.ShownAt(text, at); got != tc.shown {
			t.Errorf("ShownAt(%q, %d) = %v, want %v", text, at, got, tc.shown)
		}
	}

	pieces := []string{"`", "``", "\n", "\n\n", "x ", " `y` ", "<m>", " <m>", "```json\n", "```\n", " `b"}
	inner := []string{"`", "``", "a", " ", "\n", "x` ", " `y", "\n```json\n"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		var b strings.Builder
		var calls []textlayer.Span
		for range 1 + r.IntN(12) {
			if r.IntN(3) == 0 {
				start := b.Len()
				b.WriteString("<c>")
				for range r.IntN(4) {
					b.WriteString(inner[r.IntN(len(inner))])
				}
				b.WriteString("</c>")
				calls = append(calls, textlayer.Span{Start: start, End: b.Len()})
				continue
			}
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		// The calls an engine makes: those whose start is not shown.
		var real []textlayer.Span
		var e ShownScan
		for _, c := range calls {
			if !e.ShownAt(text, c.Start) {
				e.Call(c.Start, c.End)
				real = append(real, c)
			}
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
			if got, want := s.ShownAt(text, at), f.ShownAt(text, at); got != want {
				t.Fatalf("ShownAt(%q, %d) with calls %v: incremental %v, fresh %v", text, at, real[:k], got, want)
			}
		}
	}
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
	parts := []string{"```", "`", "json", "python", " ", "\n", "x", marker, "{}", "</tool_call>", "Example:", "~~~", `"`, ">",
		": ", ", ", `\`, "``"}
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

// TestShownScanFork: a fork (ForkTo) goes on by itself. Told of a call past the
// original's calls, once it has read past them (where a scan reuses its
// array for the calls to come), it leaves the original's calls as they
// were: the original answers as a scan with its own history only.
func TestShownScanFork(t *testing.T) {
	text := "<c>use `ls</c> and z\n\nnext <c>g</c> end"
	call := strings.Index(text, "</c>") + len("</c>")
	z := strings.Index(text, "z")
	next := strings.LastIndex(text, "<c>")
	var s ShownScan
	s.ShownAt(text, 0)
	s.Call(0, call)
	want := func() bool {
		var f ShownScan
		f.ShownAt(text, 0)
		f.Call(0, call)
		return f.ShownAt(text, z)
	}()
	var f ShownScan
	s.ForkTo(&f)
	if f.ShownAt(text, next) {
		t.Fatalf("%q: the marker at %d is not shown", text, next)
	}
	f.Call(next, len(text)-len(" end"))
	f.ShownAt(text, len(text))
	if got := s.ShownAt(text, z); got != want {
		t.Errorf("%q: after a fork read on, ShownAt(%d) = %v, want %v", text, z, got, want)
	}
	if want {
		t.Errorf("%q: the backtick inside the call opens no code: ShownAt(%d) = true", text, z)
	}
}
