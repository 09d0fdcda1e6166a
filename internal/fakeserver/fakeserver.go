// Package fakeserver is a scripted model server. It speaks Ollama's
// /api/chat (NDJSON streaming, or one JSON object with "stream": false),
// the OpenAI-compatible /v1/chat/completions (SSE streaming, or one
// chat.completion object), the OpenAI Responses API /v1/responses and the
// Anthropic Messages API /v1/messages (typed SSE events with their event
// lines, or one response or message object), and answers each chat request with the next
// scripted Turn: text, reasoning, native tool calls, or one of the failures
// real servers produce (HTTP errors with Retry-After, an error line inside
// the stream, a stream cut before its final message, a stall until the
// client gives up).
//
// It checks requests the way the real servers do where it matters to a
// client: Ollama rejects a history whose tool call arguments are not a JSON
// object with the same 400 the real server sends, the OpenAI endpoint
// rejects arguments that are not a JSON string, unknown models get a 404,
// and a missing API key a 401. Every chat request is recorded for
// inspection.
//
// Tests use NewServer; a simulator that replays recorded behaviour mounts a
// Handler on its own listener.
package fakeserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// API names the protocol a request used.
type API string

// The protocols the server speaks.
const (
	Ollama    API = "ollama"    // POST /api/chat, NDJSON
	OpenAI    API = "openai"    // POST /v1/chat/completions, SSE
	Responses API = "responses" // POST /v1/responses, SSE with event lines
	Anthropic API = "anthropic" // POST /v1/messages, SSE with event lines
)

// maxRequestBytes bounds a request body; a model server would refuse more.
const maxRequestBytes = 32 << 20

// Turn is the scripted answer to one chat request. The zero value answers
// with an empty message that is done.
type Turn struct {
	// Content and Thinking are the text of the answer. Thinking is sent as
	// Ollama's message.thinking or OpenAI's delta.reasoning_content.
	Content  string
	Thinking string
	// Calls are native tool calls, sent after the text.
	Calls []Call
	// DoneReason is the final message's done_reason (Ollama) or
	// finish_reason (OpenAI). Empty means "stop", or "tool_calls" on the
	// OpenAI endpoint when there are calls.
	DoneReason string
	// PromptTokens and CompletionTokens are the reported token counts; zero
	// means an estimate of a quarter of the bytes.
	PromptTokens, CompletionTokens int

	// ChunkSize is the most bytes of text (or of arguments, on the OpenAI
	// endpoint) one streamed chunk carries; 0 sends each field whole. Chunks
	// never split a UTF-8 sequence.
	ChunkSize int
	// Interleave sends the argument fragments of several OpenAI calls in
	// turn (call 0, call 1, call 0, …) instead of call after call, as a
	// server generating calls in parallel would.
	Interleave bool
	// Delay is a pause before each streamed chunk.
	Delay time.Duration
	// Holds pause the stream at points of the text, in order: before the
	// first chunk whose bytes hold a hold's At (a piece of the text, so
	// no longer than ChunkSize), the answer waits until its Release is
	// closed or the client goes away. Tests use them to see what reached
	// the client while the upstream was still writing.
	Holds []Hold

	// Status, when 400 or more, answers with that HTTP status and Error as
	// the server's error message (an empty Error sends an empty body).
	Status int
	Error  string
	// RetryAfter is sent verbatim as the Retry-After header.
	RetryAfter string
	// StreamError is sent as an error line after the text and calls, in
	// place of the final message (Ollama {"error": …}, OpenAI data:
	// {"error": {…}}). A request with streaming off gets it as a 500.
	StreamError string
	// Truncate ends the stream before its final message; with streaming
	// off, the body is cut in the middle.
	Truncate bool
	// Stall holds the stream open after the text and calls until the client
	// goes away or the server closes.
	Stall bool
	// Abort breaks the connection after the text and calls without ending
	// the response, as a crashed proxy does: the client reads an unexpected
	// EOF.
	Abort bool
	// Body, when set, is sent verbatim instead of a generated answer (status
	// Status, or 200), flushed line by line, with ContentType (default: the
	// protocol's stream type).
	Body        string
	ContentType string
}

