package proxy

import (
	"context"
	"crypto/subtle"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/registry"
)

// Defaults of the limits in Options, used when a limit is zero.
const (
	// DefaultMaxRequestBytes caps a client request body: 32 MiB.
	DefaultMaxRequestBytes = 32 << 20
	// DefaultMaxResponseBytes caps an upstream answer: 64 MiB.
	DefaultMaxResponseBytes = 64 << 20
	// DefaultMaxConcurrent caps the upstream requests in flight.
	DefaultMaxConcurrent = 64
	// DefaultIdleTimeout ends an upstream answer silent for this long. It
	// is long because a local server may load the model before its first
	// byte.
	DefaultIdleTimeout = 5 * time.Minute
	// DefaultTotalTimeout ends a request, recovery included, that lasts
	// longer.
	DefaultTotalTimeout = 30 * time.Minute
)

// CorrelationHeader is the response header that carries a fixed request's
// correlation id, the one its log record and its errors carry.
const CorrelationHeader = "X-Correlation-Id"

// core is what a Handler and a Transport share: the options with their
// defaults, the evidence cache and the concurrency cap.
type core struct {
	opts     Options
	api      API
	next     http.RoundTripper
	upstream *url.URL // nil for a Transport
	log      *slog.Logger
	reg      *registry.Registry
	sem      chan struct{}
	evidence *evidenceCache
	// waitLogged holds the upstream and model pairs whose waiting text
	// the log has told of (familyStart).
	waitLogged sync.Map
	tools      *toolCache
	// wholeChunks reads every upstream chunk whole and writes every event
	// from its templates, without splices: the reference the splices are
	// tested against.
	wholeChunks bool
	// lineReaders are the buffered readers of streamed answers (64 KB
	// each), kept between answers.
	lineReaders sync.Pool
}

func newCore(opts Options, handler bool) (*core, error) {
	return newCoreOn(registry.Default(), opts, handler)
}

