// Package ollamaclient is the client.Model of Ollama's native /api/chat: it sends
// the request through the ollama api client and decodes the streamed answer
// with dialects/ollamawire, byte for byte when built with NewHost.
package ollamaclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/ollamawire"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/httpx"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/stream"
)

// Options configure an Ollama model. The zero value (or nil) is the
// server's defaults.
type Options struct {
	// Think is sent as the request's "think" field. Nil leaves the server's
	// default, which turns thinking on for models that can think.
	Think *api.ThinkValue
	// KeepAlive is how long the server keeps the model loaded after the
	// request; nil leaves the server's default.
	KeepAlive *api.Duration
	// HTTPClient is the client NewHost sends requests with; nil is a
	// client without an overall timeout (the context bounds each request).
	// New ignores it: the api.Client has its own.
	HTTPClient *http.Client
	// MaxResponseBytes bounds one answer; 0 is client.DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

// Client is a client.Model served by Ollama's native /api/chat, through the
// ollama api client. It streams every answer and reports a stream that
// ended without its final message as not Done. It is safe for concurrent
// use.
//
// Build it with NewHost when you can: the adapter then also records
// the raw stream, so that it keeps what api.Client loses. The api client
// aborts a stream on tool call arguments sent as a JSON string (which
// proxies in front of Ollama send), reads nested arguments into Go maps
// (sorted keys, float64 numbers), drops the Retry-After header, and returns
// nil for an error status with an empty body. With a raw record the answer
// is decoded by dialects/ollamawire instead, byte for byte.
//
// New wraps an api.Client you built; the adapter cannot see below it,
// so those limits stay: string arguments end in a TLP-019 error, RetryAfter
// is always 0, and an empty error body looks like an empty, unfinished
// answer.
type Client struct {
	client *api.Client
	// recorded reports that the client's transport records raw answers.
	recorded bool
	opts     Options
}

// New returns a client.Model that sends requests through client.
func New(client *api.Client, opts *Options) *Client {
	o := &Client{client: client}
	if opts != nil {
		o.opts = *opts
	}
	return o
}

// NewHost returns a client.Model for the Ollama server at host: a URL
// ("http://gpu-box:11434"), a host and port ("gpu-box:11434") or a host
// alone (port 11434), read the way the ollama CLI reads OLLAMA_HOST. An
// empty host means $OLLAMA_HOST, or http://127.0.0.1:11434.
func NewHost(host string, opts *Options) (*Client, error) {
	if strings.TrimSpace(host) == "" {
		host = os.Getenv("OLLAMA_HOST")
	}
	base, err := BaseURL(host)
	if err != nil {
		return nil, err
	}
	o := New(nil, opts)
	hc := &http.Client{}
	if o.opts.HTTPClient != nil {
		copied := *o.opts.HTTPClient
		hc = &copied
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	hc.Transport = &recordingTransport{next: &httpx.IdleTransport{Next: next}}
	o.client = api.NewClient(base, hc)
	o.recorded = true
	return o, nil
}

// BaseURL reads a host the way envconfig.Host reads OLLAMA_HOST: the
// scheme defaults to http, the port to 11434 without a scheme and to the
// scheme's port with one. A malformed host is a TLP-024 error.
func BaseURL(host string) (*url.URL, error) {
	s := strings.TrimSpace(host)
	bad := func(why string) error {
		return toolcall.NewError(toolcall.CodeInvalidConfig, fmt.Sprintf("Ollama host %q %s", s, why))
	}
	scheme, hostport, ok := strings.Cut(s, "://")
	defaultPort := "11434"
	switch {
	case !ok:
		scheme, hostport = "http", s
	case scheme == "http":
		defaultPort = "80"
	case scheme == "https":
		defaultPort = "443"
	default:
		return nil, bad("has a scheme other than http or https")
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	h, port, err := net.SplitHostPort(hostport)
	if err != nil {
		h, port = strings.Trim(hostport, "[]"), defaultPort
	}
	if h == "" {
		h = "127.0.0.1"
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return nil, bad("has an invalid port")
	}
	u, err := url.Parse(scheme + "://" + net.JoinHostPort(h, port))
	if err != nil {
		return nil, bad("is not a valid host")
	}
	if path != "" {
		u.Path = "/" + path
	}
	return u, nil
}

// Chat sends req to /api/chat and reads the streamed answer.
func (o *Client) Chat(ctx context.Context, req *client.Request) (*client.Response, error) {
	creq, err := o.chatRequest(req)
	if err != nil {
		return nil, err
	}
	var rec *recording
	if o.recorded {
		rec = &recording{limit: httpx.ResponseLimit(o.opts.MaxResponseBytes)}
		ctx = context.WithValue(ctx, recordingKey{}, rec)
	}
	var resps []api.ChatResponse
	err = o.client.Chat(ctx, creq, func(r api.ChatResponse) error {
		if rec == nil { // with a recording, the raw bytes are decoded instead
			resps = append(resps, r)
		}
		return nil
	})
	// api.Client returns nil when a read fails, cancellation included, so
	// the context is the only reliable witness.
	if ctx.Err() != nil {
		return nil, httpx.CanceledError(ctx)
	}
	var ue *url.Error
	if rec != nil && rec.status != 0 && !errors.As(err, &ue) {
		return rec.response(ctx)
	}
	if err != nil {
		return apiErrorResponse(err, resps)
	}
	return decodeAPI(resps)
}

// chatRequest converts req into an api.ChatRequest.
func (o *Client) chatRequest(req *client.Request) (*api.ChatRequest, error) {
	if req == nil {
		return nil, toolcall.NewError(toolcall.CodeInvalidInput, "nil request")
	}
	stream := true
	creq := &api.ChatRequest{
		Model:     req.Model,
		Stream:    &stream,
		Think:     o.opts.Think,
		KeepAlive: o.opts.KeepAlive,
	}
	var err error
	if creq.Messages, err = ollamaMessages(req.Messages); err != nil {
		return nil, err
	}
	if creq.Tools, err = ollamaTools(req.Tools); err != nil {
		return nil, err
	}
	if creq.Options, err = ollamaOptions(req); err != nil {
		return nil, err
	}
	return creq, nil
}

// ollamaOptions copies req.Options (the caller's map is not changed) and
// sets num_predict from MaxTokens.
func ollamaOptions(req *client.Request) (map[string]any, error) {
	if len(req.Options) == 0 && req.MaxTokens <= 0 {
		return nil, nil
	}
	opts := make(map[string]any, len(req.Options)+1)
	for k, v := range req.Options {
		opts[k] = v
	}
	if req.MaxTokens > 0 {
		opts["num_predict"] = req.MaxTokens
	}
	// Checked here so that a value JSON cannot hold is the caller's input
	// error, not a failure to reach the server.
	if _, err := json.Marshal(opts); err != nil {
		return nil, toolcall.Errorf(toolcall.CodeInvalidInput, err, "request options cannot be encoded as JSON")
	}
	return opts, nil
}

// ollamaMessages converts the history. Assistant tool calls are sent with
// arguments as a JSON object: Ollama rejects the whole request with a 400
// when one of them is a string.
func ollamaMessages(msgs []client.Message) ([]api.Message, error) {
	out := make([]api.Message, len(msgs))
	for i, m := range msgs {
		out[i] = api.Message{
			Role:       m.Role,
			Content:    m.Content,
			Thinking:   m.Reasoning,
			ToolName:   m.ToolName,
			ToolCallID: m.ToolCallID,
		}
		for j, c := range m.ToolCalls {
			args, err := ollamaArguments(c.Arguments)
			if err != nil {
				return nil, toolcall.Errorf(toolcall.CodeInvalidInput, err,
					fmt.Sprintf("message %d, tool call %d: arguments are not a JSON object", i, j))
			}
			out[i].ToolCalls = append(out[i].ToolCalls, api.ToolCall{
				ID:       c.ID,
				Function: api.ToolCallFunction{Index: j, Name: c.Name, Arguments: args},
			})
		}
	}
	return out, nil
}

// ollamaArguments turns a call's JSON object into the api's ordered
// arguments. Each value is kept as raw JSON, so nested keys keep their
// order and numbers their digits when the api client encodes the request.
// A JSON string holding the object is unwrapped.
func ollamaArguments(raw json.RawMessage) (api.ToolCallFunctionArguments, error) {
	args := api.NewToolCallFunctionArguments()
	text := bytes.TrimSpace(raw)
	if len(text) == 0 || string(text) == "null" {
		return args, nil
	}
	if text[0] == '"' {
		var inner string
		if err := json.Unmarshal(text, &inner); err != nil {
			return args, err
		}
		text = bytes.TrimSpace([]byte(inner))
	}
	if len(text) == 0 || text[0] != '{' || !gjson.ValidBytes(text) {
		return args, errors.New("not a JSON object")
	}
	gjson.ParseBytes(text).ForEach(func(k, v gjson.Result) bool {
		args.Set(k.Str, json.RawMessage(v.Raw))
		return true
	})
	return args, nil
}

// ollamaTools converts tool definitions to the api's types, through their
// JSON, which is the shape both sides share.
func ollamaTools(tools []toolcall.Tool) (api.Tools, error) {
	if len(tools) == 0 {
		return nil, nil
	}
	out := make(api.Tools, len(tools))
	for i, t := range tools {
		data, err := t.MarshalOpenAI()
		if err == nil {
			err = json.Unmarshal(data, &out[i])
		}
		if err != nil {
			return nil, toolcall.Errorf(toolcall.CodeInvalidTool, err, fmt.Sprintf("tool %q cannot be sent to Ollama", t.Name))
		}
	}
	return out, nil
}

// streamResponse turns a decoded stream into a client.Response, or into the error
// the stream carried. status is the HTTP status the stream came with.
//
// An error line inside the stream is the error the server would have
// answered with a 500 had the request not been streamed, so its
// client.TransportError says 500 (400 for a request rejection); its code is the
// one dialects/ollamawire gives the message: TLP-019 when Ollama's own tool
// call parser failed on the model's output, TLP-020 for a capability the
// model lacks, TLP-015 otherwise. A stream that ended early is not an
// error: the client.Response says it is not Done.
func streamResponse(s *ollamawire.Stream, status int) (*client.Response, error) {
	if s.ServerError != "" {
		return nil, inStreamError(s)
	}
	for _, e := range s.Errors {
		if e.Code == toolcall.CodeTruncated {
			continue // cut short: an unfinished answer, not a failure
		}
		return nil, toolcall.Errorf(toolcall.CodeTransport,
			&client.TransportError{StatusCode: status, Message: e.Message, Err: e},
			"the server's answer is not a valid Ollama stream")
	}
	calls, err := ollamaCalls(s.Calls)
	if err != nil {
		return nil, httpx.InconsistentCalls(err, status)
	}
	return &client.Response{
		Content:          s.Content,
		Reasoning:        s.Reasoning,
		NativeCalls:      calls,
		Done:             s.Done,
		DoneReason:       s.DoneReason,
		PromptTokens:     s.PromptEvalCount,
		CompletionTokens: s.EvalCount,
	}, nil
}

// ollamaCalls passes the stream's calls through a stream.Accumulator, the
// one path every native call takes. Ollama streams whole calls, each once,
// so each is one whole fragment and completes on arrival. Calls are
// numbered in the order the stream gave them (dialects/ollamawire orders each
// response's calls by function.index): function.index itself cannot
// correlate anything across responses, since some of Ollama's parsers
// number the calls of each response from 0 and others leave it 0. A call
// the decoder could not read keeps its error and offset.
func ollamaCalls(calls []dialects.RawCall) ([]dialects.RawCall, *toolcall.Error) {
	if len(calls) == 0 {
		return calls, nil
	}
	acc := stream.NewAccumulator(&stream.AccumulatorOptions{
		// The answer is bounded as a whole; the loop applies its own limit.
		Parse: dialects.Options{Lenient: lenient.Options{MaxSize: -1}},
		Raw:   true,
	})
	out := make([]dialects.RawCall, 0, len(calls))
	for i := range calls {
		c := &calls[i]
		done, err := acc.Add(stream.Fragment{Index: i, ID: c.ID, Name: c.Name, Arguments: c.Arguments, Whole: true})
		if e := coded.As(err); e != nil {
			return nil, e
		}
		for _, d := range done {
			if e := coded.As(d.Err); e != nil {
				return nil, e
			}
			src := &calls[d.Index]
			raw := d.Raw
			raw.Offset, raw.Params, raw.Repairs, raw.Err = src.Offset, src.Params, src.Repairs, src.Err
			out = append(out, raw)
		}
	}
	for _, d := range acc.End() { // nothing is left open: every call was whole
		if e := coded.As(d.Err); e != nil {
			return nil, e
		}
	}
	return out, nil
}

// decodeAPI reads the responses the api client decoded.
func decodeAPI(resps []api.ChatResponse) (*client.Response, error) {
	cs, err := ResponsesFromAPI(resps)
	if err != nil {
		return nil, err
	}
	return streamResponse(ollamawire.DecodeResponses(cs), http.StatusOK)
}

// inStreamError is the error of a stream that carried an {"error": …} line.
func inStreamError(s *ollamawire.Stream) *toolcall.Error {
	code, what := toolcall.CodeTransport, "the server reported an error"
	for _, e := range s.Errors {
		if e.Raw == s.ServerError && e.Raw != "" {
			code, what = e.Code, e.Message
			break
		}
	}
	status := http.StatusInternalServerError
	if code == toolcall.CodeRequestRejected {
		status = http.StatusBadRequest
	}
	e := toolcall.Errorf(code, &client.TransportError{StatusCode: status, Message: httpx.ClipMessage(s.ServerError, httpx.MaxServerMessage)}, what)
	e.Raw = s.ServerError
	return e
}

// ollamaStatusError is httpx.StatusError with Ollama's own reading of a 400's
// message (a model without tool support gets a clearer message).
func ollamaStatusError(status int, retryAfter time.Duration, msg string) *toolcall.Error {
	e := httpx.StatusError(status, retryAfter, msg)
	if e.Code == toolcall.CodeRequestRejected {
		if code, what := classifyOllamaMessage(msg); code == toolcall.CodeRequestRejected {
			e.Message = what
		}
	}
	return e
}

// classifyOllamaMessage gives the code and a value-free message for an
// Ollama error message, using dialects/ollamawire's reading of an error line,
// so that the phrase table lives in one place.
func classifyOllamaMessage(msg string) (toolcall.Code, string) {
	line, err := json.Marshal(map[string]string{"error": msg})
	if err == nil {
		s := ollamawire.Decode(line)
		for _, e := range s.Errors {
			if e.Raw == msg {
				return e.Code, e.Message
			}
		}
	}
	return toolcall.CodeTransport, "the server reported an error"
}

// apiErrorResponse maps what api.Client.Chat returned, for an adapter
// without a raw record. resps are the responses delivered before it.
func apiErrorResponse(err error, resps []api.ChatResponse) (*client.Response, error) {
	var se api.StatusError
	var ae api.AuthorizationError
	var ue *url.Error
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return nil, ollamaStatusError(se.StatusCode, 0, httpx.ClipMessage(se.ErrorMessage, httpx.MaxServerMessage))
	case errors.As(err, &ae):
		return nil, httpx.StatusError(ae.StatusCode, 0, ae.Status)
	case errors.As(err, &ue):
		return nil, toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{Err: err}, "the server could not be reached")
	case errors.As(err, &syntax), errors.As(err, &typ), isOrderedMapError(err):
		return nil, toolcall.Errorf(toolcall.CodeMalformedCall, err,
			"the api client could not decode a streamed response (tool call arguments that are not a JSON object?); NewHost decodes them")
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "{") {
		// api.Client returns a last line without its newline as an error
		// holding the line: the stream was cut inside a response.
		return decodeAPI(resps)
	}
	// Anything else is the message of an {"error": …} line.
	code, what := classifyOllamaMessage(msg)
	status := http.StatusInternalServerError
	if code == toolcall.CodeRequestRejected {
		status = http.StatusBadRequest
	}
	e := toolcall.Errorf(code, &client.TransportError{StatusCode: status, Message: httpx.ClipMessage(msg, httpx.MaxServerMessage)}, what)
	e.Raw = msg
	return nil, e
}

// isOrderedMapError reports an error of the JSON parser behind
// api.ToolCallFunctionArguments (buger/jsonparser, through
// wk8/go-ordered-map), which fails on arguments sent as a string or an
// array. Its errors are plain errors.New values; this matches their text.
func isOrderedMapError(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "Value looks like ") || strings.HasPrefix(msg, "Value is array") ||
		strings.HasPrefix(msg, "Unknown value type") || strings.HasPrefix(msg, "Malformed ")
}

