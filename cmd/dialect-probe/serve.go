package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client/ollamaclient"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/probe"
	"github.com/dialectkit/toolcall/proxy"
	"github.com/dialectkit/toolcall/proxy/metrics"
)

// Defaults of serve: the listening address (beside Ollama's 11434) and
// the time requests in flight get to finish once told to stop.
const (
	defaultListen = "127.0.0.1:11435"
	defaultGrace  = 10 * time.Second
)

type serveFlags struct {
	upstream         string
	sim              string
	api              string
	listen           string
	configFile       string
	apiKeyEnv        string
	maxRequestBytes  int64
	maxResponseBytes int64
	maxConcurrent    int
	idleTimeout      time.Duration
	bodyTimeout      time.Duration
	totalTimeout     time.Duration
	grace            time.Duration
	log              logFlags
}

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [--upstream URL | --sim NAME] [--api ollama|openai] [--listen ADDR] [--config FILE]",
		Short: "Run a proxy that fixes tool calls between an agent and its model server",
		Long: `serve stands between an agent and its model server (Ollama, or an
OpenAI-compatible server: llama.cpp, vLLM, LM Studio, Ollama's /v1) and fixes
the tool calls of every answer on the way back: calls that leaked into the
text in any dialect move into the native tool_calls field, arguments are
repaired and validated against the request's own tools, reasoning goes where
the protocol carries it, streamed or not. Point the agent at serve instead of
the server; nothing else changes.

--upstream takes a URL or, as OLLAMA_HOST does, HOST:PORT or a host alone
(port 11434 for Ollama); without it, $OLLAMA_HOST or http://127.0.0.1:11434
for --api ollama, http://127.0.0.1:8080 for --api openai. --sim NAME serves a
built-in simulated model instead (see probe --sims): it answers any request
that declares tools with a call to one of them, leaked in its dialect, so an
agent or SDK can be pointed at serve with no model server.

--api ollama fixes POST /api/chat, --api openai POST /v1/chat/completions;
under either, POST /v1/responses (OpenAI Responses API) and POST
/v1/messages (Anthropic Messages API) are fixed too, at the same paths
upstream. Every other path passes through unchanged. /metrics is served by serve
itself, in the Prometheus exposition format.

The settings per model (dialect, fallback, repair, coercion, max_retries;
recovery is off unless max_retries is set) and the serve settings come from
--config FILE (see docs/configuration.md); flags win over the file.

Where a model's output starts, inside a reasoning block or not, comes from
its chat template, asked of the server (/api/show, /props). Without one (as
with vLLM), text before a lone </think> is reasoning, never a call, and the
text waits until that is settled: set the model's reasoning (open or closed)
to say where its output starts.

When it is ready it prints one line "listening on http://HOST:PORT" to
standard error. SIGINT or SIGTERM stop it accepting; requests in flight get
--shutdown-grace to finish, then it exits 0.

Exit status: 0 after a stop by signal; 2 for usage and configuration errors,
or an address it cannot listen on.`,
		Example: `  dialect-probe serve --upstream http://127.0.0.1:11434
  dialect-probe serve --sim hermes-leak
  dialect-probe serve --api openai --upstream http://127.0.0.1:8080 --listen 127.0.0.1:8081
  dialect-probe serve --config .agent/config.yml --upstream http://127.0.0.1:11434 --listen 127.0.0.1:0`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.upstream, "upstream", "", "the model server: a URL or HOST:PORT (default $OLLAMA_HOST or http://127.0.0.1:11434 for ollama, "+defaultOpenAIHost+" for openai)")
	fl.StringVar(&f.sim, "sim", "", "serve a built-in simulated model instead of a server (see probe --sims)")
	fl.StringVar(&f.api, "api", apiOllama, "the upstream's protocol: ollama or openai")
	fl.StringVar(&f.listen, "listen", defaultListen, "address to listen on; port 0 picks a free one")
	fl.StringVarP(&f.configFile, "config", "c", "", "YAML file with the tool-call settings, per model, and a serve: mapping"+configFlagHelp)
	fl.StringVar(&f.apiKeyEnv, "api-key-env", "", "environment variable holding a key clients must send as Authorization: Bearer KEY (or x-api-key: KEY)")
	fl.Int64Var(&f.maxRequestBytes, "max-request-bytes", 0, "largest client request body (0: 32 MiB)")
	fl.Int64Var(&f.maxResponseBytes, "max-response-bytes", 0, "largest upstream answer, whole or streamed (0: 64 MiB)")
	fl.IntVar(&f.maxConcurrent, "max-concurrent", 0, "most upstream requests in flight; more wait (0: 64)")
	fl.DurationVar(&f.idleTimeout, "idle-timeout", 0, "end an upstream answer silent for this long (0: 5m)")
	fl.DurationVar(&f.bodyTimeout, "request-body-timeout", 0, "answer 408 to a client whose request body has not arrived within this long (0: 1m)")
	fl.DurationVar(&f.totalTimeout, "total-timeout", 0, "end a request, recovery included, that lasts longer (0: 30m)")
	fl.DurationVar(&f.grace, "shutdown-grace", defaultGrace, "on SIGINT/SIGTERM, how long requests in flight may finish")
	f.log.register(fl, "log every request at DEBUG and up to standard error (default: INFO)")
	return cmd
}

