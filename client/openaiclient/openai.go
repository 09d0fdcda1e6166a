// Package openaiclient is the client.Model of OpenAI-compatible chat servers
// (/v1/chat/completions): llama.cpp's server, vLLM, LM Studio, Ollama's /v1
// and others, streamed as server-sent events or read as one object.
package openaiclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/httpx"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/stream"
)

// Options configure an OpenAI-compatible model. The zero value (or
// nil) streams, without a key.
type Options struct {
	// APIKey is sent as "Authorization: Bearer KEY" when set. It is never
	// logged nor put in an error.
	APIKey string
	// HTTPClient sends the requests; nil is a client without an overall
	// timeout (the context bounds each request).
	HTTPClient *http.Client
	// DisableStreaming asks for one chat.completion object instead of
	// server-sent events.
	DisableStreaming bool
	// SendReasoning sends an assistant message's Reasoning back as
	// "reasoning_content", which llama.cpp reads; other servers may refuse
	// the field, so it is off by default.
	SendReasoning bool
	// MaxResponseBytes bounds one answer; 0 is client.DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

// Client is a client.Model behind an OpenAI-compatible /v1/chat/completions
// endpoint: llama.cpp's server, vLLM, LM Studio, Ollama's /v1, and others.
// Tool call fragments are accumulated by index with a stream.Accumulator;
// arguments arrive as a JSON string and are handed over as the text it
// holds. Fragments that do not fit together (a second id for one call, a
// fragment for a call already complete, …) fail the answer with TLP-008.
// It is safe for concurrent use.
type Client struct {
	endpoint string
	client   *http.Client
	opts     Options
}

// New returns a client.Model for the server at baseURL. The chat endpoint is
// baseURL + "/v1/chat/completions", or baseURL + "/chat/completions" when
// baseURL already ends in "/v1"; a baseURL ending in "/chat/completions" is
// used as it is.
func New(baseURL string, opts *Options) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, toolcall.NewError(toolcall.CodeInvalidConfig,
			fmt.Sprintf("OpenAI-compatible base URL %q is not an http or https URL", baseURL))
	}
	path := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
	case strings.HasSuffix(path, "/v1"):
		path += "/chat/completions"
	default:
		path += "/v1/chat/completions"
	}
	u.Path, u.RawPath = path, ""
	o := &Client{endpoint: u.String(), client: &http.Client{}}
	if opts != nil {
		o.opts = *opts
	}
	if o.opts.HTTPClient != nil {
		copied := *o.opts.HTTPClient
		o.client = &copied
	}
	// The idle timeout a request's context carries (client.WithIdleTimeout)
	// is watched under the caller's transport.
	o.client.Transport = &httpx.IdleTransport{Next: o.client.Transport}
	return o, nil
}

// Endpoint returns the URL requests are sent to.
func (o *Client) Endpoint() string { return o.endpoint }

// Chat sends req and reads the answer, streamed unless DisableStreaming.
func (o *Client) Chat(ctx context.Context, req *client.Request) (*client.Response, error) {
	body, err := o.requestBody(req)
	if err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, o.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, toolcall.Errorf(toolcall.CodeInvalidConfig, err, "the request could not be built")
	}
	hreq.Header.Set("Content-Type", "application/json")
	if o.opts.DisableStreaming {
		hreq.Header.Set("Accept", "application/json")
	} else {
		hreq.Header.Set("Accept", "text/event-stream")
	}
	if o.opts.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+o.opts.APIKey)
	}
	resp, err := o.client.Do(hreq)
	if err != nil {
		return nil, httpx.ConnectionError(ctx, err, "the server could not be reached")
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		msg := httpx.ReadErrorBody(resp.Body)
		if ctx.Err() != nil {
			return nil, httpx.CanceledError(ctx)
		}
		return nil, httpx.StatusError(resp.StatusCode, client.RetryAfter(resp.Header, time.Now()), msg)
	}
	r := httpx.NewLimitedReader(resp.Body, httpx.ResponseLimit(o.opts.MaxResponseBytes))
	var out *client.Response
	// A server that ignores "stream": true answers with one JSON object.
	if o.opts.DisableStreaming || strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		out, err = readOpenAICompletion(r, resp.StatusCode)
	} else {
		out, err = readOpenAIEvents(r, resp.StatusCode)
	}
	switch {
	case ctx.Err() != nil:
		return nil, httpx.CanceledError(ctx)
	case errors.Is(err, httpx.ErrTooLarge):
		return nil, toolcall.Errorf(toolcall.CodeTooLarge, err,
			fmt.Sprintf("the server's answer is larger than %d bytes", httpx.ResponseLimit(o.opts.MaxResponseBytes)))
	case err != nil:
		var te *toolcall.Error
		if errors.As(err, &te) {
			return nil, te
		}
		return nil, httpx.ConnectionError(ctx, err, "the connection failed during the answer")
	}
	return out, nil
}

