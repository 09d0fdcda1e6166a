package proxy_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

const weatherTool = `{"type":"function","function":{"name":"get_weather","description":"Weather of a city","parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}}`

// chatBody is a chat request for api with the weather tool; extra fields
// are added at the top level.
func chatBody(api proxy.API, stream bool, extra string) string {
	s := "false"
	if stream {
		s = "true"
	}
	b := `{"model":"qwen3:8b","stream":` + s + `,"messages":[{"role":"user","content":"Weather in Paris?"}],"tools":[` + weatherTool + `]`
	switch api {
	case proxy.Responses:
		b = `{"model":"qwen3:8b","stream":` + s + `,"input":[{"role":"user","content":"Weather in Paris?"}],"tools":[` + weatherToolFlat + `]`
	case proxy.Anthropic:
		b = `{"model":"qwen3:8b","max_tokens":1024,"stream":` + s + `,"messages":[{"role":"user","content":"Weather in Paris?"}],"tools":[` + weatherToolAnthropic + `]`
	}
	if api == proxy.OpenAI && stream {
		b += `,"stream_options":{"include_usage":true}`
	}
	if extra != "" {
		b += "," + extra
	}
	return b + "}"
}

// weatherToolFlat and weatherToolAnthropic are the weather tool in the
// Responses API's and the Anthropic Messages API's shapes.
const (
	weatherToolFlat      = `{"type":"function","name":"get_weather","description":"Weather of a city","parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}`
	weatherToolAnthropic = `{"name":"get_weather","description":"Weather of a city","input_schema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}`
)

func chatPath(api proxy.API) string {
	switch api {
	case proxy.OpenAI:
		return "/v1/chat/completions"
	case proxy.Responses:
		return "/v1/responses"
	case proxy.Anthropic:
		return "/v1/messages"
	}
	return "/api/chat"
}

// serverKind is the upstream kind a test serves api under: the Responses
// API under OpenAI-compatible servers, the Messages API under Ollama.
func serverKind(api proxy.API) proxy.API {
	switch api {
	case proxy.Responses:
		return proxy.OpenAI
	case proxy.Anthropic:
		return proxy.Ollama
	}
	return api
}

// gotCall is a call as the client sees it.
type gotCall struct {
	ID, Name, Args string
	Index          int
}

// answer is what a client assembled from a fixed answer, streamed or not.
type answer struct {
	Status    int
	Content   string
	Reasoning string
	Calls     []gotCall
	Finish    string // done_reason or finish_reason
	Usage     bool   // the final chunk (or answer) carried token counts
	Raw       string
	Chunks    int
	// CallErrors is the proxy.CallErrorsHeader of the answer.
	CallErrors string
}

func (a answer) names() string {
	var n []string
	for _, c := range a.Calls {
		n = append(n, c.Name+" "+c.Args)
	}
	return strings.Join(n, "; ")
}

func compact(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	return b.String()
}

// setup starts a fake upstream with the script and a proxy Handler in
// front of it.
func setup(t *testing.T, api proxy.API, script fakeserver.Script, mod func(*proxy.Options)) (*fakeserver.Server, *httptest.Server) {
	t.Helper()
	up := fakeserver.NewServer(script, nil)
	t.Cleanup(up.Close)
	opts := proxy.Options{Upstream: up.URL, API: serverKind(api), Logger: quiet}
	if mod != nil {
		mod(&opts)
	}
	h, err := proxy.NewHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return up, srv
}

// post sends a chat request and reads the answer the way the protocol's
// clients do.
func post(t *testing.T, c *http.Client, url string, api proxy.API, body string, header http.Header) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, vs := range header {
		req.Header[k] = vs
	}
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := answer{Status: resp.StatusCode, Raw: string(data), CallErrors: resp.Header.Get(proxy.CallErrorsHeader)}
	if resp.StatusCode != 200 {
		return a
	}
	ct := resp.Header.Get("Content-Type")
	switch {
	case api == proxy.Responses && strings.Contains(ct, "event-stream"):
		readResponsesSSE(t, &a, data)
	case api == proxy.Responses:
		readResponse(t, &a, data)
	case api == proxy.Anthropic && strings.Contains(ct, "event-stream"):
		readAnthropicSSE(t, &a, data)
	case api == proxy.Anthropic:
		readAnthropicMessage(t, &a, data)
	case api == proxy.OpenAI && strings.Contains(ct, "event-stream"):
		readSSE(t, &a, data)
	case api == proxy.OpenAI:
		readCompletion(t, &a, data)
	default:
		readNDJSON(t, &a, data)
	}
	return a
}

