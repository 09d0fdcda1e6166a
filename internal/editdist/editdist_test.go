package editdist

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"hermes", "hermes", 0}, {"", "abc", 3}, {"abc", "", 3},
		{"hermes", "hremes", 2}, {"get_weather", "get_wether", 1}, {"kitten", "sitting", 3},
		{"日本", "日本語", 1}, {"qwen3_coder", "qwen3coder", 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (not symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}
