package proxy_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// trickle opens a connection to addr and sends a POST whose body never
// arrives in full: the headers announce more than is sent.
func trickle(t *testing.T, addr, path string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, "POST "+path+" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{\"model\":"); err != nil {
		t.Fatal(err)
	}
	return conn
}

// TestSlowRequestBody: a client that trickles its body gets 408 TLP-027
// once request_body_timeout passes, and holds no place among the requests
// in flight meanwhile: with both places taken by such clients (a chat
// request and a pass-through one), a chat request is still served.
func TestSlowRequestBody(t *testing.T) {
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI} {
		t.Run(string(api), func(t *testing.T) {
			up := fakeserver.NewServer(fakeserver.Script{{Content: leakedHermes}}, nil)
			defer up.Close()
			h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: api, Logger: quiet, MaxConcurrent: 2,
				RequestBodyTimeout: 500 * time.Millisecond, IdleTimeout: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			var active atomic.Int64
			srv := httptest.NewUnstartedServer(h)
			srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
				if s == http.StateActive {
					active.Add(1)
				}
			}
			srv.Start()
			defer srv.Close()
			addr := strings.TrimPrefix(srv.URL, "http://")
			other := map[proxy.API]string{proxy.Ollama: "/api/generate", proxy.OpenAI: "/v1/completions"}[api]
			slow := []net.Conn{trickle(t, addr, chatPath(api)), trickle(t, addr, other)}
			for active.Load() < 2 {
				time.Sleep(time.Millisecond)
			}
			a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, false, ""), nil)
			if a.Status != 200 || len(a.Calls) != 1 {
				t.Errorf("a chat request beside two trickled bodies: %d %s", a.Status, a.Raw)
			}
			for _, conn := range slow {
				resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusRequestTimeout || errorCode(t, api, string(body)) != "TLP-027" {
					t.Errorf("a trickled body: %d %s", resp.StatusCode, body)
				}
			}
			if n := len(up.Requests()); n != 1 {
				t.Errorf("%d requests reached the upstream, want 1", n)
			}
		})
	}
}

// TestSlowRequestBodyTransport: through a Transport, a request body that
// does not arrive within the timeout ends the request with 408 TLP-027.
func TestSlowRequestBodyTransport(t *testing.T) {
	up := fakeserver.NewServer(fakeserver.Script{{Content: leakedHermes}}, nil)
	defer up.Close()
	tr, err := proxy.NewTransport(proxy.Options{API: proxy.OpenAI, Logger: quiet, RequestBodyTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write([]byte(`{"model":`))
	req, _ := http.NewRequest(http.MethodPost, up.URL+"/v1/chat/completions", pr)
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout || errorCode(t, proxy.OpenAI, string(body)) != "TLP-027" {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	if n := len(up.Requests()); n != 0 {
		t.Errorf("%d requests reached the upstream", n)
	}
}
