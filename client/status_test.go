package client

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
	}{
		{"none", http.Header{}, 0},
		{"nil", nil, 0},
		{"seconds", http.Header{"Retry-After": {"120"}}, 2 * time.Minute},
		{"fractional seconds", http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond},
		{"HTTP date", http.Header{"Retry-After": {"Sun, 01 Mar 2026 12:00:30 GMT"}}, 30 * time.Second},
		{"date in the past", http.Header{"Retry-After": {"Sun, 01 Mar 2026 11:00:00 GMT"}}, 0},
		{"negative", http.Header{"Retry-After": {"-5"}}, 0},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0},
		{"milliseconds first", http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"1"}}, 250 * time.Millisecond},
		{"bad milliseconds fall back", http.Header{"Retry-After-Ms": {"x"}, "Retry-After": {"1"}}, time.Second},
		{"huge saturates", http.Header{"Retry-After": {"1e300"}}, time.Duration(1<<63 - 1)},
	}
	for _, tt := range tests {
		if got := RetryAfter(tt.header, now); got != tt.want {
			t.Errorf("%s: retryAfter = %v, want %v", tt.name, got, tt.want)
		}
	}
}
