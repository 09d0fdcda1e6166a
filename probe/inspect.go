package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/client/ollamaclient"
	"github.com/dialectkit/toolcall/client/openaiclient"
)

// The protocols a Target speaks.
const (
	// APIOllama is Ollama's native API: /api/show and /api/chat.
	APIOllama = "ollama"
	// APIOpenAI is an OpenAI-compatible /v1/chat/completions (llama.cpp's
	// server, vLLM, LM Studio); llama.cpp's /props gives the chat template.
	APIOpenAI = "openai"
)

// Default hosts of the two protocols: Ollama's, and llama.cpp's server.
const (
	DefaultOllamaHost = "http://127.0.0.1:11434"
	DefaultOpenAIHost = "http://127.0.0.1:8080"
)

// Target is a model behind a server.
type Target struct {
	// API is APIOllama (the default) or APIOpenAI.
	API string
	// Host is the server's URL; empty means $OLLAMA_HOST or
	// DefaultOllamaHost for Ollama, DefaultOpenAIHost for OpenAI.
	Host string
	// Model is the model's name.
	Model string
	// APIKey is sent as a bearer token to an OpenAI-compatible server.
	APIKey string
	// HTTPClient sends every request; nil is a client without an overall
	// timeout (the context bounds each request).
	HTTPClient *http.Client
}

func (t *Target) api() string {
	if t.API == "" {
		return APIOllama
	}
	return t.API
}

// HostURL returns the server URL the target speaks to: Host, or the
// protocol's default.
func (t *Target) HostURL() string {
	switch {
	case strings.TrimSpace(t.Host) != "":
		return strings.TrimSpace(t.Host)
	case t.api() == APIOpenAI:
		return DefaultOpenAIHost
	case os.Getenv("OLLAMA_HOST") != "":
		return os.Getenv("OLLAMA_HOST")
	}
	return DefaultOllamaHost
}

func (t *Target) client() *http.Client {
	if t.HTTPClient != nil {
		return t.HTTPClient
	}
	return &http.Client{}
}

func (t *Target) validate() error {
	switch {
	case strings.TrimSpace(t.Model) == "":
		return toolcall.NewError(toolcall.CodeInvalidInput, "the target names no model")
	case t.api() != APIOllama && t.api() != APIOpenAI:
		return toolcall.NewError(toolcall.CodeInvalidInput, fmt.Sprintf("API %q is neither %s nor %s", t.API, APIOllama, APIOpenAI))
	}
	return nil
}

// chatModel builds the retry adapter for the target.
func (t *Target) chatModel() (client.Model, error) {
	if t.api() == APIOpenAI {
		return openaiclient.New(t.HostURL(), &openaiclient.Options{APIKey: t.APIKey, HTTPClient: t.HTTPClient})
	}
	return ollamaclient.NewHost(t.HostURL(), &ollamaclient.Options{HTTPClient: t.HTTPClient})
}

// ModelInfo is what the server tells about the model before it is asked
// anything.
type ModelInfo struct {
	// Template is the chat template (Ollama /api/show "template", llama.cpp
	// /props "chat_template"), or "" when the server does not say.
	Template string `json:"-"`
	// TemplateSource says where Template came from.
	TemplateSource string `json:"template_source,omitempty"`
	// Capabilities are Ollama's ("completion", "tools", "thinking", …);
	// nil when the server does not say.
	Capabilities []string `json:"capabilities,omitempty"`
	// Family is the model family (Ollama details.family).
	Family string `json:"family,omitempty"`
	// Parameters are the Modelfile parameters as Ollama prints them, one
	// "key value" per line.
	Parameters string `json:"parameters,omitempty"`
	// Parser and Renderer name Ollama's built-in tool parser and prompt
	// renderer, for models packaged with them.
	Parser   string `json:"parser,omitempty"`
	Renderer string `json:"renderer,omitempty"`
}

// ToolSupport reports what the capabilities say about native tools:
// known is false when the server gave no capabilities.
func (m *ModelInfo) ToolSupport() (supported, known bool) {
	if m == nil || m.Capabilities == nil {
		return false, false
	}
	return slices.Contains(m.Capabilities, "tools"), true
}

// Parameter returns the first value of a Modelfile parameter ("num_predict",
// "num_ctx"), unquoted, or "".
func (m *ModelInfo) Parameter(key string) string {
	if m == nil {
		return ""
	}
	for line := range strings.Lines(m.Parameters) {
		k, v, ok := strings.Cut(strings.TrimSpace(line), " ")
		if ok && k == key {
			v = strings.TrimSpace(v)
			if u, err := strconv.Unquote(v); err == nil {
				return u
			}
			return v
		}
	}
	return ""
}

// maxInfoBytes bounds an /api/show or /props answer: templates are a few
// kilobytes, model_info with its tokenizer tables can be megabytes.
const maxInfoBytes = 64 << 20

// Inspect asks the server about the model: Ollama's /api/show, or an
// OpenAI-compatible server's /v1/models and llama.cpp's /props. Errors
// are TLP-015 with a *client.TransportError cause: StatusCode 0 when the
// server could not be reached, 404 when Ollama has no such model.
// A server that reaches /v1/models but has no /props gives no template,
// not an error.
func Inspect(ctx context.Context, t Target) (*ModelInfo, error) {
	if err := t.validate(); err != nil {
		return nil, err
	}
	if t.api() == APIOpenAI {
		return inspectOpenAI(ctx, t)
	}
	return inspectOllama(ctx, t)
}

