package lenient

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
)

// Limits are enforced where they are promised: the size before any
// parsing, the depth while reading, and the time budget inside the stages,
// not only between them. These tests run the whole pipeline on the
// adversarial shapes of linear_test.go grown to a megabyte.

// hostileSize is the size the shapes are grown to: the default size limit,
// less room for the shapes' own framing.
const hostileSize = DefaultMaxSize - 64

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestSizeLimitBeforeParsing checks that input one byte over the limit is
// refused before anything reads it: whatever its shape, the answer is
// TLP-009 with no output, and costs no allocation beyond the error.
func TestSizeLimitBeforeParsing(t *testing.T) {
	for name, shape := range shapes {
		in := []byte(shape(DefaultMaxSize + 1)[:DefaultMaxSize+1])
		var res Result
		alloc := allocated(func() { res = Repair(in, nil) })
		if res.Err == nil || coded.Code(res.Err) != toolcall.CodeTooLarge || res.Output != nil {
			t.Errorf("%s: %d bytes: err = %v, want TLP-009", name, len(in), res.Err)
		}
		if alloc > 64<<10 {
			t.Errorf("%s: refusing the input allocated %d bytes: it was read", name, alloc)
		}
	}
	at := Repair([]byte(`"`+strings.Repeat("x", DefaultMaxSize-2)+`"`), nil)
	if at.Err != nil {
		t.Errorf("input at the limit: %v", at.Err)
	}
}

// TestDepthLimitWhileReading checks that nesting past the limit stops the
// scanner where it happens: a megabyte of open brackets costs a few hundred
// bytes of work, not a read to the end.
func TestDepthLimitWhileReading(t *testing.T) {
	for _, open := range []string{"[", "{\"a\":", "(", "[{\"k\": [", "{a: "} {
		in := []byte(strings.Repeat(open, hostileSize/len(open)))
		s := newScanner(in, 0, config{maxDepth: DefaultMaxDepth}, zeroTime)
		_, err, _ := s.run()
		if err == nil || err.Code != toolcall.CodeTooDeep {
			t.Fatalf("%q: err = %v, want TLP-013", open, err)
		}
		if s.work > 64*len(open)*4 {
			t.Errorf("%q: the scanner did %d units of work before stopping at depth %d", open, s.work, DefaultMaxDepth)
		}
		// The depth limit is what is tested: a time budget that a loaded
		// machine under the race detector can spend before the scanner
		// reaches depth 64 must not decide the answer (TLP-007 has its own
		// tests).
		if res := Repair(in, &Options{Timeout: time.Minute}); res.Err == nil || coded.Code(res.Err) != toolcall.CodeTooDeep {
			t.Errorf("%q: Repair: err = %v, want TLP-013", open, res.Err)
		}
	}
}

// TestConcatenatedValuesKeepTheDepthLimit is the regression test of a fuzz
// finding: the array the scanner wraps around concatenated values was
// added after the depth check, so the output could nest one level past
// the limit.
func TestConcatenatedValuesKeepTheDepthLimit(t *testing.T) {
	for _, tc := range []struct {
		in    string
		depth int
	}{
		{"```\"\"00```(", 1},
		{`{"a": 1} {"b": 2}`, 1},
		{`[[1]] [[2]]`, 2},
		{"```json\n[1]\n```\n```json\n[2]\n```", 1},
	} {
		res := RepairString(tc.in, &Options{MaxDepth: tc.depth})
		if res.Err == nil {
			if d := jsonDepth(res.Output); d > tc.depth {
				t.Errorf("%q at depth %d: output %s nests %d deep", tc.in, tc.depth, res.Output, d)
			}
			continue
		}
		if coded.Code(res.Err) != toolcall.CodeTooDeep {
			t.Errorf("%q at depth %d: err = %v, want TLP-013 or a result within the limit", tc.in, tc.depth, res.Err)
		}
		if ok := RepairString(tc.in, &Options{MaxDepth: tc.depth + 1}); ok.Err != nil {
			t.Errorf("%q at depth %d: %v", tc.in, tc.depth+1, ok.Err)
		}
	}
}