// Hold is a pause of a streamed answer; see Turn.Holds.
type Hold struct {
	At      string
	Release <-chan struct{}
}

// Call is one scripted native tool call.
type Call struct {
	// ID is the call id; empty gives "call_" followed by the request and call
	// numbers.
	ID   string
	Name string
	// Arguments is the arguments' JSON text, as the model produced it. On
	// the Ollama endpoint it is sent as a JSON object when it is one (and
	// AsString is false), otherwise as a JSON string; on the OpenAI endpoint
	// it is always a JSON string, as the protocol says.
	Arguments string
	// AsString sends Ollama arguments as a JSON string holding the text,
	// which the real Ollama never does but proxies in front of it do.
	AsString bool
}

// Request is one chat request the server received.
type Request struct {
	// Seq counts the requests handed to the Responder, from 0; it is -1 for
	// a request the server rejected before the script (bad body, unknown
	// model, missing key, invalid history).
	Seq    int
	API    API
	Header http.Header
	Body   []byte
	Model  string
	// Stream reports whether the client asked for a streamed answer.
	Stream bool
	// IncludeUsage is OpenAI's stream_options.include_usage.
	IncludeUsage bool
	Messages     []Message
	// Tools are the tool definitions as sent.
	Tools []json.RawMessage
	// Options is Ollama's "options" object.
	Options map[string]any
	// MaxTokens is Ollama's options.num_predict, or OpenAI's max_tokens or
	// max_completion_tokens; 0 when absent.
	MaxTokens int
}

// ToolNames returns the names of the tools the request declared.
func (r *Request) ToolNames() []string {
	names := make([]string, 0, len(r.Tools))
	for _, t := range r.Tools {
		var probe struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		if json.Unmarshal(t, &probe) == nil {
			names = append(names, cmp.Or(probe.Function.Name, probe.Name))
		}
	}
	return names
}

// Message is one message of a request's history.
type Message struct {
	Role    string
	Content string
	// Thinking is Ollama's thinking or OpenAI's reasoning_content.
	Thinking   string
	ToolCalls  []ToolCall
	ToolCallID string
	// ToolName is Ollama's tool_name, or OpenAI's name on a tool message.
	ToolName string
}

// ToolCall is one call of an assistant message in a request's history.
type ToolCall struct {
	ID   string
	Name string
	// Arguments are the arguments exactly as sent: a JSON object, or a JSON
	// string.
	Arguments json.RawMessage
}

// Responder chooses the answer to each chat request.
type Responder interface {
	Respond(req *Request) Turn
}

// ResponderFunc adapts a function to Responder.
type ResponderFunc func(req *Request) Turn

// Respond calls f.
func (f ResponderFunc) Respond(req *Request) Turn { return f(req) }

// Script answers the n-th request with its n-th turn, and every request
// after the last turn with the last turn again. An empty Script answers with
// the zero Turn.
type Script []Turn

// Respond returns the turn for req.Seq.
func (s Script) Respond(req *Request) Turn {
	if len(s) == 0 {
		return Turn{}
	}
	return s[min(max(req.Seq, 0), len(s)-1)]
}

// Options configure a Handler. The zero value serves any model without a key.
type Options struct {
	// Models are the models the server has; a request for another gets a
	// 404 as from the real servers. Empty serves any model.
	Models []string
	// APIKey, when set, is required as "Authorization: Bearer KEY" on the
	// OpenAI endpoint; a request without it gets a 401.
	APIKey string
	// Info is what /api/show and /props tell about each model; a served
	// model without an entry has the capabilities completion and tools.
	Info map[string]ModelInfo
	// Kind narrows the model-description endpoints to one server's:
	// KindVLLM answers neither /api/show nor /props, and lists each
	// model in /v1/models with its "root" (Roots); KindLMStudio answers
	// neither, and describes a model at /api/v0/models/{id} with its
	// "arch" (Roots). Empty answers Ollama's and llama.cpp's both.
	Kind string
	// Roots is, per model, the name vLLM's /v1/models gives as its root
	// (the model it was loaded from, "Qwen/Qwen2.5-7B-Instruct") or LM
	// Studio's /api/v0/models its arch ("qwen2").
	Roots map[string]string
}