// newCoreOn is newCore detecting with reg, whose tables it builds
// (Registry.Prepare) so that the first request does not pay for them.
func newCoreOn(reg *registry.Registry, opts Options, handler bool) (*core, error) {
	c := &core{opts: opts, api: opts.API, next: opts.Transport, log: opts.Logger, reg: reg}
	switch c.api {
	case "":
		c.api = Ollama
	case Ollama, OpenAI:
	default:
		return nil, toolcall.NewError(toolcall.CodeInvalidConfig, "proxy: unknown API "+string(opts.API)+" (ollama or openai)")
	}
	if handler {
		if opts.Upstream == "" {
			return nil, toolcall.NewError(toolcall.CodeInvalidConfig, "proxy: Options.Upstream is empty")
		}
		u, err := url.Parse(opts.Upstream)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, toolcall.Errorf(toolcall.CodeInvalidConfig, err, "proxy: Options.Upstream is not an http(s) URL: "+opts.Upstream)
		}
		u.Path = strings.TrimSuffix(u.Path, "/")
		u.RawQuery, u.Fragment = "", ""
		c.upstream = u
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.opts.MaxRequestBytes <= 0 {
		c.opts.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if c.opts.MaxResponseBytes <= 0 {
		c.opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if c.opts.MaxConcurrent <= 0 {
		c.opts.MaxConcurrent = DefaultMaxConcurrent
	}
	if c.next == nil {
		// The idle pool holds as many connections as may be in flight:
		// with the default 2 per host, most requests of a busy proxy
		// would open a new connection to the upstream.
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = c.opts.MaxConcurrent
		t.MaxIdleConns = max(t.MaxIdleConns, c.opts.MaxConcurrent)
		c.next = t
	}
	if c.opts.RequestBodyTimeout <= 0 {
		c.opts.RequestBodyTimeout = DefaultRequestBodyTimeout
	}
	if c.opts.IdleTimeout <= 0 {
		c.opts.IdleTimeout = DefaultIdleTimeout
	}
	if c.opts.TotalTimeout <= 0 {
		c.opts.TotalTimeout = DefaultTotalTimeout
	}
	if !isZeroConfig(&opts.Config) {
		cfg := opts.Config
		if cfg.MaxRetries == 0 {
			cfg.MaxRetries = 1 // 0 is recovery off here, not out of range
		}
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
	}
	if d := opts.Config.Dialect; d != "" {
		if _, ok := c.reg.Lookup(d); !ok {
			return nil, toolcall.NewError(toolcall.CodeUnknownDialect, "proxy: no dialect is registered as "+strconv.Quote(d))
		}
	}
	c.sem = make(chan struct{}, c.opts.MaxConcurrent)
	c.evidence = newEvidenceCache(evidenceCacheSize)
	c.tools = newToolCache()
	c.reg.Prepare()
	return c, nil
}

// isZeroConfig reports whether cfg was left unset.
func isZeroConfig(cfg *config.Config) bool { return reflect.DeepEqual(*cfg, config.Config{}) }

// DefaultConfig is the Config of a Handler or a Transport whose
// Options.Config is left zero: config.Default() with recovery off
// (MaxRetries 0), as the proxy answers at once unless told to ask the
// upstream again. It differs from config.Default(), the retry loop's
// default, in that one setting.
func DefaultConfig() config.Config {
	cfg := config.Default()
	cfg.MaxRetries = 0
	return cfg
}

// configFor returns the settings for a model: ModelConfig's, else Config.
// An unset Config is DefaultConfig().
func (c *core) configFor(model string) config.Config {
	if c.opts.ModelConfig != nil {
		if cfg, ok := c.opts.ModelConfig(model); ok && !isZeroConfig(&cfg) {
			return cfg
		}
	}
	if isZeroConfig(&c.opts.Config) {
		return DefaultConfig()
	}
	return c.opts.Config
}

// Handler is an http.Handler in front of one model server (Options.Upstream):
// it fixes the tool calls of the API's chat requests and passes every other
// request through unchanged. It is safe for concurrent use.
type Handler struct {
	c *core
}

// NewHandler returns a Handler for opts. Options.Upstream is required; an
// invalid Config is a TLP-024 error. It builds the default registry's
// detection tables (registry.Registry.Prepare), so that the first request
// does not pay for them.
func NewHandler(opts Options) (*Handler, error) {
	c, err := newCore(opts, true)
	if err != nil {
		return nil, err
	}
	return &Handler{c: c}, nil
}

// ServeHTTP fixes a chat request, or passes any other request through to
// the upstream.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := h.c
	if c.opts.APIKey != "" {
		if !validKey(r.Header.Get("Authorization"), c.opts.APIKey) && !sameKey(r.Header.Get("X-Api-Key"), c.opts.APIKey) {
			start := time.Now()
			e := toolcall.NewError(toolcall.CodeUnauthorized, "the request lacks the proxy's API key (Authorization: Bearer <key>, or x-api-key: <key>)")
			api := c.errorAPI(r)
			writeError(w, api, http.StatusUnauthorized, e)
			c.finish(r.Context(), &RequestStats{CorrelationID: toolcall.NewCorrelationID(), API: api, Path: r.URL.Path,
				Status: http.StatusUnauthorized, Outcome: OutcomeError, ErrorCodes: []string{string(e.Code)}, Total: time.Since(start)}, nil)
			return
		}
	}
	out := c.outgoingURL(r.URL)
	if cd := c.codecFor(r); cd != nil {
		c.chat(w, r, out, cd)
		return
	}
	c.passThrough(w, r, out)
}

// sameKey reports whether an x-api-key header (the Anthropic SDKs' way)
// is the key.
func sameKey(header, key string) bool {
	return header != "" && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(header)), []byte(key)) == 1
}

// validKey reports whether an Authorization header carries the key.
func validKey(header, key string) bool {
	const prefix = "bearer "
	if len(header) < len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return false
	}
	got := strings.TrimSpace(header[len(prefix):])
	return subtle.ConstantTimeCompare([]byte(got), []byte(key)) == 1
}

