// Package proxy fixes tool calls between an agent and its model server.
//
// A Handler is an http.Handler that stands in front of an Ollama or
// OpenAI-compatible server (what `dialect-probe serve` runs); a Transport is
// an http.RoundTripper that applies the same fixing inside a Go program, so a
// client such as openai-go or ollama/api gets fixed calls by being given an
// http.Client with that transport. Calls that leaked into the content in any
// dialect move into the native tool_calls field, arguments are repaired and
// validated against the request's own tools, reasoning goes where the
// protocol carries it, and a call the model did not finish never becomes a
// call.
package proxy

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/dialectkit/toolcall/config"
)

// API names the protocol a model server speaks.
type API string

const (
	// Ollama is Ollama's native API: POST /api/chat is fixed, every other
	// path passes through.
	Ollama API = "ollama"
	// OpenAI is the OpenAI-compatible API (llama.cpp, vLLM, LM Studio,
	// Ollama's /v1): POST /v1/chat/completions is fixed, every other path
	// passes through.
	OpenAI API = "openai"
	// Responses is the OpenAI Responses API (POST /v1/responses), which
	// the proxy fixes under either upstream kind. It names a request's API
	// in RequestStats and metrics; it is not a value of Options.API.
	Responses API = "responses"
	// Anthropic is the Anthropic Messages API (POST /v1/messages), which
	// the proxy fixes under either upstream kind. It names a request's API
	// in RequestStats and metrics; it is not a value of Options.API.
	Anthropic API = "anthropic"
)

// Options configures a Handler or a Transport. The zero value of each limit
// means its default.
type Options struct {
	// Upstream is the base URL of the model server, for example
	// http://127.0.0.1:11434. A Handler contacts no other host. A Transport
	// ignores it: it fixes the requests it is given, wherever they go.
	Upstream string
	// API is the protocol the upstream speaks; empty means Ollama.
	API API
	// Config holds the tool call settings used for every model that
	// ModelConfig does not cover: dialect, repair, coercion, validation,
	// retries. The zero Config means DefaultConfig(): config.Default()
	// with recovery off. Recovery (asking the upstream again for failed
	// calls) runs when MaxRetries is above 0; config.Default() sets 3, so
	// a configuration whose file does not set max_retries should carry
	// MaxRetries 0, as DefaultConfig() does.
	// Transport retries (transport_retries, backoff) apply either way.
	Config config.Config
	// ModelConfig, when set, returns the settings for a model by the name
	// the request gives; ok false means use Config.
	ModelConfig func(model string) (cfg config.Config, ok bool)
	// Transport reaches the upstream; nil means a clone of
	// http.DefaultTransport whose idle pool keeps MaxConcurrent
	// connections per host, so that requests reuse them.
	Transport http.RoundTripper
	// MaxRequestBytes caps a client request body (0: DefaultMaxRequestBytes).
	MaxRequestBytes int64
	// RequestBodyTimeout bounds the reading of a client's request body,
	// which happens before the request takes a place among those in
	// flight: a body still arriving after it is 408, TLP-027 (0:
	// DefaultRequestBodyTimeout). A pass-through body larger than
	// MaxRequestBytes (a model upload) is bound for its first
	// MaxRequestBytes only.
	RequestBodyTimeout time.Duration
	// MaxResponseBytes caps an upstream answer (the whole body, or the
	// whole of a streamed answer; 0: DefaultMaxResponseBytes).
	MaxResponseBytes int64
	// MaxConcurrent caps the upstream requests in flight; more wait, and
	// fail with 503 (TLP-027) when no place comes free within IdleTimeout
	// or before their total timeout (0: DefaultMaxConcurrent).
	MaxConcurrent int
	// IdleTimeout ends an upstream answer that sends nothing for this long
	// (0: DefaultIdleTimeout).
	IdleTimeout time.Duration
	// TotalTimeout ends a request, recovery included, that lasts longer
	// (0: DefaultTotalTimeout).
	TotalTimeout time.Duration
	// APIKey, when set, is required of clients as "Authorization: Bearer
	// <key>" or "x-api-key: <key>" (the Anthropic SDKs' header); the
	// client's own Authorization and x-api-key headers are then not sent
	// upstream. When empty, the client's headers go upstream unchanged.
	APIKey string
	// Logger receives one record per request; nil means no logging, as
	// in package retry.
	// Argument values are never logged above DEBUG.
	Logger *slog.Logger
	// Observer, when set, is told about every request once it ends (the
	// metrics of `dialect-probe serve` implement it).
	Observer Observer
}

// Observer is told about each request once it has ended. It is called from
// the request's goroutine and must be safe for concurrent use.
type Observer interface {
	ObserveRequest(s *RequestStats)
}

// Outcome values of RequestStats.Outcome.
const (
	// OutcomePassThrough is a request the proxy does not fix (another path).
	OutcomePassThrough = "passthrough"
	// OutcomeUnchanged is a chat answer that needed no fixing.
	OutcomeUnchanged = "unchanged"
	// OutcomeFixed is a chat answer whose calls or content were fixed.
	OutcomeFixed = "fixed"
	// OutcomeRecovered is a chat answer fixed by asking the upstream again.
	OutcomeRecovered = "recovered"
	// OutcomeFailed is a chat answer with calls that stay failed; the
	// client gets the answer with those calls left in the content.
	OutcomeFailed = "failed"
	// OutcomeError is a request that ended in an error of its own
	// (upstream unreachable, a limit, a client that went away).
	OutcomeError = "error"
)

// RequestStats describes one request once it has ended.
type RequestStats struct {
	// CorrelationID identifies the request in logs.
	CorrelationID string
	// API is the request's chat API (Ollama, OpenAI, Responses,
	// Anthropic), or for a request passed through the upstream's kind;
	// Path is the request's path.
	API  API
	Path string
	// Model is the model the request named; Dialect the dialect the answer
	// was read in ("native" when the server's own tool_calls were used).
	Model   string
	Dialect string
	// Stream is whether the answer was streamed to the client.
	Stream bool
	// Status is the HTTP status the client got (499 when the client went
	// away before the answer began).
	Status int
	// Outcome is one of the Outcome constants.
	Outcome string
	// Fixed counts the fixes by kind: "leaked" (a call moved out of the
	// content), "repaired" (arguments repaired), "coerced", "id_added",
	// "reasoning_moved"; and those made to the request's history before
	// it went upstream: "history_repaired" (a past call's arguments),
	// "history_leaked" (a past call moved out of an assistant's text).
	Fixed map[string]int
	// Repairs counts the repairs applied, by repair kind.
	Repairs map[string]int
	// Calls is the number of calls the client got.
	Calls int
	// Retries is the number of times the upstream was asked again.
	Retries int
	// ErrorCodes lists the coded errors met (TLP-…), failed calls included.
	ErrorCodes []string
	// Upstream is the time spent waiting for the upstream; Total the whole
	// request. Total-Upstream is the latency the proxy added.
	Upstream time.Duration
	Total    time.Duration
	// ChunkAdded is, for a streamed answer, the delay the proxy added to
	// each chunk it sent (from the upstream chunk that settled it to the
	// write), in order.
	ChunkAdded []time.Duration
}
