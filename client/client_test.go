package client_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dialectkit/toolcall/client"
)

func TestStatusText(t *testing.T) {
	for code, want := range map[int]string{
		429: "429 Too Many Requests",
		503: "503 Service Unavailable",
		599: "599",
	} {
		if got := client.StatusText(code); got != want {
			t.Errorf("StatusText(%d) = %q, want %q", code, got, want)
		}
	}
}

func TestTransportErrorSaysWhatFailed(t *testing.T) {
	cause := errors.New("connection refused")
	for _, tc := range []struct {
		err  *client.TransportError
		want string
	}{
		{&client.TransportError{StatusCode: 500, Message: "model crashed"}, "server answered 500 Internal Server Error: model crashed"},
		{&client.TransportError{StatusCode: 429}, "server answered 429 Too Many Requests"},
		{&client.TransportError{Err: cause}, "connection refused"},
		{&client.TransportError{}, "transport failure"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

// A TransportError says what the server answered, with the status's
// reason phrase.
func ExampleTransportError() {
	err := fmt.Errorf("chat: %w", &client.TransportError{StatusCode: 503, Message: "loading model"})
	var te *client.TransportError
	if errors.As(err, &te) {
		fmt.Println(te.StatusCode, te)
	}
	// Output: 503 server answered 503 Service Unavailable: loading model
}