// openAIRequestMessage is a message of the request.
type openAIRequestMessage struct {
	Role             string              `json:"role"`
	Content          string              `json:"content"`
	ReasoningContent string              `json:"reasoning_content,omitempty"`
	ToolCalls        []openAIRequestCall `json:"tool_calls,omitempty"`
	ToolCallID       string              `json:"tool_call_id,omitempty"`
}

type openAIRequestCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// requestBody encodes req. Options go at the top level of the body
// (temperature, top_p, seed, …) but cannot replace the fields the adapter
// sets.
func (o *Client) requestBody(req *client.Request) ([]byte, error) {
	if req == nil {
		return nil, toolcall.NewError(toolcall.CodeInvalidInput, "nil request")
	}
	body := make(map[string]any, len(req.Options)+6)
	for k, v := range req.Options {
		body[k] = v
	}
	msgs, err := o.messages(req.Messages)
	if err != nil {
		return nil, err
	}
	body["model"] = req.Model
	body["messages"] = msgs
	body["stream"] = !o.opts.DisableStreaming
	if !o.opts.DisableStreaming {
		body["stream_options"] = map[string]bool{"include_usage": true}
	}
	if req.MaxTokens > 0 {
		body["max_tokens"] = req.MaxTokens
	}
	if len(req.Tools) > 0 {
		tools := make([]json.RawMessage, len(req.Tools))
		for i, t := range req.Tools {
			if tools[i], err = t.MarshalOpenAI(); err != nil {
				return nil, toolcall.Errorf(toolcall.CodeInvalidTool, err, fmt.Sprintf("tool %q cannot be encoded", t.Name))
			}
		}
		body["tools"] = tools
	}
	data, err := json.Marshal(body)
	if err != nil {
		return nil, toolcall.Errorf(toolcall.CodeInvalidInput, err, "the request cannot be encoded as JSON")
	}
	return data, nil
}

// messages converts the history: assistant tool call arguments become the
// JSON string of the object, as the protocol wants, and tool results carry
// the id of the call they answer.
func (o *Client) messages(msgs []client.Message) ([]openAIRequestMessage, error) {
	out := make([]openAIRequestMessage, len(msgs))
	for i, m := range msgs {
		out[i] = openAIRequestMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
		if o.opts.SendReasoning && m.Role == "assistant" {
			out[i].ReasoningContent = m.Reasoning
		}
		for j, c := range m.ToolCalls {
			args, err := argumentsObject(c.Arguments)
			if err != nil {
				return nil, toolcall.Errorf(toolcall.CodeInvalidInput, err,
					fmt.Sprintf("message %d, tool call %d: arguments are not a JSON object", i, j))
			}
			tc := openAIRequestCall{ID: c.ID, Type: "function"}
			tc.Function.Name, tc.Function.Arguments = c.Name, args
			out[i].ToolCalls = append(out[i].ToolCalls, tc)
		}
	}
	return out, nil
}