func inspectOllama(ctx context.Context, t Target) (*ModelInfo, error) {
	base, err := ollamaBase(t.HostURL())
	if err != nil {
		return nil, err
	}
	body, _ := json.Marshal(map[string]string{"model": t.Model})
	status, data, err := send(ctx, t.client(), http.MethodPost, base+"/api/show", body)
	if err != nil {
		return nil, err
	}
	if status >= 400 {
		return nil, statusFailure(status, data, "/api/show")
	}
	var show struct {
		Template     string   `json:"template"`
		Capabilities []string `json:"capabilities"`
		Parameters   string   `json:"parameters"`
		Parser       string   `json:"parser"`
		Renderer     string   `json:"renderer"`
		Details      struct {
			Family string `json:"family"`
		} `json:"details"`
	}
	if err := json.Unmarshal(data, &show); err != nil {
		return nil, toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: status, Err: err},
			"the server's /api/show answer is not JSON; is it an Ollama server?")
	}
	info := &ModelInfo{Template: show.Template, Capabilities: show.Capabilities, Family: show.Details.Family,
		Parameters: show.Parameters, Parser: show.Parser, Renderer: show.Renderer}
	if info.Capabilities == nil {
		info.Capabilities = []string{}
	}
	if show.Template != "" {
		info.TemplateSource = "ollama /api/show"
	}
	return info, nil
}

func inspectOpenAI(ctx context.Context, t Target) (*ModelInfo, error) {
	u, err := url.Parse(t.HostURL())
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, toolcall.NewError(toolcall.CodeInvalidConfig, fmt.Sprintf("OpenAI-compatible base URL %q is not an http or https URL", t.HostURL()))
	}
	root := *u
	root.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/chat/completions")
	root.Path = strings.TrimSuffix(root.Path, "/v1")
	root.RawQuery, root.Fragment = "", ""
	base := strings.TrimRight(root.String(), "/")
	// /v1/models proves the server is there; llama.cpp answers for its one
	// model whatever the name, so a list without ours is not an error: the
	// first chat request tells.
	if _, _, err := send(ctx, t.client(), http.MethodGet, base+"/v1/models", nil); err != nil {
		return nil, err
	}
	info := &ModelInfo{}
	status, data, err := send(ctx, t.client(), http.MethodGet, base+"/props", nil)
	if err != nil || status != http.StatusOK {
		return info, nil
	}
	var props struct {
		ChatTemplate        string `json:"chat_template"`
		ChatTemplateToolUse string `json:"chat_template_tool_use"`
	}
	if json.Unmarshal(data, &props) == nil {
		info.Template = props.ChatTemplate
		if props.ChatTemplateToolUse != "" {
			info.Template = props.ChatTemplateToolUse
		}
		if info.Template != "" {
			info.TemplateSource = "llama.cpp /props"
		}
	}
	return info, nil
}

// send makes one request and reads the answer, bounded. A request that
// never reached the server is a TLP-015 whose TransportError has no
// status.
func send(ctx context.Context, c *http.Client, method, target string, body []byte) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return 0, nil, toolcall.Errorf(toolcall.CodeInvalidConfig, err, "the request could not be built")
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, nil, toolcall.Errorf(toolcall.CodeCanceled, ctx.Err(), "stopped before the server answered")
		}
		return 0, nil, toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{Err: err}, "the server could not be reached")
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxInfoBytes))
	if err != nil {
		return resp.StatusCode, nil, toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: resp.StatusCode, Err: err},
			"the connection failed during the answer")
	}
	return resp.StatusCode, data, nil
}

// statusFailure is the error of an HTTP error answer, with the server's
// message.
func statusFailure(status int, body []byte, what string) error {
	msg := strings.TrimSpace(string(body))
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && len(e.Error) > 0 {
		var s string
		if json.Unmarshal(e.Error, &s) == nil {
			msg = s
		} else {
			var o struct {
				Message string `json:"message"`
			}
			if json.Unmarshal(e.Error, &o) == nil && o.Message != "" {
				msg = o.Message
			}
		}
	}
	if len(msg) > 300 {
		msg = msg[:300]
	}
	return toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: status, Message: msg},
		fmt.Sprintf("%s answered HTTP %d", what, status))
}

// ollamaBase is the server's base URL for host, read as ollamaclient.NewHost
// reads it, without a trailing slash.
func ollamaBase(host string) (string, error) {
	u, err := ollamaclient.BaseURL(host)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// ServerError reports whether err means the server, not the model, is the
// problem: it could not be reached, it has no such model, it failed or
// rejected the request, or the run was cancelled. A server whose own tool
// parser failed on the model's output (TLP-019) is the model's problem.
func ServerError(err error) bool {
	if err == nil || errors.Is(err, toolcall.ErrMalformedCall) {
		return false
	}
	var te *client.TransportError
	return errors.As(err, &te) || errors.Is(err, toolcall.ErrTransport) || errors.Is(err, toolcall.ErrCanceled) ||
		errors.Is(err, toolcall.ErrRequestRejected)
}
