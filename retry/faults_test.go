package retry_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/retry"
)

// TestIncompleteAnswerIsATransportFailure: an answer that ended without
// the server's final message (the connection closed mid-answer, or a body
// that is not the protocol's stream) is the server failing: it is
// repeated on the transport budget, with the same output budget, and is
// not a truncation; when the budget is spent the run ends with TLP-015.
func TestIncompleteAnswerIsATransportFailure(t *testing.T) {
	cut := step{resp: &client.Response{Content: "<tool_call>\n{\"name\": \"get_", CompletionTokens: 40}}
	m := &fakeModel{steps: []step{cut, text(hermes("get_weather", `{"city": "Paris"}`))}}
	loop, _ := newLoop(t, m, nil)
	req := userTurn()
	req.MaxTokens = 50
	out, err := loop.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("err = %v", err)
	}
	var got []int
	for _, r := range m.reqs {
		got = append(got, r.MaxTokens)
	}
	if fmt.Sprint(got) != "[50 50]" {
		t.Errorf("max tokens per request %v, want [50 50]: the output budget is not raised for a server fault", got)
	}
	if len(out.Attempts) != 1 || out.Attempts[0].Truncated || out.Attempts[0].TransportRetries != 1 {
		t.Errorf("attempts = %+v, want one, with one transport retry", out.Attempts)
	}

	m = &fakeModel{steps: []step{cut, cut, cut, cut, cut}}
	loop, _ = newLoop(t, m, func(c *config.Config) { c.TransportRetries = 2 })
	out, err = loop.Run(context.Background(), userTurn())
	if !errors.Is(err, toolcall.ErrTransport) || !errors.Is(err, retry.ErrIncompleteAnswer) || errors.Is(err, toolcall.ErrTruncated) {
		t.Fatalf("err = %v, want TLP-015 for the incomplete answer", err)
	}
	if m.calls() != 3 || out.Attempts[0].Truncated {
		t.Errorf("%d requests, attempts %+v; want 3 requests (2 transport retries), no truncation", m.calls(), out.Attempts)
	}
}