// stepClock is a clock the test controls: each reading is two nanoseconds
// past the one before. A repair reads it once to set its deadline; a
// budget of 2j-1 nanoseconds has then run out at its j-th look at the
// clock after that, and not before.
type stepClock struct {
	t0    time.Time
	reads int
}

func (c *stepClock) now() time.Time {
	c.reads++
	return c.t0.Add(time.Duration(2 * c.reads))
}

// looks is the number of times the repair looked at the clock after it
// set its deadline.
func (c *stepClock) looks() int { return c.reads - 1 }

// TestTimeBudgetInterruptsRepair runs every adversarial shape on a clock
// the test controls, not on wall time. A run without a budget that runs
// out counts the looks at the clock the shape's repair makes; then, for
// budgets that run out at the first, a middle and the last of those looks,
// the repair must stop at that very look, with TLP-007 and no output (the
// input kept as given), and look at the clock no more. A stage that reads
// the clock and goes on past the deadline, or returns what it had so far,
// fails here on any machine, however loaded.
func TestTimeBudgetInterruptsRepair(t *testing.T) {
	const size = 256 << 10 // past clockFreeSize, so that the budget is kept
	for name, shape := range shapes {
		in := []byte(shape(size))
		whole := &stepClock{}
		cfg := (&Options{Timeout: 1 << 62}).config()
		cfg.now = whole.now
		want := repairWith(in, cfg)
		looks := whole.looks()
		t.Logf("%-36s %4d looks at the clock, %v", name, looks, coded.Code(want.Err))
		for _, j := range []int{1, (looks + 1) / 2, looks} {
			if j < 1 || j > looks {
				continue // the run never looks at the clock past its start
			}
			clock := &stepClock{}
			cfg := (&Options{Timeout: time.Duration(2*j - 1)}).config()
			cfg.now = clock.now
			res := repairWith(in, cfg)
			if coded.Code(res.Err) != toolcall.CodeRepairTimeout || res.Output != nil || res.Repairs != nil {
				t.Errorf("%s: budget out at look %d of %d: err %v, %d bytes of output, %d repairs; want TLP-007 and nothing",
					name, j, looks, res.Err, len(res.Output), len(res.Repairs))
			}
			if !sameSlice(res.Original, in) {
				t.Errorf("%s: the result does not keep the input as given", name)
			}
			if got := clock.looks(); got != j {
				t.Errorf("%s: budget out at look %d: the repair looked at the clock %d times", name, j, got)
			}
		}
	}
}

// TestHostileShapes runs the whole pipeline, with the default limits, on
// every adversarial shape at a megabyte and logs the time and memory each
// takes; a success must be valid JSON. Allocation stays linear: at most 32
// times the input (the most, about 24 times, is prose full of brackets,
// where every bracket opens a speculative parse that is rolled back).
func TestHostileShapes(t *testing.T) {
	for name, shape := range shapes {
		in := []byte(shape(hostileSize))
		if len(in) > DefaultMaxSize {
			in = in[:DefaultMaxSize]
		}
		var res Result
		begin := time.Now()
		alloc := allocated(func() { res = Repair(in, nil) })
		took := time.Since(begin)
		outcome := "ok"
		if res.Err != nil {
			outcome = string(coded.Code(res.Err))
		} else if !gjson.ValidBytes(res.Output) {
			t.Errorf("%s: invalid output", name)
		}
		t.Logf("%-36s %8d B %10v %7.1f MB alloc (%4.1f×) %s", name, len(in), took.Round(10*time.Microsecond),
			float64(alloc)/(1<<20), float64(alloc)/float64(len(in)), outcome)
		if alloc > 32*uint64(len(in)) {
			t.Errorf("%s: %d bytes allocated for %d bytes of input", name, alloc, len(in))
		}
	}
}