// argumentsObject returns the compact text of a JSON object, unwrapping one
// level of string encoding; empty arguments are "{}".
func argumentsObject(raw json.RawMessage) (string, error) {
	text := bytes.TrimSpace(raw)
	if len(text) == 0 || string(text) == "null" {
		return "{}", nil
	}
	if text[0] == '"' {
		var inner string
		if err := json.Unmarshal(text, &inner); err != nil {
			return "", err
		}
		text = bytes.TrimSpace([]byte(inner))
	}
	if len(text) == 0 || text[0] != '{' {
		return "", errors.New("not a JSON object")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, text); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// openAIDelta is an answer's message, or a streamed delta.
type openAIDelta struct {
	Content          json.RawMessage `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	// Reasoning is the field name vLLM and OpenRouter use.
	Reasoning string               `json:"reasoning"`
	ToolCalls []openAIToolFragment `json:"tool_calls"`
}

type openAIToolFragment struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type openAIUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// openAIAnswer is a chat.completion object or a chat.completion.chunk.
type openAIAnswer struct {
	Choices []struct {
		Index        int          `json:"index"`
		Delta        *openAIDelta `json:"delta"`
		Message      *openAIDelta `json:"message"`
		FinishReason *string      `json:"finish_reason"`
	} `json:"choices"`
	Usage *openAIUsage    `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// openAIAnswerError is the error of an {"error": …} object sent with a 200:
// the error the server would have answered without streaming, so its
// client.TransportError carries that status (the object's numeric code, or 500).
func openAIAnswerError(raw json.RawMessage) *toolcall.Error {
	var obj struct {
		Code json.Number `json:"code"`
	}
	status := http.StatusInternalServerError
	if json.Unmarshal(raw, &obj) == nil {
		if n, err := obj.Code.Int64(); err == nil && n >= 400 && n < 600 {
			status = int(n)
		}
	}
	return httpx.StatusError(status, 0, httpx.ClipMessage(httpx.ErrorFieldText(raw), httpx.MaxServerMessage))
}

// openAIAccumulator folds an answer's deltas into a client.Response.
type openAIAccumulator struct {
	content, reasoning strings.Builder
	calls              openAICalls
	resp               client.Response
}

func (a *openAIAccumulator) message(m *openAIDelta) {
	a.content.WriteString(openAIContent(m.Content))
	a.reasoning.WriteString(m.ReasoningContent)
	a.reasoning.WriteString(m.Reasoning)
	for i := range m.ToolCalls {
		a.calls.add(&m.ToolCalls[i])
	}
}

// openAICalls assembles tool_calls entries into calls through a
// stream.Accumulator, which correlates fragments by index, lets the
// fragments of several calls interleave, and reports inconsistent ones
// (TLP-008). The accumulator is Raw: the calls are handed over as the
// server sent them, and the reflection loop finishes them.
//
// The protocol gives every entry an index. An entry without one (servers
// that send whole calls leave it out) starts a new call when it brings a
// new id, and continues the last call started otherwise. Arguments sent as
// a JSON object instead of a string are a whole call's arguments.
type openAICalls struct {
	acc   *stream.Accumulator
	calls []dialects.RawCall
	// err is the first inconsistency found, which fails the answer.
	err *toolcall.Error
	// next is one past the highest index started; last and lastID are the
	// index and id of the call started last, for entries without an index.
	next, last int
	lastID     string
}

// add feeds one tool_calls entry to the accumulator.
func (c *openAICalls) add(e *openAIToolFragment) {
	if c.acc == nil {
		// The answer as a whole is bounded (MaxResponseBytes), and with it
		// every call's arguments; the loop applies its own size limit.
		c.acc = stream.NewAccumulator(&stream.AccumulatorOptions{
			Parse: dialects.Options{Lenient: lenient.Options{MaxSize: -1}},
			Raw:   true,
		})
	}
	f := stream.Fragment{ID: e.ID, Type: e.Type, Name: e.Function.Name}
	f.Arguments, f.Whole = openAIArguments(e.Function.Arguments)
	switch {
	case e.Index != nil:
		f.Index = *e.Index
		if f.Index >= c.next {
			c.next, c.last, c.lastID = f.Index+1, f.Index, e.ID
		}
	case c.next > 0 && (e.ID == "" || e.ID == c.lastID):
		f.Index = c.last
	default:
		f.Index = c.next
		c.next, c.last, c.lastID = f.Index+1, f.Index, e.ID
	}
	done, err := c.acc.Add(f)
	c.fail(coded.As(err))
	c.collect(done)
}

// collect keeps completed calls; a completion carrying TLP-008 fails the
// answer, any other error travels with its call.
func (c *openAICalls) collect(done []stream.Completion) {
	for i := range done {
		if err := coded.As(done[i].Err); err != nil && err.Code == toolcall.CodeStream {
			c.fail(err)
			continue
		}
		c.calls = append(c.calls, done[i].Raw)
	}
}

func (c *openAICalls) fail(err *toolcall.Error) {
	if err != nil && c.err == nil {
		c.err = err
	}
}

// end completes the calls still open, at the end of the answer.
func (c *openAICalls) end() ([]dialects.RawCall, *toolcall.Error) {
	if c.acc != nil {
		c.collect(c.acc.End())
	}
	return c.calls, c.err
}

// openAIArguments reads an arguments value: a JSON string (the protocol)
// gives the text it holds; anything else (servers that send an object) its
// raw JSON, as a whole call's arguments.
func openAIArguments(raw json.RawMessage) (text string, whole bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, false
		}
	}
	return string(raw), true
}