// recordingKey is the context key of a Chat call's recording.
type recordingKey struct{}

// recording is the raw HTTP answer to one Chat call, kept by
// recordingTransport.
type recording struct {
	limit  int64
	status int
	header http.Header
	body   bytes.Buffer
	// overflow is set when the answer passed limit; readErr is the error
	// that ended reading early, if any.
	overflow bool
	readErr  error
}

// response decodes the recorded answer.
func (r *recording) response(ctx context.Context) (*client.Response, error) {
	switch {
	case r.status >= 400:
		return nil, ollamaStatusError(r.status, client.RetryAfter(r.header, time.Now()), httpx.ServerMessage(r.body.Bytes()))
	case r.overflow:
		return nil, toolcall.NewError(toolcall.CodeTooLarge,
			fmt.Sprintf("the server's answer is larger than %d bytes", r.limit))
	case r.readErr != nil:
		return nil, httpx.ConnectionError(ctx, r.readErr, "the connection failed during the answer")
	case len(bytes.TrimSpace(r.body.Bytes())) == 0:
		// The server closed the stream before its first line, as it does
		// when the runner dies: an unfinished answer, as api.Client sees it.
		return &client.Response{}, nil
	}
	return streamResponse(ollamawire.Decode(r.body.Bytes()), r.status)
}

