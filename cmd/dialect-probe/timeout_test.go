package main

import (
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/internal/fakeserver"
)

// TestCallTimeoutWhateverTheServerSends: call --timeout ends the run
// within the timeout, exit status 3, whether the server stalls mid-answer,
// trickles its answer or sends a long one.
func TestCallTimeoutWhateverTheServerSends(t *testing.T) {
	tests := []struct {
		name string
		turn fakeserver.Turn
		api  string
	}{
		{"stall after the text, ollama", fakeserver.Turn{Content: "thinking about it", Stall: true}, "ollama"},
		{"stall after the text, openai", fakeserver.Turn{Content: "thinking about it", Stall: true}, "openai"},
		{"trickle", fakeserver.Turn{Content: strings.Repeat("<tool_call>", 2000), ChunkSize: 11, Delay: 5 * time.Millisecond}, "openai"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakeserver.NewServer(fakeserver.Script{tt.turn}, nil)
			defer srv.Close()
			tools, cfg := callFiles(t, fastConfig)
			begin := time.Now()
			_, stderr, code := runCLI(t, "", "call", "--api", tt.api, "--host", srv.URL, "--model", "qwen3:8b", "--tools", tools,
				"--config", cfg, "--prompt", "Weather?", "--timeout", "300ms")
			took := time.Since(begin)
			if code != exitServer || !strings.Contains(stderr, "--timeout 300ms") {
				t.Errorf("exit %d, stderr %q; want %d and the timeout named", code, stderr, exitServer)
			}
			if took > 2*time.Second {
				t.Errorf("call --timeout 300ms took %v", took)
			}
		})
	}
}