// openAIContent reads a content value: a string, null, or content parts.
func openAIContent(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}

// answer folds one decoded answer or chunk in. Only choice 0 is read: the
// adapter never asks for more than one.
func (a *openAIAccumulator) answer(w *openAIAnswer, whole bool) {
	if w.Usage != nil {
		a.resp.PromptTokens, a.resp.CompletionTokens = w.Usage.PromptTokens, w.Usage.CompletionTokens
	}
	for _, ch := range w.Choices {
		if ch.Index != 0 {
			continue
		}
		m := ch.Delta
		if whole || m == nil {
			m = ch.Message
		}
		if m != nil {
			a.message(m)
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.resp.Done, a.resp.DoneReason = true, *ch.FinishReason
		}
	}
}

// finish returns the accumulated client.Response, calls in index order, or the
// TLP-008 error of inconsistent tool call fragments. status is the HTTP
// status the answer came with.
func (a *openAIAccumulator) finish(status int) (*client.Response, error) {
	calls, err := a.calls.end()
	if err != nil {
		return nil, httpx.InconsistentCalls(err, status)
	}
	r := a.resp
	r.Content, r.Reasoning = a.content.String(), a.reasoning.String()
	r.NativeCalls = calls
	return &r, nil
}

// readOpenAIEvents reads a server-sent event stream. Every "data:" line holds
// one JSON chunk (the servers never split one over several lines);
// comments, event names and blank lines are skipped; "[DONE]" ends the
// stream. The answer is Done when a finish_reason arrived.
func readOpenAIEvents(r io.Reader, status int) (*client.Response, error) {
	var acc openAIAccumulator
	br := bufio.NewReaderSize(r, 32<<10)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it whole.
			rest, err2 := br.ReadBytes('\n')
			line, err = append(slices.Clone(line), rest...), err2
		}
		if data, ok := sseData(line); ok {
			if string(data) == "[DONE]" {
				return acc.finish(status)
			}
			var w openAIAnswer
			switch jerr := json.Unmarshal(data, &w); {
			case jerr != nil && err == nil:
				return nil, toolcall.Errorf(toolcall.CodeTransport,
					&client.TransportError{StatusCode: status, Message: "an event is not valid JSON", Err: jerr},
					"the server's answer is not a valid event stream")
			case jerr != nil:
				// The stream ended inside its last event: what the read
				// error below says (at EOF, an unfinished answer).
			case len(w.Error) > 0 && string(w.Error) != "null":
				return nil, openAIAnswerError(w.Error)
			default:
				acc.answer(&w, false)
				if e := acc.calls.err; e != nil {
					return nil, httpx.InconsistentCalls(e, status)
				}
			}
		}
		if err == io.EOF {
			// Without [DONE] and finish_reason the answer is not Done.
			return acc.finish(status)
		}
		if err != nil {
			return nil, err
		}
	}
}

// sseData returns the payload of a "data:" line.
func sseData(line []byte) ([]byte, bool) {
	line = bytes.TrimRight(line, "\r\n")
	rest, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok {
		return nil, false
	}
	rest = bytes.TrimSpace(rest)
	return rest, len(rest) > 0
}

// readOpenAICompletion reads one chat.completion object. A complete object is
// Done; finish_reason "length" still says the answer was cut.
func readOpenAICompletion(r io.Reader, status int) (*client.Response, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var w openAIAnswer
	if err := json.Unmarshal(data, &w); err != nil {
		if len(bytes.TrimSpace(data)) == 0 || !json.Valid(data) && bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
			// Cut inside the object: an unfinished answer.
			return &client.Response{}, nil
		}
		return nil, toolcall.Errorf(toolcall.CodeTransport,
			&client.TransportError{StatusCode: status, Message: "the answer is not valid JSON", Err: err},
			"the server's answer is not a chat completion")
	}
	if len(w.Error) > 0 && string(w.Error) != "null" {
		return nil, openAIAnswerError(w.Error)
	}
	var acc openAIAccumulator
	acc.answer(&w, true)
	out, err := acc.finish(status)
	if err != nil {
		return nil, err
	}
	out.Done = true
	return out, nil
}