// Server kinds of Options.Kind.
const (
	KindVLLM     = "vllm"
	KindLMStudio = "lmstudio"
)

// Handler is the server's http.Handler. It is safe for concurrent use.
type Handler struct {
	responder Responder
	opts      Options
	// closed releases stalled streams when the server shuts down.
	closed    chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex
	next     int
	requests []*Request
}

// NewHandler returns a Handler answering with r.
func NewHandler(r Responder, opts *Options) *Handler {
	h := &Handler{responder: r, closed: make(chan struct{})}
	if opts != nil {
		h.opts = *opts
		h.opts.Models = slices.Clone(opts.Models)
		h.opts.Info = maps.Clone(opts.Info)
	}
	return h
}

// Requests returns the chat requests received so far, in arrival order.
func (h *Handler) Requests() []*Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.requests)
}

// Release ends every stalled stream and makes later stalls return at once.
func (h *Handler) Release() { h.closeOnce.Do(func() { close(h.closed) }) }

// ServeHTTP routes /api/chat, /v1/chat/completions, the OpenAI Responses
// API /v1/responses, the Anthropic Messages API /v1/messages, the model lists
// /api/tags and /v1/models, and the model descriptions /api/show (Ollama)
// and /props (llama.cpp).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/api/chat" && r.Method == http.MethodPost:
		h.chat(w, r, Ollama)
	case r.URL.Path == "/v1/chat/completions" && r.Method == http.MethodPost:
		h.chat(w, r, OpenAI)
	case r.URL.Path == "/v1/responses" && r.Method == http.MethodPost:
		h.chat(w, r, Responses)
	case r.URL.Path == "/v1/messages" && r.Method == http.MethodPost:
		h.chat(w, r, Anthropic)
	case r.URL.Path == "/api/tags" && r.Method == http.MethodGet:
		h.ollamaTags(w)
	case r.URL.Path == "/v1/models" && r.Method == http.MethodGet:
		h.openAIModels(w)
	case h.opts.Kind == KindLMStudio && strings.HasPrefix(r.URL.Path, "/api/v0/models/") && r.Method == http.MethodGet:
		id := strings.TrimPrefix(r.URL.Path, "/api/v0/models/")
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "model", "type": "llm", "arch": h.opts.Roots[id], "state": "loaded"})
	case h.opts.Kind != "":
		http.NotFound(w, r)
	case r.URL.Path == "/api/show" && r.Method == http.MethodPost:
		h.ollamaShow(w, r)
	case r.URL.Path == "/props" && r.Method == http.MethodGet:
		h.llamaProps(w)
	case r.URL.Path == "/" || r.URL.Path == "/api/version":
		writeJSON(w, http.StatusOK, map[string]string{"version": "0.17.4"})
	default:
		http.NotFound(w, r)
	}
}

// chat reads, checks and records one chat request, then answers it.
func (h *Handler) chat(w http.ResponseWriter, r *http.Request, api API) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBytes))
	req := &Request{Seq: -1, API: api, Header: r.Header.Clone(), Body: body}
	if err == nil {
		err = req.decode()
	}
	status, msg := h.check(req, err)
	h.mu.Lock()
	if status == 0 {
		req.Seq = h.next
		h.next++
	}
	h.requests = append(h.requests, req)
	h.mu.Unlock()
	if status != 0 {
		writeError(w, api, status, msg)
		return
	}
	turn := h.responder.Respond(req)
	a := answer{h: h, w: w, ctx: r.Context(), req: req, turn: &turn}
	a.write()
}

