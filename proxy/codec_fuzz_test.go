package proxy_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/proxy"
)

// cannedUpstream answers every chat request with one body, as it is.
type cannedUpstream struct {
	body []byte
	ct   string
}

func (c cannedUpstream) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	if r.Method != http.MethodPost {
		return &http.Response{StatusCode: 404, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {c.ct}},
		Body: io.NopCloser(bytes.NewReader(c.body)), Request: r}, nil
}

// FuzzTypedStreams feeds arbitrary upstream answers to the Responses and
// Messages codecs, streamed and whole: the proxy never panics, a stream
// it writes is events whose event line names the data's type (what the
// SDKs dispatch on), and a whole answer that was a JSON object stays one.
func FuzzTypedStreams(f *testing.F) {
	for _, s := range []string{respStream, anthStream, respWhole, anthWhole,
		`{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"t","name":"get_weather","input":"@@@ not json"}],"stop_reason":"tool_use"}`,
		"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"get_weather\",\"arguments\":\"\"}}\n\n" +
			"event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"output_index\":0,\"delta\":\"{\\\"city\\\":\"}\n\n",
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"get_weather\",\"input\":{}}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"ci\"}}\n\n",
	} {
		for which := range uint8(4) {
			f.Add([]byte(s), which)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, which uint8) {
		// which: bit 0 the API, bit 1 a whole answer.
		api := []proxy.API{proxy.Responses, proxy.Anthropic}[which%2]
		stream := which&2 == 0
		ct := "application/json"
		if stream {
			ct = "text/event-stream"
		}
		h, err := proxy.NewHandler(proxy.Options{Upstream: "http://upstream.invalid", API: serverKind(api),
			Transport: cannedUpstream{body: body, ct: ct}})
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, chatPath(api), strings.NewReader(chatBody(api, stream, "")))
		h.ServeHTTP(rec, req)
		out := rec.Body.Bytes()
		if !stream {
			if json.Valid(bytes.TrimSpace(body)) && bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) && !json.Valid(out) {
				t.Fatalf("a JSON answer came out as %q", out)
			}
			return
		}
		for _, block := range strings.Split(string(out), "\n\n") {
			if strings.TrimSpace(block) == "" {
				continue
			}
			name, data, ok := strings.Cut(block, "\n")
			if !ok || !strings.HasPrefix(name, "event: ") || !strings.HasPrefix(data, "data: ") {
				t.Fatalf("not an event with its event line: %q", block)
			}
			var v struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(data, "data: ")), &v); err != nil || v.Type != strings.TrimPrefix(name, "event: ") {
				t.Fatalf("event line %q, data %q", name, data)
			}
		}
	})
}