func runServe(cmd *cobra.Command, f *serveFlags) error {
	file, err := configFile(cmd, f.configFile)
	if err != nil {
		return err
	}
	f.configFile = file.Path
	if err := f.merge(cmd); err != nil {
		return err
	}
	if f.sim != "" {
		if cmd.Flags().Changed("upstream") {
			return toolcall.NewError(toolcall.CodeInvalidInput, "--sim and --upstream exclude each other: the simulated model is the upstream")
		}
		sim, err := probe.ServeSim(f.sim)
		if err != nil {
			return err
		}
		defer sim.Close()
		f.upstream = sim.URL
		fmt.Fprintf(cmd.ErrOrStderr(), "simulating %s (model %q): %s\n", sim.Info.Name, sim.Info.Model, sim.Info.Summary)
	}
	opts, err := f.options()
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	logger, closeLog, err := f.log.logger(stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	if logger == nil {
		// A server logs its requests without being asked: INFO and up,
		// in --log-format.
		info := &slog.HandlerOptions{Level: slog.LevelInfo}
		if f.log.format == "json" {
			logger = slog.New(slog.NewJSONHandler(stderr, info))
		} else {
			logger = slog.New(slog.NewTextHandler(stderr, info))
		}
	}
	opts.Logger = logger
	m := metrics.New()
	opts.Observer = m
	h, err := proxy.NewHandler(*opts)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	mux.Handle("/", m.InFlight(h))

	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return toolcall.Errorf(toolcall.CodeInvalidInput, err, fmt.Sprintf("--listen %s: cannot listen there: %v", f.listen, err))
	}
	if !loopback(ln.Addr()) && opts.APIKey == "" {
		logger.Warn("serve: listening beyond this machine without a client key (--api-key-env): anyone who reaches the address reaches the model", "address", ln.Addr().String())
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 30 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stderr, "listening on http://%s\n", ln.Addr())
	logger.Info("serve: started", "upstream", opts.Upstream, "api", string(opts.API), "address", ln.Addr().String())

	select {
	case err := <-served:
		return fmt.Errorf("serving stopped: %w", err)
	case <-ctx.Done():
	}
	stop() // a second signal ends the process at once
	logger.Info("serve: stopping; requests in flight may finish", "grace", f.grace.String())
	sctx, cancel := context.WithTimeout(context.Background(), f.grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		logger.Warn("serve: the grace ran out; requests still in flight are cut", "grace", f.grace.String())
		srv.Close()
	}
	<-served
	logger.Info("serve: stopped")
	return nil
}

// merge fills the settings the command line did not give from the file's
// serve mapping.
func (f *serveFlags) merge(cmd *cobra.Command) error {
	if f.configFile == "" {
		return nil
	}
	file, err := config.LoadServe(f.configFile)
	if err != nil {
		return err
	}
	fl := cmd.Flags()
	set := func(name string, unset bool, apply func()) {
		if !fl.Changed(name) && !unset {
			apply()
		}
	}
	set("upstream", file.Upstream == "", func() { f.upstream = file.Upstream })
	set("api", file.API == "", func() { f.api = file.API })
	set("listen", file.Listen == "", func() { f.listen = file.Listen })
	set("api-key-env", file.APIKeyEnv == "", func() { f.apiKeyEnv = file.APIKeyEnv })
	set("max-request-bytes", file.MaxRequestBytes == 0, func() { f.maxRequestBytes = file.MaxRequestBytes })
	set("max-response-bytes", file.MaxResponseBytes == 0, func() { f.maxResponseBytes = file.MaxResponseBytes })
	set("max-concurrent", file.MaxConcurrent == 0, func() { f.maxConcurrent = file.MaxConcurrent })
	set("idle-timeout", file.IdleTimeout == 0, func() { f.idleTimeout = file.IdleTimeout })
	set("request-body-timeout", file.RequestBodyTimeout == 0, func() { f.bodyTimeout = file.RequestBodyTimeout })
	set("total-timeout", file.TotalTimeout == 0, func() { f.totalTimeout = file.TotalTimeout })
	set("shutdown-grace", file.ShutdownGrace == 0, func() { f.grace = file.ShutdownGrace })
	return nil
}