// check validates a request as the real server would, and returns the
// status and message of the rejection, or 0.
func (h *Handler) check(req *Request, decodeErr error) (int, string) {
	if decodeErr != nil {
		return http.StatusBadRequest, decodeErr.Error()
	}
	if req.API != Ollama && h.opts.APIKey != "" && req.Header.Get("Authorization") != "Bearer "+h.opts.APIKey {
		return http.StatusUnauthorized, "Incorrect API key provided."
	}
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			if msg := checkArguments(req.API, c.Arguments); msg != "" {
				return http.StatusBadRequest, msg
			}
		}
	}
	if req.Model == "" {
		return http.StatusBadRequest, "model is required"
	}
	if len(h.opts.Models) > 0 && !slices.Contains(h.opts.Models, req.Model) {
		if req.API == Ollama {
			return http.StatusNotFound, "model '" + req.Model + "' not found"
		}
		return http.StatusNotFound, "The model `" + req.Model + "` does not exist."
	}
	return 0, ""
}

// checkArguments returns the real server's error for history arguments it
// cannot read, or "". Ollama decodes them into an ordered map that accepts
// only an object; OpenAI-compatible servers take a string holding JSON.
func checkArguments(api API, args json.RawMessage) string {
	args = bytes.TrimSpace(args)
	if api == Ollama || api == Anthropic {
		if len(args) == 0 || args[0] == '{' || string(args) == "null" {
			return ""
		}
		return "Value looks like object, but can't find closing '}' symbol"
	}
	var s string
	if json.Unmarshal(args, &s) != nil || !json.Valid([]byte(s)) {
		return "invalid tool call arguments"
	}
	return ""
}

func (h *Handler) ollamaTags(w http.ResponseWriter) {
	type model struct {
		Name  string `json:"name"`
		Model string `json:"model"`
	}
	models := []model{}
	for _, m := range h.opts.Models {
		models = append(models, model{m, m})
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": models})
}

func (h *Handler) openAIModels(w http.ResponseWriter) {
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		OwnedBy string `json:"owned_by"`
		Root    string `json:"root,omitempty"`
	}
	models := []model{}
	for _, m := range h.opts.Models {
		models = append(models, model{m, "model", "fakeserver", ""})
	}
	if h.opts.Kind == KindVLLM {
		for id, root := range h.opts.Roots {
			models = append(models, model{id, "model", "vllm", root})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": models})
}

// Server is a Handler listening on 127.0.0.1.
type Server struct {
	*Handler
	// URL is the server's base URL, "http://127.0.0.1:PORT".
	URL string
	ts  *httptest.Server
}

// NewServer starts a server on a free port of 127.0.0.1 answering with r.
// Close it when done.
func NewServer(r Responder, opts *Options) *Server {
	h := NewHandler(r, opts)
	ts := httptest.NewServer(h)
	return &Server{Handler: h, URL: ts.URL, ts: ts}
}

// Close releases stalled streams and shuts the server down.
func (s *Server) Close() {
	s.Release()
	s.ts.Close()
}

// answer writes one scripted turn.
type answer struct {
	h    *Handler
	w    http.ResponseWriter
	ctx  context.Context
	req  *Request
	turn *Turn
	held int // the holds passed
}

func (a *answer) write() {
	t := a.turn
	if t.RetryAfter != "" {
		a.w.Header().Set("Retry-After", t.RetryAfter)
	}
	switch {
	case t.Body != "":
		a.writeBody()
	case t.Status >= 400:
		writeError(a.w, a.req.API, t.Status, t.Error)
	case a.req.API == Ollama && a.req.Stream:
		a.ollamaStream()
	case a.req.API == Ollama:
		a.ollamaWhole()
	case a.req.API == Responses && a.req.Stream:
		a.responsesStream()
	case a.req.API == Responses:
		a.responsesWhole()
	case a.req.API == Anthropic && a.req.Stream:
		a.anthropicStream()
	case a.req.API == Anthropic:
		a.anthropicWhole()
	case a.req.Stream:
		a.openAIStream()
	default:
		a.openAIWhole()
	}
}

// writeBody sends Turn.Body verbatim, one flush per line.
func (a *answer) writeBody() {
	ct := "application/x-ndjson"
	if a.req.API != Ollama {
		ct = "text/event-stream"
	}
	a.w.Header().Set("Content-Type", cmp.Or(a.turn.ContentType, ct))
	a.w.WriteHeader(cmp.Or(a.turn.Status, http.StatusOK))
	for line := range strings.SplitAfterSeq(a.turn.Body, "\n") {
		if !a.send([]byte(line)) {
			return
		}
	}
}

// send writes one chunk after the turn's delay and flushes it. It returns
// false when the client has gone away.
func (a *answer) send(chunk []byte) bool {
	if a.turn.Delay > 0 && !a.wait(a.turn.Delay) {
		return false
	}
	if a.held < len(a.turn.Holds) && bytes.Contains(chunk, []byte(a.turn.Holds[a.held].At)) {
		release := a.turn.Holds[a.held].Release
		a.held++
		select {
		case <-release:
		case <-a.ctx.Done():
			return false
		case <-a.h.closed:
			return false
		}
	}
	if _, err := a.w.Write(chunk); err != nil {
		return false
	}
	if f, ok := a.w.(http.Flusher); ok {
		f.Flush()
	}
	return a.ctx.Err() == nil
}

// wait pauses for d, or until the client goes away (false).
func (a *answer) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-a.ctx.Done():
		return false
	case <-a.h.closed:
		return false
	}
}

