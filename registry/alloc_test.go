package registry_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/streamtest"
	"github.com/dialectkit/toolcall/registry"
)

// manyCallsOf writes calls to get_weather in dialect's syntax until the text
// is size bytes long. Each call is about 300 bytes, so that 256 KB stays
// under the limit on the number of calls.
func manyCallsOf(dialect string, size int) string {
	pad := strings.Repeat("x", 200)
	one := map[string]func(i int) string{
		"hermes": func(i int) string {
			return fmt.Sprintf("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"City %d, %s\", \"days\": %d}}\n</tool_call>\n", i, pad, i%7+1)
		},
		"mistral": func(i int) string {
			return fmt.Sprintf("[TOOL_CALLS]get_weather[ARGS]{\"location\": \"City %d, %s\", \"days\": %d}", i, pad, i%7+1)
		},
		"deepseek_v31": func(i int) string {
			return fmt.Sprintf("<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"location\": \"City %d, %s\", \"days\": %d}<｜tool▁call▁end｜>", i, pad, i%7+1)
		},
		"gemma4": func(i int) string {
			return fmt.Sprintf("<|tool_call>call:get_weather{location:<|\"|>City %d, %s<|\"|>,days:%d}<tool_call|>", i, pad, i%7+1)
		},
	}[dialect]
	var b strings.Builder
	if dialect == "deepseek_v31" {
		b.WriteString("<｜tool▁calls▁begin｜>")
	}
	for i := 0; b.Len() < size; i++ {
		b.WriteString(one(i))
	}
	if dialect == "deepseek_v31" {
		b.WriteString("<｜tool▁calls▁end｜>")
	}
	return b.String()
}

// gemmaLarge is one gemma4 call with an argument of about size bytes.
func gemmaLarge(size int) string {
	line := "func main() {\n\tfmt.Println(\"hello, world\") // a \"quoted\" line\n}\n"
	return "<|tool_call>call:write_file{path:<|\"|>main.go<|\"|>,content:<|\"|>" + strings.Repeat(line, size/len(line)) + "<|\"|>}<tool_call|>"
}

// What a parse allocates grows linearly with the output: four times the
// output, at most four times the memory (many calls and one large call,
// with the dialect named); and detection allocates at most 10 bytes per
// byte of output.
func TestAllocationIsLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops what is put back at random under the race detector")
	}
	cases := []struct {
		name, dialect string
		text          func(size int) string
		// detectionGoal: detection is held to 10 bytes per input byte.
		detectionGoal bool
	}{
		{"hermes many calls", "hermes", func(n int) string { return manyCallsOf("hermes", n) }, true},
		{"mistral many calls", "mistral", func(n int) string { return manyCallsOf("mistral", n) }, true},
		{"deepseek_v31 many calls", "deepseek_v31", func(n int) string { return manyCallsOf("deepseek_v31", n) }, true},
		{"gemma4 many calls", "gemma4", func(n int) string { return manyCallsOf("gemma4", n) }, true},
		{"gemma4 one large call", "gemma4", gemmaLarge, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The per-output call cap is off: the test measures parsing
			// work, not the cap.
			opts := &registry.Options{Dialect: c.dialect, MaxCalls: -1}
			small, large := c.text(64<<10), c.text(256<<10)
			if res := registry.Parse(small, opts); len(res.Calls) == 0 || len(res.Errors) > 0 {
				t.Fatalf("%d calls, errors %v", len(res.Calls), res.Errors)
			}
			a64 := streamtest.Allocated(func() { registry.Parse(small, opts) })
			a256 := streamtest.Allocated(func() { registry.Parse(large, opts) })
			ratio := float64(a256) / float64(a64)
			t.Logf("64 KB: %d B, 256 KB: %d B (%.2f×)", a64, a256, ratio)
			// 4, and 5% for the size classes allocations round up to.
			if ratio > 4.2 {
				t.Errorf("256 KB allocates %.2f× what 64 KB does", ratio)
			}
			d := streamtest.Allocated(func() { registry.Parse(large, &registry.Options{MaxCalls: -1}) })
			perByte := float64(d) / float64(len(large))
			t.Logf("detection: %.1f B per input byte", perByte)
			if c.detectionGoal && perByte > 10 {
				t.Errorf("detection allocates %.1f bytes per input byte", perByte)
			}
		})
	}
}