type oMsg struct {
	Content   *string `json:"content"`
	Thinking  string  `json:"thinking"`
	Reasoning string  `json:"reasoning_content"`
	ToolCalls []struct {
		Index    *int   `json:"index"`
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Index     int             `json:"index"`
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func readNDJSON(t *testing.T, a *answer, data []byte) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		a.Chunks++
		var v struct {
			Message    oMsg   `json:"message"`
			Done       bool   `json:"done"`
			DoneReason string `json:"done_reason"`
			EvalCount  int    `json:"eval_count"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("not an Ollama line: %q: %v", line, err)
		}
		if v.Message.Content != nil {
			a.Content += *v.Message.Content
		}
		a.Reasoning += v.Message.Thinking
		for _, c := range v.Message.ToolCalls {
			if c.ID == "" {
				t.Errorf("a call without id: %s", line)
			}
			a.Calls = append(a.Calls, gotCall{ID: c.ID, Name: c.Function.Name, Args: compact(string(c.Function.Arguments)), Index: c.Function.Index})
		}
		if v.Done {
			a.Finish = v.DoneReason
			a.Usage = v.EvalCount > 0
		}
	}
}

func readCompletion(t *testing.T, a *answer, data []byte) {
	var v struct {
		Choices []struct {
			Message      oMsg   `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(data, &v); err != nil || len(v.Choices) == 0 {
		t.Fatalf("not a chat completion: %s (%v)", data, err)
	}
	m := v.Choices[0].Message
	if m.Content != nil {
		a.Content = *m.Content
	}
	a.Reasoning = m.Reasoning
	a.Finish = v.Choices[0].FinishReason
	a.Usage = v.Usage != nil
	for _, c := range m.ToolCalls {
		var args string
		if err := json.Unmarshal(c.Function.Arguments, &args); err != nil {
			t.Errorf("OpenAI arguments are not a JSON string: %s", c.Function.Arguments)
		}
		if c.ID == "" || c.Type != "function" {
			t.Errorf("call without id or type: %+v", c)
		}
		a.Calls = append(a.Calls, gotCall{ID: c.ID, Name: c.Function.Name, Args: compact(args)})
	}
}

func readSSE(t *testing.T, a *answer, data []byte) {
	type acc struct {
		id, name, args string
	}
	calls := map[int]*acc{}
	done := false
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "data:") {
			continue
		}
		payload := strings.TrimSpace(strings.TrimPrefix(line, "data:"))
		if payload == "[DONE]" {
			done = true
			continue
		}
		a.Chunks++
		var v struct {
			Choices []struct {
				Delta        oMsg    `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage *struct {
				CompletionTokens int `json:"completion_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal([]byte(payload), &v); err != nil {
			t.Fatalf("not an SSE chunk: %q: %v", payload, err)
		}
		if v.Usage != nil {
			a.Usage = true
		}
		for _, ch := range v.Choices {
			if ch.Delta.Content != nil {
				a.Content += *ch.Delta.Content
			}
			a.Reasoning += ch.Delta.Reasoning
			for _, tc := range ch.Delta.ToolCalls {
				if tc.Index == nil {
					t.Fatalf("a tool_calls delta without index: %s", payload)
				}
				c := calls[*tc.Index]
				if c == nil {
					if tc.ID == "" || tc.Function.Name == "" {
						t.Errorf("the first delta of call %d lacks id or name: %s", *tc.Index, payload)
					}
					c = &acc{id: tc.ID, name: tc.Function.Name}
					calls[*tc.Index] = c
				}
				var frag string
				if len(tc.Function.Arguments) > 0 {
					if err := json.Unmarshal(tc.Function.Arguments, &frag); err != nil {
						t.Errorf("argument fragment is not a JSON string: %s", payload)
					}
				}
				c.args += frag
			}
			if ch.FinishReason != nil {
				a.Finish = *ch.FinishReason
			}
		}
	}
	if !done {
		t.Errorf("the stream has no [DONE]")
	}
	idx := make([]int, 0, len(calls))
	for i := range calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for n, i := range idx {
		if i != n {
			t.Errorf("call indexes are not 0..n-1: %v", idx)
		}
		c := calls[i]
		a.Calls = append(a.Calls, gotCall{ID: c.id, Name: c.name, Args: compact(c.args), Index: i})
	}
}

func newServer(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// quiet is a logger that drops the per-request records of the tests.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// hangGuard is the idle timeout of tests whose upstream holds its answer
// until the client has seen a part of it: a proxy that holds that part
// too ends the answer with an idle error after it, instead of hanging.
// A proxy that works never waits for it.
const hangGuard = 10 * time.Second

// readReleasing reads a streamed answer to its end and closes release once
// a line satisfies seen (the upstream holds the rest of its answer until
// then); it returns the lines read.
func readReleasing(resp *http.Response, seen func(line string) bool, release chan struct{}) string {
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var all strings.Builder
	open := true
	for {
		line, err := br.ReadString('\n')
		all.WriteString(line)
		if open && seen(line) {
			close(release)
			open = false
		}
		if err != nil {
			break
		}
	}
	if open {
		close(release)
	}
	return all.String()
}
