package sofar

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// TestOutput writes deltas and checks the text returned after each, what
// Write after Close and a second Close do, and that a first delta that is
// the whole output is held as it came, not copied.
func TestOutput(t *testing.T) {
	rows := []struct {
		name   string
		deltas []string
		oks    []bool // per delta, what Write reports
		text   string // what Close returns
	}{
		{"nothing written", nil, nil, ""},
		{"one delta", []string{"abc"}, []bool{true}, "abc"},
		{"empty deltas add nothing", []string{"", "ab", "", "c"}, []bool{false, true, false, true}, "abc"},
		{"many deltas", []string{"a", "b", "cd", "efg", "h"}, []bool{true, true, true, true, true}, "abcdefgh"},
		{"a long output cut byte by byte", strings.Split(strings.Repeat("xy", 600), ""), nil, strings.Repeat("xy", 600)},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			var o Output
			so := ""
			for i, d := range tt.deltas {
				text, ok := o.Write(d)
				if tt.oks != nil && ok != tt.oks[i] {
					t.Fatalf("Write(%q) ok %v, want %v", d, ok, tt.oks[i])
				}
				so += d
				if ok && text != so || o.Text() != so {
					t.Fatalf("after %q: Write gave %q, Text %q, want %q", d, text, o.Text(), so)
				}
			}
			text, ok := o.Close()
			if !ok || text != tt.text {
				t.Fatalf("Close: %q, %v; want %q, true", text, ok, tt.text)
			}
			if text, ok := o.Close(); ok || text != "" {
				t.Errorf("second Close: %q, %v; want \"\", false", text, ok)
			}
			if text, ok := o.Write("more"); ok || text != "" || o.Text() != tt.text {
				t.Errorf("Write after Close: %q, %v, text %q; want nothing added", text, ok, o.Text())
			}
		})
	}
	whole := strings.Repeat("z", 100)
	var o Output
	if text, _ := o.Write(whole); unsafe.StringData(text) != unsafe.StringData(whole) || unsafe.StringData(o.Text()) != unsafe.StringData(whole) {
		t.Error("a first delta that is the whole output was copied")
	}
}

// TestOutputGrowsByDoubling streams 64 KiB in 16-byte deltas: the array
// is allocated about log2(64 KiB / 512 B) times, where append's growth by
// a quarter allocates it about 25 times; and every text returned earlier
// is still the output as it was then.
func TestOutputGrowsByDoubling(t *testing.T) {
	delta := strings.Repeat("z", 16)
	allocs := testing.AllocsPerRun(5, func() {
		var o Output
		for range 4096 {
			o.Write(delta)
		}
	})
	if allocs > 9 {
		t.Fatalf("%v allocations for 64 KiB in 16-byte deltas, want at most 9 (512 B doubled to 128 KiB)", allocs)
	}
	var o Output
	var texts []string
	for i := range 3000 {
		text, _ := o.Write(string(rune('a' + i%26)))
		texts = append(texts, text)
	}
	for i, text := range texts {
		if len(text) != i+1 || text != o.Text()[:i+1] {
			t.Fatalf("text %d changed: %q", i, text)
		}
	}
}

// BenchmarkOutput writes a 64 KiB output in 16-byte deltas.
func BenchmarkOutput(b *testing.B) {
	delta := strings.Repeat("d", 16)
	b.ReportAllocs()
	b.SetBytes(64 << 10)
	for range b.N {
		var o Output
		for range (64 << 10) / len(delta) {
			o.Write(delta)
		}
		o.Close()
	}
}

// TestAppend mixes Append and Write, in deltas of several sizes that put
// the appended bytes in the array, in one chunk and across chunks: the
// text read after each step is the output so far, and a text read before
// an Append stays as it was.
func TestAppend(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 3*ChunkSize/16+7)
	rows := []struct {
		name   string
		deltas []string
		append []bool // per delta, Append (true) or Write
	}{
		{"appended first", []string{"abc", "de"}, []bool{true, false}},
		{"appended after the first delta", []string{"abc", "de", "f"}, []bool{false, true, true}},
		{"appended with room in the array", []string{"abc", "de", "f", "g"}, []bool{false, false, true, false}},
		{"appended across chunks", []string{"ab", "cd", long, "e", long[:ChunkSize+1], "f"}, []bool{false, false, true, true, true, false}},
		{"one delta a chunk long", []string{"a", "b", long[:ChunkSize], long[:ChunkSize]}, []bool{false, false, true, true}},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			var o Output
			so, before, seen := "", "", ""
			for i, d := range tt.deltas {
				if tt.append[i] {
					o.Append(d)
				} else {
					o.Write(d)
				}
				so += d
				if i%2 == 0 {
					before, seen = o.Text(), so
				}
				if before != seen {
					t.Fatalf("after %d deltas a text read earlier changed", i+1)
				}
				if i%2 == 1 && o.Text() != so {
					t.Fatalf("after %d deltas: Text is %d bytes, want %d", i+1, len(o.Text()), len(so))
				}
			}
			if text, ok := o.Close(); !ok || text != so {
				t.Fatalf("Close: %d bytes, %v; want %d", len(text), ok, len(so))
			}
			if o.Append("more"); o.Text() != so {
				t.Errorf("Append after Close added to the output")
			}
		})
	}
}

// TestOutputRandom writes, appends and reads an output in random steps,
// against a plain copy of it: every text read stays the output it was
// when read, though the chunks behind it go back to the pool and another
// output writes over them.
func TestOutputRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for run := 0; run < 40; run++ {
		var (
			o     Output
			ref   strings.Builder
			reads []string
			wants []string
		)
		for step := 0; step < 200; step++ {
			s := strings.Repeat(string(rune('a'+rng.IntN(26))), 1+rng.IntN(1<<rng.IntN(16)))
			switch rng.IntN(10) {
			case 0:
				text, _ := o.Write(s)
				ref.WriteString(s)
				reads, wants = append(reads, text), append(wants, ref.String())
			case 1:
				reads, wants = append(reads, o.Text()), append(wants, ref.String())
				var other Output
				other.Write("#")
				other.Append(strings.Repeat("#", 4*ChunkSize))
				_ = other.Text()
			default:
				o.Append(s)
				ref.WriteString(s)
			}
			if o.Len() != ref.Len() {
				t.Fatalf("run %d step %d: length %d, want %d", run, step, o.Len(), ref.Len())
			}
		}
		if o.Text() != ref.String() {
			t.Fatalf("run %d: the text differs from what was written", run)
		}
		for i := range reads {
			if reads[i] != wants[i] {
				t.Fatalf("run %d: read %d changed after it was read", run, i)
			}
		}
	}
}
