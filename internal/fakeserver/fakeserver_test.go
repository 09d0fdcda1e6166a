package fakeserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func post(t *testing.T, url, body string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, string(data)
}

func TestOllamaStream(t *testing.T) {
	srv := NewServer(Script{{
		Thinking: "hmm", Content: "Héllo", ChunkSize: 2, PromptTokens: 10, CompletionTokens: 5,
		Calls: []Call{{Name: "get_weather", Arguments: `{"city":"Paris"}`}, {ID: "call_s", Name: "f", Arguments: `{"a":1}`, AsString: true}},
	}}, nil)
	defer srv.Close()
	resp, body := post(t, srv.URL+"/api/chat", `{"model":"qwen3","messages":[{"role":"user","content":"hi"}]}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("status %d, type %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var thinking, content strings.Builder
	var calls []string
	var last map[string]any
	for line := range strings.Lines(body) {
		var r struct {
			Message struct {
				Content, Thinking string
				ToolCalls         []json.RawMessage `json:"tool_calls"`
			}
			Done bool
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		thinking.WriteString(r.Message.Thinking)
		content.WriteString(r.Message.Content)
		for _, c := range r.Message.ToolCalls {
			calls = append(calls, string(c))
		}
		_ = json.Unmarshal([]byte(line), &last)
	}
	if thinking.String() != "hmm" || content.String() != "Héllo" {
		t.Errorf("thinking %q content %q", thinking.String(), content.String())
	}
	want := []string{
		`{"id":"call_0x0","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}`,
		`{"id":"call_s","function":{"index":1,"name":"f","arguments":"{\"a\":1}"}}`,
	}
	if !reflect.DeepEqual(calls, want) {
		t.Errorf("calls = %s", calls)
	}
	if last["done"] != true || last["done_reason"] != "stop" || last["prompt_eval_count"] != float64(10) || last["eval_count"] != float64(5) {
		t.Errorf("final message = %v", last)
	}
}

func TestOllamaRejections(t *testing.T) {
	srv := NewServer(Script{{Content: "ok"}}, &Options{Models: []string{"qwen3"}})
	defer srv.Close()
	tests := []struct {
		name, body string
		status     int
		msg        string
	}{
		{"string arguments in history", `{"model":"qwen3","messages":[{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":"{\"a\":1}"}}]}]}`,
			400, "Value looks like object, but can't find closing '}' symbol"},
		{"unknown model", `{"model":"llama3","messages":[]}`, 404, "model 'llama3' not found"},
		{"no model", `{"messages":[]}`, 400, "model is required"},
		{"bad body", `{"model":`, 400, "invalid request body"},
		{"object arguments are fine", `{"model":"qwen3","stream":false,"messages":[{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":{"a":1}}}]}]}`, 200, ""},
	}
	for _, tt := range tests {
		resp, body := post(t, srv.URL+"/api/chat", tt.body)
		var e struct{ Error string }
		_ = json.Unmarshal([]byte(body), &e)
		if resp.StatusCode != tt.status || !strings.Contains(e.Error, tt.msg) {
			t.Errorf("%s: %d %s", tt.name, resp.StatusCode, body)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != len(tests) {
		t.Fatalf("%d requests recorded", len(reqs))
	}
	for i, r := range reqs[:len(reqs)-1] {
		if r.Seq != -1 {
			t.Errorf("rejected request %d has seq %d", i, r.Seq)
		}
	}
	if last := reqs[len(reqs)-1]; last.Seq != 0 || last.Stream || string(last.Messages[0].ToolCalls[0].Arguments) != `{"a":1}` {
		t.Errorf("accepted request = %+v", last)
	}
}

func TestOpenAIStream(t *testing.T) {
	srv := NewServer(Script{{
		Calls:      []Call{{ID: "c0", Name: "f", Arguments: `{"a":"xyz"}`}, {ID: "c1", Name: "g", Arguments: `{"b":2}`}},
		ChunkSize:  4,
		Interleave: true, PromptTokens: 3, CompletionTokens: 4,
	}}, &Options{APIKey: "k"})
	defer srv.Close()
	resp, _ := post(t, srv.URL+"/v1/chat/completions", `{"model":"m","messages":[],"stream":true}`)
	if resp.StatusCode != 401 {
		t.Errorf("without the key: %d", resp.StatusCode)
	}
	resp, body := post(t, srv.URL+"/v1/chat/completions",
		`{"model":"m","messages":[],"stream":true,"stream_options":{"include_usage":true}}`, "Authorization", "Bearer k")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var order []string
	args := map[int]string{}
	var finish string
	var usage, done bool
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			done = true
			continue
		}
		var c openAIChunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatal(err)
		}
		usage = usage || c.Usage != nil && c.Usage.TotalTokens == 7
		for _, ch := range c.Choices {
			if ch.FinishReason != nil {
				finish = *ch.FinishReason
			}
			for _, tc := range ch.Delta.ToolCalls {
				if tc.Function.Arguments != nil && *tc.Function.Arguments != "" {
					order = append(order, fmt.Sprint(*tc.Index))
					args[*tc.Index] += *tc.Function.Arguments
				}
			}
		}
	}
	if args[0] != `{"a":"xyz"}` || args[1] != `{"b":2}` {
		t.Errorf("arguments = %v", args)
	}
	if got := strings.Join(order, ""); got != "01010" {
		t.Errorf("fragment order = %s, want interleaved", got)
	}
	if finish != "tool_calls" || !usage || !done {
		t.Errorf("finish %q usage %v done %v", finish, usage, done)
	}
}

