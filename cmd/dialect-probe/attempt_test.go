package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/fakeserver"
)

// TestCallLabelsFailedCalls: an attempt whose answer held a call that
// failed is labelled with its failed calls, also when the server reports
// no token counts; "no answer" is kept for an attempt that got none.
func TestCallLabelsFailedCalls(t *testing.T) {
	// A server that reports no token counts (no "usage" in its stream).
	noUsage := `data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": 5}}</tool_call>"},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

data: [DONE]

`
	srv := fakeserver.NewServer(fakeserver.Script{
		{Body: noUsage, ContentType: "text/event-stream"},
		{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
	}, nil)
	defer srv.Close()
	tools, cfg := callFiles(t, fastConfig)
	stdout, stderr, code := runCLI(t, "", "call", "--api", "openai", "--host", srv.URL, "--model", "qwen3:8b", "--tools", tools,
		"--config", cfg, "--prompt", "Weather?")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
	}
	for _, want := range []string{"  #1 initial: 0 valid, 1 failed, hermes — tokens 0+0", "  #2 reflection: 1 valid call, native"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "no answer") {
		t.Errorf("an attempt that answered is labelled \"no answer\":\n%s", stdout)
	}

	var b bytes.Buffer
	zero := 0
	printAttempt(&b, attemptRecord{Number: 1, Reason: "initial", Errors: []errorRecord{{Code: "TLP-015", Message: "TLP-015: connection refused"}}})
	printAttempt(&b, attemptRecord{Number: 2, Reason: "reflection", Errors: []errorRecord{{Code: "TLP-019", Message: "TLP-019: bad markup"}}})
	printAttempt(&b, attemptRecord{Number: 3, Reason: "reflection", Calls: 1, Errors: []errorRecord{{Code: "TLP-004", Index: &zero}}})
	printAttempt(&b, attemptRecord{Number: 4, Reason: "reflection", Errors: []errorRecord{{Code: "TLP-004", Index: &zero}}})
	printAttempt(&b, attemptRecord{Number: 5, Reason: "reflection", Errors: []errorRecord{{Code: "TLP-022", Message: "TLP-022: canceled"}}})
	for _, want := range []string{"#1 initial: no answer —", "#2 reflection: 0 valid, 1 failed —", "#3 reflection: 1 valid, 1 failed —",
		"#4 reflection: 0 valid, 1 failed —", "#5 reflection: no answer —"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("lacks %q:\n%s", want, b.String())
		}
	}
}