// TestValidMegabyteArgument repairs (that is, validates and returns) a
// valid 1 MB argument object: byte for byte, with allocation a small
// multiple of its size.
func TestValidMegabyteArgument(t *testing.T) {
	value := strings.Repeat(`line of text with "quotes" and \ backslashes, `, hostileSize/52)
	doc, _ := json.Marshal(map[string]string{"content": value, "path": "notes/today.md"})
	doc = doc[:min(len(doc), DefaultMaxSize)]
	if !json.Valid(doc) {
		doc, _ = json.Marshal(map[string]string{"content": value[:hostileSize/2]})
	}
	var res Result
	alloc := allocated(func() { res = Repair(doc, nil) })
	if res.Err != nil || string(res.Output) != string(doc) || res.Attempted {
		t.Fatalf("valid %d-byte document: %v, changed %v", len(doc), res.Err, string(res.Output) != string(doc))
	}
	t.Logf("valid %d-byte document: %d bytes allocated", len(doc), alloc)
	if alloc > 2*uint64(len(doc)) {
		t.Errorf("validating %d bytes allocated %d", len(doc), alloc)
	}
}

// TestCheck covers the strict check used when repair is off: the size
// before reading, the depth while reading, then validity, UTF-8 included.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		opts *Options
		code toolcall.Code // "" for valid
	}{
		{"valid", `{"a": [1, {"b": "c"}]}`, nil, ""},
		{"valid at the depth limit", strings.Repeat("[", 64) + strings.Repeat("]", 64), nil, ""},
		{"one level too deep", strings.Repeat("[", 65) + strings.Repeat("]", 65), nil, toolcall.CodeTooDeep},
		{"depth off", strings.Repeat("[", 5000) + strings.Repeat("]", 5000), &Options{MaxDepth: -1}, ""},
		{"one byte over the size limit", `"` + strings.Repeat("x", 7) + `"`, &Options{MaxSize: 8}, toolcall.CodeTooLarge},
		{"invalid UTF-8", "\"\xff\"", nil, toolcall.CodeInvalidJSON},
		{"malformed", `{"a": 1,}`, nil, toolcall.CodeInvalidJSON},
		{"empty", ``, nil, toolcall.CodeInvalidJSON},
	} {
		err := Check([]byte(tc.in), tc.opts)
		switch {
		case tc.code == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.code != "" && (err == nil || coded.Code(err) != tc.code):
			t.Errorf("%s: err = %v, want %s", tc.name, err, tc.code)
		}
	}
	if err := Check([]byte(strings.Repeat("[", 70)), nil); err == nil || coded.As(err).Offset != 64 {
		t.Errorf("too deep: %v, want the offset of the 65th bracket", err)
	}
}

// TestValidAtAnyDepth checks lenient.Valid where gjson's recursive
// validator would grow the stack by hundreds of megabytes: two million
// levels are refused (past the 10 000 encoding/json decodes) without the
// stack growing, and 10 000 levels are valid.
func TestValidAtAnyDepth(t *testing.T) {
	n := 2 << 20
	if testing.Short() {
		n = 1 << 16
	}
	deep := strings.Repeat("[", n) + strings.Repeat("]", n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tooDeep := ValidString(deep)
	runtime.ReadMemStats(&after)
	if tooDeep {
		t.Errorf("Valid accepts %d levels", n)
	}
	// StackSys is the whole process's: other goroutines' stacks may shrink
	// meanwhile, so the difference is signed, and a fall is no growth.
	if grown := int64(after.StackSys) - int64(before.StackSys); grown > 16<<20 {
		t.Errorf("the stack grew by %d bytes", grown)
	}
	at := func(levels int) string { return strings.Repeat("[", levels) + strings.Repeat("]", levels) }
	if !ValidString(at(10_000)) || ValidString(at(10_001)) || ValidString(at(10_000)[1:]) {
		t.Error("Valid is wrong at the 10 000-level bound")
	}
	if !ValidString(`{"a": [1, "b"]}`) || ValidString("\"\xff\"") || ValidString(`{"a": }`) {
		t.Error("Valid disagrees with RFC 8259 on shallow input")
	}
}