func TestOpenAIWholeAndErrors(t *testing.T) {
	srv := NewServer(Script{
		{Content: "hi", Thinking: "t"},
		{Status: 429, Error: "slow down", RetryAfter: "3"},
	}, nil)
	defer srv.Close()
	_, body := post(t, srv.URL+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`)
	var c openAIChunk
	if err := json.Unmarshal([]byte(body), &c); err != nil || c.Object != "chat.completion" || *c.Choices[0].Message.Content != "hi" ||
		c.Choices[0].Message.ReasoningContent != "t" || *c.Choices[0].FinishReason != "stop" {
		t.Errorf("whole answer = %s (%v)", body, err)
	}
	if got := srv.Requests()[0].Messages[0].Content; got != "ab" {
		t.Errorf("content parts read as %q", got)
	}
	for range 2 { // the last turn repeats
		resp, body := post(t, srv.URL+"/v1/chat/completions", `{"model":"m","messages":[]}`)
		if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || !strings.Contains(body, `"rate_limit_error"`) {
			t.Errorf("%d %v %s", resp.StatusCode, resp.Header, body)
		}
	}
	resp, body := post(t, srv.URL+"/v1/chat/completions",
		`{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":{"a":1}}}]}]}`)
	if resp.StatusCode != 400 || !strings.Contains(body, "invalid tool call arguments") {
		t.Errorf("object arguments on the OpenAI endpoint: %d %s", resp.StatusCode, body)
	}
}

func TestModelLists(t *testing.T) {
	srv := NewServer(nil, &Options{Models: []string{"qwen3:8b"}})
	defer srv.Close()
	for path, want := range map[string]string{
		"/api/tags":  `{"models":[{"name":"qwen3:8b","model":"qwen3:8b"}]}`,
		"/v1/models": `{"data":[{"id":"qwen3:8b","object":"model","owned_by":"fakeserver"}],"object":"list"}`,
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.TrimSpace(string(data)) != want {
			t.Errorf("%s = %s", path, data)
		}
	}
}

func TestPieces(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want []string
	}{
		{"", 3, nil},
		{"abc", 0, []string{"abc"}},
		{"abcdefg", 3, []string{"abc", "def", "g"}},
		{"aé東", 2, []string{"a", "é", "東"}},
		{"東京", 1, []string{"東", "京"}},
	} {
		got := pieces(tt.s, tt.n)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("pieces(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
		for _, p := range got {
			if !utf8.ValidString(p) {
				t.Errorf("piece %q splits a rune", p)
			}
		}
	}
}
