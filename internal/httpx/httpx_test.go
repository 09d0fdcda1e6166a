package httpx

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
)

func TestServerMessage(t *testing.T) {
	tests := []struct{ body, want string }{
		{`{"error":"model 'x' not found"}`, "model 'x' not found"},
		{`{"error":{"message":"Rate limit reached","type":"requests"}}`, "Rate limit reached"},
		{`{"object":"error","message":"bad tool choice","code":400}`, "bad tool choice"},
		{`{"detail":"Not Found"}`, "Not Found"},
		{`{"detail":[{"loc":["body"],"msg":"field required"}]}`, `[{"loc":["body"],"msg":"field required"}]`},
		{"  upstream connect error\n", "upstream connect error"},
		{``, ``},
		{`{"error":{"code":500}}`, `{"code":500}`},
	}
	for _, tt := range tests {
		if got := ServerMessage([]byte(tt.body)); got != tt.want {
			t.Errorf("ServerMessage(%s) = %q, want %q", tt.body, got, tt.want)
		}
	}
	long := ServerMessage([]byte(strings.Repeat("é", MaxServerMessage)))
	if len(long) > MaxServerMessage+len("…") || !strings.HasSuffix(long, "…") || !strings.HasPrefix(long, "é") {
		t.Errorf("long message not clipped on a rune boundary: %d bytes", len(long))
	}
}

func TestStatusError(t *testing.T) {
	tests := []struct {
		status    int
		code      toolcall.Code
		retryable bool
	}{
		{400, toolcall.CodeRequestRejected, false},
		{422, toolcall.CodeRequestRejected, false},
		{401, toolcall.CodeTransport, false},
		{403, toolcall.CodeTransport, false},
		{404, toolcall.CodeTransport, false},
		{408, toolcall.CodeTransport, true},
		{413, toolcall.CodeTransport, false},
		{429, toolcall.CodeTransport, true},
		{500, toolcall.CodeTransport, true},
		{502, toolcall.CodeTransport, true},
		{504, toolcall.CodeTransport, true},
	}
	for _, tt := range tests {
		e := StatusError(tt.status, time.Second, "the server quotes {\"city\":\"Paris\"}")
		var te *client.TransportError
		if e.Code != tt.code || !errors.As(e, &te) || te.Retryable() != tt.retryable || te.RetryAfter != time.Second {
			t.Errorf("%d: code %s, cause %+v", tt.status, e.Code, te)
		}
		if strings.Contains(e.Error(), "Paris") {
			t.Errorf("%d: the server's message reached Error(): %s", tt.status, e.Error())
		}
	}
}

func TestLimitedReader(t *testing.T) {
	for _, tt := range []struct {
		size, limit int64
		fail        bool
	}{{10, 10, false}, {11, 10, true}, {0, 0, false}, {1, 0, true}, {100000, 65536, true}} {
		r := &LimitedReader{r: bytes.NewReader(make([]byte, tt.size)), n: tt.limit}
		data, err := io.ReadAll(r)
		if tt.fail != errors.Is(err, ErrTooLarge) {
			t.Errorf("size %d limit %d: err = %v", tt.size, tt.limit, err)
		}
		if !tt.fail && int64(len(data)) != tt.size {
			t.Errorf("size %d limit %d: read %d", tt.size, tt.limit, len(data))
		}
	}
}
