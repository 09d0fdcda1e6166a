package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/client/ollamaclient"
	"github.com/dialectkit/toolcall/client/openaiclient"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/redact"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/retry"
)

// Exit status of call when the server, not the model, is the problem:
// unreachable, missing model, request rejected, transport budget spent.
const exitServer = 3

// Default hosts of the two protocols: Ollama's, and llama.cpp's server.
const (
	defaultOpenAIHost = "http://127.0.0.1:8080"
	apiOllama         = "ollama"
	apiOpenAI         = "openai"
)

type callFlags struct {
	host       string
	model      string
	api        string
	toolsFile  string
	prompt     string
	system     string
	configFile string
	dialect    string
	template   string
	apiKeyEnv  string
	maxTokens  int
	options    []string
	noStream   bool
	timeout    time.Duration
	json       bool
	log        logFlags
	corrID     string
}

func newCallCmd() *cobra.Command {
	var f callFlags
	cmd := &cobra.Command{
		Use:   "call --model NAME --prompt TEXT [flags]",
		Short: "Run one tool-calling turn against a server, with recovery",
		Long: `call sends one prompt with the declared tools to a model server (Ollama's
/api/chat, or an OpenAI-compatible /v1/chat/completions such as llama.cpp's
server, vLLM or LM Studio) and recovers the tool calls the way the retry
package does: native tool_calls or text in a dialect are parsed, repaired and
validated; calls that fail are sent back to the model as their tool results
with the error and a correct example; transport failures are retried with
backoff; a truncated answer is asked again with a larger budget.

It prints the final calls, every attempt (what was wrong, what was sent
back), the tokens and times, and the run's statistics.

Exit status: 0 when the turn ended with valid calls (or a plain answer);
1 when the model never produced valid calls within the budgets; 2 for usage
and configuration errors; 3 when the server is the problem (unreachable,
model missing, request rejected, transport retries spent).`,
		Example: `  dialect-probe call --model qwen3:8b --tools tools.json --prompt "Weather in Paris?"
  dialect-probe call --api openai --host http://127.0.0.1:8080 --model qwen3 \
      --tools tools.json --dialect hermes --prompt "Weather in Paris?" --json
  echo "Weather in Paris?" | dialect-probe call --model llama3.2 --tools tools.json --prompt -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			file, err := configFile(cmd, f.configFile)
			if err != nil {
				return err
			}
			f.configFile = file.Path
			return runCall(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.host, "host", "", "server URL (default $OLLAMA_HOST or http://127.0.0.1:11434 for ollama, "+defaultOpenAIHost+" for openai)")
	fl.StringVarP(&f.model, "model", "m", "", "model name (required)")
	fl.StringVar(&f.api, "api", apiOllama, "server protocol: ollama or openai")
	fl.StringVarP(&f.toolsFile, "tools", "t", "", "JSON file with the declared tools (OpenAI/Ollama or bare shape)")
	fl.StringVarP(&f.prompt, "prompt", "p", "", `the user message ("-" reads it from standard input)`)
	fl.StringVar(&f.system, "system", "", "a system message sent before the prompt")
	fl.StringVarP(&f.configFile, "config", "c", "", "YAML file with the retry settings"+configFlagHelp)
	fl.StringVarP(&f.dialect, "dialect", "d", "", "dialect of calls written as text (default: detect)")
	fl.StringVar(&f.template, "template", "", "chat template file, used as detection evidence")
	fl.StringVar(&f.apiKeyEnv, "api-key-env", "OPENAI_API_KEY", "environment variable holding the API key (openai)")
	fl.IntVar(&f.maxTokens, "max-tokens", 0, "output budget of the first request (0: the server's default)")
	fl.StringArrayVarP(&f.options, "option", "o", nil, "request option KEY=VALUE, VALUE read as JSON when it is (temperature=0, num_ctx=8192)")
	fl.BoolVar(&f.noStream, "no-stream", false, "openai: ask for one JSON answer instead of a stream")
	fl.DurationVar(&f.timeout, "timeout", 10*time.Minute, "give up after this long")
	fl.BoolVar(&f.json, "json", false, "print the outcome as JSON")
	f.log.register(fl, "log the loop's records to standard error")
	fl.StringVar(&f.corrID, "correlation-id", "", "correlation id of the run in its log records (default: a new one)")
	return cmd
}

func runCall(cmd *cobra.Command, f *callFlags) error {
	req, err := f.request(cmd.InOrStdin())
	if err != nil {
		return err
	}
	// The file (its models entry for --model over its section), then
	// DIALECTKIT_TOOL_CALL_* variables, over the defaults (config show
	// prints the result).
	cfg, _, err := config.ResolveModel(f.configFile, f.api, f.model, os.LookupEnv, nil)
	if err != nil {
		return err
	}
	if err := checkDialects("fallback", cfg.Fallback...); err != nil {
		return err
	}
	model, host, err := f.modelAdapter()
	if err != nil {
		return err
	}
	if err := checkDialects("--dialect", f.dialect); err != nil {
		return err
	}
	parse := registry.Options{Dialect: f.dialect, Model: f.model}
	if f.template != "" {
		data, err := os.ReadFile(f.template)
		if err != nil {
			return err
		}
		parse.Template = string(data)
	}
	stats := &retry.Stats{}
	loop := &retry.Loop{Model: model, Config: &cfg, Parse: parse, Stats: stats}
	logger, closeLog, err := f.log.logger(cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer closeLog()
	loop.Logger = logger

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	if f.corrID != "" {
		ctx = retry.WithCorrelationID(ctx, f.corrID)
	}
	out, runErr := loop.Run(ctx, req)

	report := newCallReport(f, host, out, runErr, stats.Snapshot())
	w := cmd.OutOrStdout()
	if f.json {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return err
		}
	} else {
		printCall(w, report)
	}
	if runErr == nil {
		return nil
	}
	code, msg := callFailure(f, host, runErr)
	fmt.Fprintln(cmd.ErrOrStderr(), "dialect-probe:", msg)
	return exitError{code}
}

// request builds the chat request from the flags.
func (f *callFlags) request(stdin io.Reader) (*client.Request, error) {
	if f.model == "" {
		return nil, errors.New("--model is required")
	}
	if f.api != apiOllama && f.api != apiOpenAI {
		return nil, fmt.Errorf("--api must be %s or %s, not %q", apiOllama, apiOpenAI, f.api)
	}
	prompt := f.prompt
	if prompt == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, err
		}
		prompt = strings.TrimSpace(string(data))
	}
	if prompt == "" {
		return nil, errors.New(`--prompt is required ("-" reads it from standard input)`)
	}
	req := &client.Request{Model: f.model, MaxTokens: f.maxTokens}
	if f.system != "" {
		req.Messages = append(req.Messages, client.Message{Role: "system", Content: f.system})
	}
	req.Messages = append(req.Messages, client.Message{Role: "user", Content: prompt})
	if f.toolsFile != "" {
		data, err := os.ReadFile(f.toolsFile)
		if err != nil {
			return nil, err
		}
		if req.Tools, err = toolcall.ParseTools(data); err != nil {
			return nil, fmt.Errorf("%s: %w", f.toolsFile, err)
		}
	}
	for _, o := range f.options {
		key, value, ok := strings.Cut(o, "=")
		if !ok || strings.TrimSpace(key) == "" {
			return nil, fmt.Errorf("--option %q is not KEY=VALUE", o)
		}
		if req.Options == nil {
			req.Options = map[string]any{}
		}
		var v any = value
		if json.Valid([]byte(value)) {
			_ = json.Unmarshal([]byte(value), &v)
		}
		req.Options[strings.TrimSpace(key)] = v
	}
	if f.maxTokens < 0 {
		return nil, errors.New("--max-tokens must not be negative")
	}
	return req, nil
}

// modelAdapter builds the adapter for --api and returns the host it
// speaks to, for messages.
func (f *callFlags) modelAdapter() (client.Model, string, error) {
	if f.api == apiOpenAI {
		host := f.host
		if host == "" {
			host = defaultOpenAIHost
		}
		m, err := openaiclient.New(host, &openaiclient.Options{
			APIKey:           os.Getenv(f.apiKeyEnv),
			DisableStreaming: f.noStream,
		})
		if err != nil {
			return nil, "", err
		}
		return m, m.Endpoint(), nil
	}
	host := f.host
	if host == "" {
		host = os.Getenv("OLLAMA_HOST")
	}
	m, err := ollamaclient.NewHost(host, nil)
	if err != nil {
		return nil, "", err
	}
	if host == "" {
		host = "http://127.0.0.1:11434"
	}
	return m, host, nil
}

// callFailure gives the exit status and the message for a run that
// failed. The server's own message is quoted for request rejections and
// HTTP failures, never for a tool call parser failure, which quotes the
// model's arguments. The error's text names the tools the model wrote and
// may quote the server: credential shapes in it are redacted, as in the
// log records.
func callFailure(f *callFlags, host string, err error) (int, string) {
	said := redact.Text(err.Error())
	var te *client.TransportError
	var coded *toolcall.Error
	errors.As(err, &coded)
	transport := errors.As(err, &te)
	switch {
	case coded != nil && isUsageCode(coded.Code):
		return 2, said
	case errors.Is(err, toolcall.ErrCanceled):
		return exitServer, fmt.Sprintf("stopped before the model answered (interrupted, or --timeout %s passed)", f.timeout)
	case errors.Is(err, toolcall.ErrMalformedCall) && transport:
		return 1, "the server's own tool call parser failed on the model's output every time (TLP-019); run with --verbose for details"
	case !transport && coded != nil && coded.Code == toolcall.CodeTooLarge:
		// Only the model client gives a run this error: calls that are too
		// large end in TLP-006, with the calls' errors inside.
		return exitServer, fmt.Sprintf("the server at %s sent an answer over the size limit: %s", host, said)
	case !transport && errors.Is(err, toolcall.ErrTransport):
		return exitServer, fmt.Sprintf("the server at %s failed during the answer: %s", host, said)
	case !transport:
		return 1, "no valid tool call: " + said
	}
	said = ""
	if te.Message != "" {
		// The server's message may quote the request, its headers
		// included: credentials are redacted before it is printed.
		said = ": " + clipText(redact.Text(te.Message), 300)
	}
	switch st := te.StatusCode; {
	case errors.Is(err, client.ErrIdleTimeout):
		return exitServer, fmt.Sprintf("the server at %s stopped sending (%v); raise idle_timeout_ms for a model slow to start", host, te.Err)
	case st == 0:
		hint := "is the server running? set --host"
		if f.api == apiOllama {
			hint += " or OLLAMA_HOST"
		}
		return exitServer, fmt.Sprintf("cannot reach the %s server at %s (%v); %s", f.api, host, te.Err, hint)
	case st == 404 && f.api == apiOllama:
		return exitServer, fmt.Sprintf("the server at %s has no model %q (ollama pull %s)%s", host, f.model, f.model, said)
	case st == 404:
		return exitServer, fmt.Sprintf("%s answered 404: no model %q there, or not an OpenAI-compatible endpoint%s", host, f.model, said)
	case st == 401 || st == 403:
		return exitServer, fmt.Sprintf("the server at %s refused the credentials (%d); the key is read from $%s%s", host, st, f.apiKeyEnv, said)
	case st == 400 || st == 422:
		return exitServer, fmt.Sprintf("the server rejected the request%s", said)
	}
	return exitServer, fmt.Sprintf("the server at %s kept failing (%d)%s", host, te.StatusCode, said)
}

// isUsageCode reports the codes of errors in what the user gave: the
// tools, the configuration, the dialect name, the request.
func isUsageCode(c toolcall.Code) bool {
	switch c {
	case toolcall.CodeInvalidInput, toolcall.CodeInvalidTool, toolcall.CodeUnknownDialect, toolcall.CodeInvalidConfig:
		return true
	}
	return false
}

func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// callReport is the --json output, and what the human output prints.
type callReport struct {
	Model         string            `json:"model"`
	API           string            `json:"api"`
	Host          string            `json:"host"`
	CorrelationID string            `json:"correlation_id,omitempty"`
	OK            bool              `json:"ok"`
	Dialect       string            `json:"dialect,omitempty"`
	Calls         []callRecord      `json:"calls"`
	Content       string            `json:"content,omitempty"`
	Reasoning     string            `json:"reasoning,omitempty"`
	Repairs       []toolcall.Repair `json:"repairs,omitempty"`
	Errors        []errorRecord     `json:"errors"`
	Attempts      []attemptRecord   `json:"attempts"`
	Tokens        tokenRecord       `json:"tokens"`
	DurationMS    float64           `json:"duration_ms"`
	Statistics    retry.Snapshot    `json:"statistics"`
	Error         *errorRecord      `json:"error,omitempty"`
}

type tokenRecord struct {
	Prompt     int `json:"prompt"`
	Completion int `json:"completion"`
	Total      int `json:"total"`
}

// attemptRecord is one model turn: what was wrong and what was sent back.
type attemptRecord struct {
	Number           int               `json:"number"`
	Reason           string            `json:"reason"`
	Dialect          string            `json:"dialect,omitempty"`
	Calls            int               `json:"calls"`
	Errors           []errorRecord     `json:"errors,omitempty"`
	Repairs          []toolcall.Repair `json:"repairs,omitempty"`
	Truncated        bool              `json:"truncated,omitempty"`
	Rejected         bool              `json:"rejected,omitempty"`
	SentBack         []sentRecord      `json:"sent_back,omitempty"`
	MaxTokens        int               `json:"max_tokens,omitempty"`
	PromptTokens     int               `json:"prompt_tokens"`
	CompletionTokens int               `json:"completion_tokens"`
	TransportRetries int               `json:"transport_retries,omitempty"`
	ModelMS          float64           `json:"model_ms"`
	ParseMS          float64           `json:"parse_ms"`
	WaitMS           float64           `json:"wait_ms,omitempty"`
}

// sentRecord is one re-ask: the tool result for a failed call (CallID
// set), or a user message.
type sentRecord struct {
	CallID string        `json:"call_id,omitempty"`
	Tool   string        `json:"tool,omitempty"`
	Code   toolcall.Code `json:"code"`
	Text   string        `json:"text"`
}

// redactRecord hides credential shapes in an error of the report: the
// tool name and the message come from the model's output, and the report,
// like a log record above DEBUG, never shows a secret.
func redactRecord(r errorRecord) errorRecord {
	r.Message, r.Tool, r.Path = redact.Text(r.Message), redact.Text(r.Tool), redact.Text(r.Path)
	return r
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func newCallReport(f *callFlags, host string, out *retry.Outcome, err error, stats retry.Snapshot) callReport {
	r := callReport{Model: f.model, API: f.api, Host: host, OK: err == nil, Calls: []callRecord{}, Errors: []errorRecord{},
		Attempts: []attemptRecord{}, Statistics: stats}
	if err != nil {
		var e *toolcall.Error
		if !errors.As(err, &e) {
			e = toolcall.Errorf(toolcall.CodeTransport, err, err.Error())
		}
		rec := redactRecord(toErrorRecord(e))
		r.Error = &rec
	}
	if out == nil {
		return r
	}
	r.CorrelationID = out.CorrelationID
	if res := out.Result; res != nil {
		r.Dialect, r.Content, r.Reasoning, r.Repairs = res.Dialect, res.Content, res.Reasoning, res.Repairs
		for _, c := range res.Calls {
			r.Calls = append(r.Calls, callRecord{ID: c.ID, Name: c.Name, Server: c.Server, Arguments: c.Arguments})
		}
		for _, e := range res.Errors {
			r.Errors = append(r.Errors, redactRecord(toErrorRecord(e)))
		}
	}
	for _, a := range out.Attempts {
		ar := attemptRecord{
			Number: a.Number, Reason: a.Reason, Dialect: a.Dialect, Calls: a.Calls, Repairs: a.Repairs,
			Truncated: a.Truncated, Rejected: a.Rejected, MaxTokens: a.MaxTokens,
			PromptTokens: a.PromptTokens, CompletionTokens: a.CompletionTokens, TransportRetries: a.TransportRetries,
			ModelMS: millis(a.ModelTime), ParseMS: millis(a.ParseTime), WaitMS: millis(a.Wait),
		}
		for _, e := range a.Errors {
			ar.Errors = append(ar.Errors, redactRecord(toErrorRecord(e)))
		}
		for _, s := range a.Reflections {
			ar.SentBack = append(ar.SentBack, sentRecord{CallID: s.CallID, Tool: redact.Text(s.Tool), Code: s.Code, Text: redact.Text(s.Text)})
		}
		r.Attempts = append(r.Attempts, ar)
	}
	r.Tokens = tokenRecord{out.PromptTokens, out.CompletionTokens, out.TotalTokens()}
	r.DurationMS = millis(out.Duration)
	return r
}

func printCall(w io.Writer, r callReport) {
	fmt.Fprintf(w, "model: %s (%s, %s)\n", r.Model, r.API, r.Host)
	switch {
	case r.OK && len(r.Calls) == 0:
		fmt.Fprintf(w, "result: no tool call, a plain answer (%s)\n", plural(len(r.Attempts), "attempt"))
	case r.OK:
		fmt.Fprintf(w, "result: %s after %s\n", plural(len(r.Calls), "valid call"), plural(len(r.Attempts), "attempt"))
	default:
		fmt.Fprintf(w, "result: failed after %s (%s)\n", plural(len(r.Attempts), "attempt"), r.Error.Code)
	}
	if r.Dialect != "" {
		fmt.Fprintf(w, "dialect: %s\n", r.Dialect)
	}
	for i, c := range r.Calls {
		fmt.Fprintf(w, "  [%d] %s %s  (id %s)\n", i, c.Name, c.Arguments, c.ID)
	}
	if r.Content != "" {
		fmt.Fprintf(w, "content: %q\n", r.Content)
	}
	if r.Reasoning != "" {
		fmt.Fprintf(w, "reasoning: %q\n", clipText(r.Reasoning, 200))
	}
	if len(r.Errors) > 0 && !sameErrors(r.Errors, r.Attempts) {
		fmt.Fprintln(w, "still failing:")
		for _, e := range r.Errors {
			fmt.Fprintf(w, "  %s\n", e.Message)
		}
	}
	if len(r.Attempts) > 0 {
		fmt.Fprintln(w, "attempts:")
	}
	for _, a := range r.Attempts {
		printAttempt(w, a)
	}
	fmt.Fprintf(w, "tokens: %d prompt + %d completion = %d\n", r.Tokens.Prompt, r.Tokens.Completion, r.Tokens.Total)
	var model, parse, wait float64
	for _, a := range r.Attempts {
		model, parse, wait = model+a.ModelMS, parse+a.ParseMS, wait+a.WaitMS
	}
	fmt.Fprintf(w, "time: %s (model %s, parse %s, waiting %s)\n", msText(r.DurationMS), msText(model), msText(parse), msText(wait))
	s := r.Statistics
	fmt.Fprintf(w, "statistics: runs %d (succeeded %d, failed %d; first try %d, repaired %d, recovered %d), attempts %d, reflections %d, truncations %d, rejections %d, transport retries %d\n",
		s.Runs, s.Succeeded, s.Failed, s.Parsed, s.Repaired, s.Recovered, s.Attempts, s.Reflections, s.Truncations, s.Rejections, s.TransportRetries)
	if len(s.CallErrorsByCode) > 0 {
		fmt.Fprintf(w, "call errors by code: %s\n", countsText(s.CallErrorsByCode))
	}
	if len(s.RepairsByKind) > 0 {
		fmt.Fprintf(w, "repairs by kind: %s\n", countsText(s.RepairsByKind))
	}
}

func printAttempt(w io.Writer, a attemptRecord) {
	what := plural(a.Calls, "valid call")
	if failed := failedCalls(a.Errors); failed > 0 {
		what = fmt.Sprintf("%d valid, %d failed", a.Calls, failed)
	}
	switch {
	case a.Truncated:
		what = "truncated"
	case a.Rejected:
		what = "rejected by the server"
	case noAnswer(a):
		what = "no answer"
	}
	dialect := ""
	if a.Dialect != "" {
		dialect = ", " + a.Dialect
	}
	budget := ""
	if a.MaxTokens > 0 {
		budget = fmt.Sprintf(", max %d", a.MaxTokens)
	}
	retries := ""
	if a.TransportRetries > 0 {
		retries = fmt.Sprintf(", %s", plural(a.TransportRetries, "transport retry"))
	}
	fmt.Fprintf(w, "  #%d %s: %s%s — tokens %d+%d%s, model %s, parse %s%s\n", a.Number, a.Reason, what, dialect,
		a.PromptTokens, a.CompletionTokens, budget, msText(a.ModelMS), msText(a.ParseMS), retries)
	for _, e := range a.Errors {
		fmt.Fprintf(w, "      wrong: %s\n", e.Message)
	}
	for _, s := range a.SentBack {
		to := "as a user message"
		if s.CallID != "" {
			to = "as the result of " + s.CallID
		}
		fmt.Fprintf(w, "      sent back %s (%s):\n", to, s.Code)
		for line := range strings.Lines(strings.TrimRight(s.Text, "\n")) {
			fmt.Fprintf(w, "        | %s", line)
			if !strings.HasSuffix(line, "\n") {
				fmt.Fprintln(w)
			}
		}
	}
}

// failedCalls counts the errors of the calls the answer held: every
// error but the ones that say no answer came (transport, cancellation,
// open circuit).
func failedCalls(errs []errorRecord) int {
	n := 0
	for _, e := range errs {
		if e.Index != nil || !answerlessCode(e.Code) {
			n++
		}
	}
	return n
}

// noAnswer reports an attempt that got no answer from the model: no call,
// and only errors that say the request itself failed. Token counts do not
// decide, as servers that report none exist.
func noAnswer(a attemptRecord) bool {
	if a.Calls > 0 || a.Dialect != "" || len(a.Errors) == 0 {
		return false
	}
	for _, e := range a.Errors {
		if e.Index != nil || !answerlessCode(e.Code) {
			return false
		}
	}
	return true
}

// answerlessCode reports the codes of an attempt that ended before the
// model answered.
func answerlessCode(c toolcall.Code) bool {
	switch c {
	case toolcall.CodeTransport, toolcall.CodeCanceled, toolcall.CodeCircuitOpen, toolcall.CodeRequestRejected:
		return true
	}
	return false
}

// sameErrors reports that errs only repeat the last attempt's errors, as
// when no answer arrived at all.
func sameErrors(errs []errorRecord, attempts []attemptRecord) bool {
	if len(attempts) == 0 {
		return false
	}
	last := attempts[len(attempts)-1].Errors
	if len(last) != len(errs) {
		return false
	}
	for i := range errs {
		if errs[i].Message != last[i].Message {
			return false
		}
	}
	return true
}

func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "y"):
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// msText prints milliseconds the way a person reads them.
func msText(ms float64) string {
	switch {
	case ms >= 1000:
		return fmt.Sprintf("%.2fs", ms/1000)
	case ms >= 10:
		return fmt.Sprintf("%.0fms", ms)
	}
	return fmt.Sprintf("%.2fms", ms)
}

// countsText prints a count map in key order: "TLP-002 1, TLP-004 2".
func countsText[K ~string](m map[K]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, string(k))
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[K(k)])
	}
	return strings.Join(parts, ", ")
}