// upstreamURL reads --upstream as call and probe read --host: empty is
// $OLLAMA_HOST or Ollama's address for --api ollama, llama.cpp's for
// --api openai; a host without a scheme is http, and for Ollama without a
// port 11434, as OLLAMA_HOST is read.
func upstreamURL(upstream, api string) (string, error) {
	bad := func() error {
		return toolcall.NewError(toolcall.CodeInvalidInput, fmt.Sprintf("--upstream %q is not an http:// or https:// URL, or HOST:PORT", upstream))
	}
	s := strings.TrimSpace(upstream)
	if api == apiOllama {
		if s == "" {
			s = os.Getenv("OLLAMA_HOST")
		}
		u, err := ollamaclient.BaseURL(s)
		if err != nil {
			return "", bad()
		}
		return u.String(), nil
	}
	if s == "" {
		s = defaultOpenAIHost
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", bad()
	}
	return s, nil
}

// options checks the settings and builds the proxy's options: the limits,
// the key, and the tool-call settings of every model.
func (f *serveFlags) options() (*proxy.Options, error) {
	usage := func(msg string) error { return toolcall.NewError(toolcall.CodeInvalidInput, msg) }
	switch {
	case f.api != apiOllama && f.api != apiOpenAI:
		return nil, usage(fmt.Sprintf("--api must be %s or %s, not %q", apiOllama, apiOpenAI, f.api))
	case f.maxRequestBytes < 0 || f.maxResponseBytes < 0 || f.maxConcurrent < 0:
		return nil, usage("--max-request-bytes, --max-response-bytes and --max-concurrent must not be negative")
	case f.idleTimeout < 0 || f.totalTimeout < 0 || f.grace < 0 || f.bodyTimeout < 0:
		return nil, usage("--idle-timeout, --request-body-timeout, --total-timeout and --shutdown-grace must not be negative")
	}
	upstream, err := upstreamURL(f.upstream, f.api)
	if err != nil {
		return nil, err
	}
	f.upstream = upstream
	if _, _, err := net.SplitHostPort(f.listen); err != nil {
		return nil, usage(fmt.Sprintf("--listen %q is not HOST:PORT (127.0.0.1:11435; port 0 picks a free one)", f.listen))
	}
	opts := &proxy.Options{
		Upstream: f.upstream, API: proxy.API(f.api),
		MaxRequestBytes: f.maxRequestBytes, MaxResponseBytes: f.maxResponseBytes, MaxConcurrent: f.maxConcurrent,
		IdleTimeout: f.idleTimeout, TotalTimeout: f.totalTimeout, RequestBodyTimeout: f.bodyTimeout,
	}
	if f.apiKeyEnv != "" {
		if opts.APIKey = os.Getenv(f.apiKeyEnv); opts.APIKey == "" {
			return nil, usage(fmt.Sprintf("--api-key-env %s: the variable is not set, or empty", f.apiKeyEnv))
		}
	}
	models, err := config.ResolveModels(f.configFile, f.api, os.LookupEnv, nil)
	if err != nil {
		return nil, err
	}
	base, err := serveConfig(models.Default(), models.DefaultSettings(), "")
	if err != nil {
		return nil, err
	}
	opts.Config = base
	byPattern := map[string]config.Config{}
	for _, p := range models.Patterns() {
		cfg, _, _ := models.For(p)
		if byPattern[p], err = serveConfig(cfg, models.Settings(p), p); err != nil {
			return nil, err
		}
	}
	opts.ModelConfig = func(model string) (config.Config, bool) {
		_, p, ok := models.For(model)
		if !ok {
			return config.Config{}, false
		}
		return byPattern[p], true
	}
	return opts, nil
}

// serveConfig is a model's settings as the proxy takes them: recovery is
// off unless max_retries was set (in the file, the environment), and the
// dialect names must be registered.
func serveConfig(cfg config.Config, settings []config.Setting, pattern string) (config.Config, error) {
	prefix := ""
	if pattern != "" {
		prefix = config.ModelsKey + "." + pattern + "."
	}
	if err := checkDialects(prefix+"dialect", cfg.Dialect); err != nil {
		return cfg, err
	}
	if err := checkDialects(prefix+"fallback", cfg.Fallback...); err != nil {
		return cfg, err
	}
	if config.SourceOf(settings, "max_retries") == config.SourceDefault {
		cfg.MaxRetries = 0
	}
	return cfg, nil
}

// loopback reports whether a listening address is on the loopback
// interface only.
func loopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}
