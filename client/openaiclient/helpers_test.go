package openaiclient

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
)

// weatherTool is the tool most tests declare.
func weatherTool(t testing.TB) toolcall.Tool {
	t.Helper()
	tools, err := toolcall.ParseTools([]byte(`{"type":"function","function":{"name":"get_weather","description":"Weather for a city",
		"parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return tools[0]
}

func userRequest(t testing.TB, prompt string) *client.Request {
	return &client.Request{
		Model:    "qwen3:8b",
		Messages: []client.Message{{Role: "user", Content: prompt}},
		Tools:    []toolcall.Tool{weatherTool(t)},
	}
}

// wantCall is a native call as the adapter should hand it over.
type wantCall struct{ id, name, args string }

func nativeCalls(r *client.Response) []wantCall {
	var out []wantCall
	for _, c := range r.NativeCalls {
		out = append(out, wantCall{c.ID, c.Name, c.Arguments})
	}
	return out
}

// wantErr describes an expected adapter error.
type wantErr struct {
	code       toolcall.Code
	status     int
	retryAfter time.Duration
	retryable  bool
	message    string // a substring of client.TransportError.Message
	// noCause: the error has no *client.TransportError cause.
	noCause bool
}

func checkErr(t *testing.T, err error, want *wantErr) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var te *toolcall.Error
	if !errors.As(err, &te) {
		t.Fatalf("err = %v (%T), want a *toolcall.Error %s", err, err, want.code)
	}
	if te.Code != want.code {
		t.Fatalf("code = %s (%v), want %s", te.Code, err, want.code)
	}
	if want.noCause || want.code == toolcall.CodeCanceled || want.code == toolcall.CodeInvalidInput || want.code == toolcall.CodeTooLarge {
		return
	}
	var tr *client.TransportError
	if !errors.As(err, &tr) {
		t.Fatalf("err = %v has no *client.TransportError cause", err)
	}
	if tr.StatusCode != want.status || tr.RetryAfter != want.retryAfter || tr.Retryable() != want.retryable {
		t.Errorf("transport = status %d, retry-after %v, retryable %v; want %d, %v, %v",
			tr.StatusCode, tr.RetryAfter, tr.Retryable(), want.status, want.retryAfter, want.retryable)
	}
	if !strings.Contains(tr.Message, want.message) {
		t.Errorf("transport message = %q, want it to contain %q", tr.Message, want.message)
	}
}