// stall holds the stream open until the client goes away or the server
// closes, or breaks the connection (Abort). It reports whether it did
// either, which ends the answer.
func (a *answer) stall() bool {
	switch {
	case a.turn.Abort:
		// net/http closes the connection without the last chunk.
		panic(http.ErrAbortHandler)
	case a.turn.Stall:
		select {
		case <-a.ctx.Done():
		case <-a.h.closed:
		}
		return true
	}
	return false
}

// tokens returns the reported prompt and completion token counts.
func (a *answer) tokens() (prompt, completion int) {
	prompt, completion = a.turn.PromptTokens, a.turn.CompletionTokens
	if prompt == 0 {
		prompt = len(a.req.Body)/4 + 1
	}
	if completion == 0 {
		n := len(a.turn.Content) + len(a.turn.Thinking)
		for _, c := range a.turn.Calls {
			n += len(c.Name) + len(c.Arguments)
		}
		completion = n/4 + 1
	}
	return prompt, completion
}

func (a *answer) callID(i int) string {
	if id := a.turn.Calls[i].ID; id != "" {
		return id
	}
	return "call_" + strconv.Itoa(a.req.Seq) + "x" + strconv.Itoa(i)
}

// writeError answers with an HTTP error in the endpoint's shape: Ollama's
// {"error": "…"}, Anthropic's {"type": "error", "error": {"type",
// "message"}}, or OpenAI's {"error": {"message", "type", "code"}}. An
// empty message sends an empty body, as proxies in front of servers do.
func writeError(w http.ResponseWriter, api API, status int, msg string) {
	if msg == "" {
		w.WriteHeader(status)
		return
	}
	if api == Ollama {
		writeJSON(w, status, map[string]string{"error": msg})
		return
	}
	typ := "server_error" // Anthropic says api_error
	if api == Anthropic {
		typ = "api_error"
	}
	switch {
	case status == http.StatusUnauthorized:
		typ = "authentication_error"
	case status == http.StatusNotFound:
		typ = "not_found_error"
	case status == http.StatusTooManyRequests:
		typ = "rate_limit_error"
	case status < 500:
		typ = "invalid_request_error"
	}
	if api == Anthropic {
		writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
		return
	}
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": status}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// pieces cuts s into chunks of at most n bytes without splitting a UTF-8
// sequence; n <= 0 keeps s whole. An empty s gives no piece.
func pieces(s string, n int) []string {
	if s == "" {
		return nil
	}
	if n <= 0 || len(s) <= n {
		return []string{s}
	}
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		if cut == 0 { // a rune longer than n: send it whole
			_, cut = utf8.DecodeRuneInString(s)
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}
