package proxy_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// noTools is chatBody without its tools: a request the proxy does not fix.
func noTools(api proxy.API, stream bool) string {
	b := chatBody(api, stream, "")
	for _, tool := range []string{weatherTool, weatherToolFlat, weatherToolAnthropic} {
		b = strings.Replace(b, `,"tools":[`+tool+`]`, "", 1)
	}
	return b
}

// TestUnfixedTooLarge: an answer the proxy does not fix (no tools, or
// the upstream's own error) is held to max_response_bytes as a fixed one
// is: a whole answer past it is 502 TLP-027, a stream ends after its last
// whole event with the protocol's error; one within it goes out byte for
// byte with its Content-Length.
func TestUnfixedTooLarge(t *testing.T) {
	big := strings.Repeat("word ", 2000)
	for _, api := range allAPIs {
		for _, tc := range []struct {
			name   string
			turn   fakeserver.Turn
			stream bool
			cut    bool
		}{
			{name: "whole", turn: fakeserver.Turn{Content: big}, cut: true},
			{name: "stream", turn: fakeserver.Turn{Content: big, ChunkSize: 100}, stream: true, cut: true},
			{name: "error status", turn: fakeserver.Turn{Status: 500, Error: big}, cut: true},
			{name: "small", turn: fakeserver.Turn{Content: "It is sunny."}},
			{name: "small error", turn: fakeserver.Turn{Status: 404, Error: "no such model"}},
		} {
			t.Run(string(api)+"/"+tc.name, func(t *testing.T) {
				obs := &observed{}
				_, srv := setup(t, api, fakeserver.Script{tc.turn}, func(o *proxy.Options) {
					o.MaxResponseBytes = 4 << 10
					o.Observer = obs
					o.Config = config.Default()
					o.Config.MaxRetries = 0
					o.Config.TransportRetries = 0
				})
				resp, err := http.Post(srv.URL+chatPath(api), "application/json", strings.NewReader(noTools(api, tc.stream)))
				if err != nil {
					t.Fatal(err)
				}
				data, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					t.Fatalf("the answer was cut without an end: %v", err)
				}
				raw := string(data)
				if cl := resp.Header.Get("Content-Length"); cl != "" && cl != strconv.Itoa(len(data)) {
					t.Errorf("Content-Length %s for %d bytes", cl, len(data))
				}
				st := obs.last(t)
				if !tc.cut {
					if st.Outcome != proxy.OutcomeUnchanged || resp.StatusCode != tc.turn.Status && tc.turn.Status != 0 {
						t.Errorf("%d, stats %+v\n%s", resp.StatusCode, st, raw)
					}
					return
				}
				if st.Outcome != proxy.OutcomeError || len(st.ErrorCodes) == 0 || st.ErrorCodes[len(st.ErrorCodes)-1] != "TLP-027" {
					t.Errorf("stats %+v", st)
				}
				if len(data) > 4<<10+1024 {
					t.Errorf("%d bytes went out past the cap", len(data))
				}
				if !tc.stream {
					if resp.StatusCode != http.StatusBadGateway || errorCode(t, api, raw) != "TLP-027" {
						t.Errorf("%d %s", resp.StatusCode, raw)
					}
					return
				}
				// Every event before the error is whole, and the last one
				// is the protocol's error.
				var last string
				for _, line := range strings.Split(strings.TrimSpace(raw), "\n") {
					line = strings.TrimSpace(line)
					if line == "" || strings.HasPrefix(line, "event:") {
						continue
					}
					line = strings.TrimPrefix(line, "data: ")
					if line != "[DONE]" && !json.Valid([]byte(line)) {
						t.Errorf("a cut event went out: %q", line)
					}
					last = line
				}
				if !strings.Contains(last, "TLP-027") || !strings.Contains(last, "error") {
					t.Errorf("the stream does not end with the protocol's error: %q", last)
				}
			})
		}
	}
}
