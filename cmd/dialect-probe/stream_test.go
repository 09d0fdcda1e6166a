package main

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"time"
)

// lineWriter sends every complete line written to it on a channel.
type lineWriter struct {
	buf bytes.Buffer
	ch  chan string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(line)
			return len(p), nil
		}
		w.ch <- line
	}
}

// TestParseStreamAsItArrives: parse --stream prints an event before its
// input has ended, holds a marker's prefix, and ends with the result.
func TestParseStreamAsItArrives(t *testing.T) {
	pr, pw := io.Pipe()
	lines := make(chan string, 64)
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"parse", "--stream", "--dialect", "hermes", "--reasoning-closed"}, pr, &lineWriter{ch: lines}, io.Discard)
		close(lines)
	}()
	next := func() map[string]any {
		t.Helper()
		select {
		case line := <-lines:
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			return m
		case <-time.After(20 * time.Second):
			t.Fatal("no event while the input is still open")
			return nil
		}
	}
	if _, err := pw.Write([]byte("Let me check.\n<tool_")); err != nil {
		t.Fatal(err)
	}
	if ev := next(); ev["event"] != "content" || ev["text"] != "Let me check." {
		t.Fatalf("first event %v", ev)
	}
	if _, err := pw.Write([]byte(`call>{"name": "get_weather", "arguments": {"city": "Paris",}}</tool_call>`)); err != nil {
		t.Fatal(err)
	}
	if ev := next(); ev["event"] != "call_start" || ev["name"] != "get_weather" {
		t.Fatalf("event %v", ev)
	}
	if ev := next(); ev["event"] != "call" {
		t.Fatalf("event %v", ev)
	}
	pw.Close()
	ev := next()
	res, _ := ev["result"].(map[string]any)
	if ev["event"] != "done" || res["content"] != "Let me check." || len(res["calls"].([]any)) != 1 {
		t.Fatalf("last event %v", ev)
	}
	if c := <-code; c != 0 {
		t.Errorf("exit %d", c)
	}
}