// outgoingURL is where a request goes upstream: for a Handler the upstream
// base joined with the request's path and query, for a Transport the
// request's own URL.
func (c *core) outgoingURL(in *url.URL) *url.URL {
	if c.upstream == nil {
		u := *in
		return &u
	}
	u := *c.upstream
	p := in.Path
	// An upstream given with its /v1 and a client asking for /v1/...: one /v1.
	if strings.HasSuffix(u.Path, "/v1") && strings.HasPrefix(p, "/v1/") {
		p = p[len("/v1"):]
	}
	u.Path = u.Path + p
	u.RawPath = ""
	u.RawQuery = in.RawQuery
	return &u
}

// Transport is an http.RoundTripper that fixes the tool calls of the API's
// chat requests in process, and passes every other request to
// Options.Transport unchanged. Options.Upstream and Options.APIKey are not
// used: the requests go where the client sends them. It is safe for
// concurrent use.
type Transport struct {
	c *core
}

// NewTransport returns a Transport for opts. An invalid Config is a
// TLP-024 error. Like NewHandler, it builds the default registry's
// detection tables.
func NewTransport(opts Options) (*Transport, error) {
	c, err := newCore(opts, false)
	if err != nil {
		return nil, err
	}
	return &Transport{c: c}, nil
}

// RoundTrip fixes a chat request, or hands any other request to the
// underlying transport. A fixed streamed answer is read from its body as the
// upstream sends it; closing the body cancels the upstream request.
func (t *Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	c := t.c
	cd := c.codecFor(r)
	if cd == nil {
		return c.next.RoundTrip(r)
	}
	// The total timeout bounds the answer's body too: a client that stops
	// reading without closing it does not hold the request forever.
	ctx, cancel := context.WithTimeout(r.Context(), c.opts.TotalTimeout)
	pr, pw := io.Pipe()
	context.AfterFunc(ctx, func() { pr.CloseWithError(ctx.Err()) })
	rw := newPipeWriter(pw)
	in := r.WithContext(ctx)
	go func() {
		defer func() {
			rw.finish()
			pw.Close()
			if r.Body != nil {
				r.Body.Close()
			}
		}()
		c.chat(rw, in, c.outgoingURL(r.URL), cd)
	}()
	select {
	case <-rw.ready:
	case <-r.Context().Done():
		cancel()
		pr.Close()
		return nil, r.Context().Err()
	}
	resp := &http.Response{
		StatusCode:    rw.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        rw.sent,
		Body:          &pipeBody{r: pr, cancel: cancel},
		ContentLength: -1,
		Request:       r,
	}
	resp.Status = itoa(rw.status) + " " + http.StatusText(rw.status)
	return resp, nil
}

// pipeBody is a Transport answer's body; Close cancels the request.
type pipeBody struct {
	r      *io.PipeReader
	cancel context.CancelFunc
}

func (b *pipeBody) Read(p []byte) (int, error) { return b.r.Read(p) }

func (b *pipeBody) Close() error {
	b.cancel()
	return b.r.Close()
}

// pipeWriter is the http.ResponseWriter a Transport's chat writes into: the
// header is handed over when the body starts (or the chat ends), the body
// goes through a pipe.
type pipeWriter struct {
	w      *io.PipeWriter
	header http.Header
	sent   http.Header
	status int
	ready  chan struct{}
	once   bool
}

func newPipeWriter(w *io.PipeWriter) *pipeWriter {
	return &pipeWriter{w: w, header: http.Header{}, ready: make(chan struct{})}
}

func (p *pipeWriter) Header() http.Header { return p.header }

func (p *pipeWriter) WriteHeader(status int) {
	if p.once {
		return
	}
	p.once = true
	p.status = status
	p.sent = p.header.Clone()
	close(p.ready)
}

func (p *pipeWriter) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	return p.w.Write(b)
}

// Flush is a no-op: every Write reaches the reader.
func (p *pipeWriter) Flush() {}

func (p *pipeWriter) finish() { p.WriteHeader(http.StatusOK) }

func itoa(n int) string { return strconv.Itoa(n) }