// recordingTransport records the answer of each request whose context
// carries a recording, under the api client, which otherwise hides the
// status, the headers and the raw stream.
type recordingTransport struct {
	next http.RoundTripper
}

// RoundTrip sends the request and, when it is recorded, wraps the body.
func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	rec, ok := req.Context().Value(recordingKey{}).(*recording)
	if err != nil || !ok {
		return resp, err
	}
	// A redirect sends a second request: only the last answer counts.
	rec.status, rec.header = resp.StatusCode, resp.Header.Clone()
	rec.body.Reset()
	rec.overflow, rec.readErr = false, nil
	resp.Body = &recordedBody{rc: resp.Body, rec: rec}
	return resp, nil
}

// recordedBody copies what the api client reads into the recording.
type recordedBody struct {
	rc  io.ReadCloser
	rec *recording
	eof bool
}

func (b *recordedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	rec := b.rec
	if n > 0 {
		if int64(rec.body.Len()+n) > rec.limit {
			rec.overflow = true
			return 0, httpx.ErrTooLarge
		}
		rec.body.Write(p[:n])
	}
	switch {
	case err == io.EOF:
		b.eof = true
	case err != nil && rec.readErr == nil:
		rec.readErr = err
	}
	return n, err
}

// Close reads the rest of the answer before closing: the api client stops
// at the first line it cannot decode (string arguments), and the rest of
// the answer is still wanted.
func (b *recordedBody) Close() error {
	if !b.eof && !b.rec.overflow && b.rec.readErr == nil {
		buf := make([]byte, 32<<10)
		for {
			if _, err := b.Read(buf); err != nil {
				break
			}
		}
	}
	return b.rc.Close()
}
