package probe

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/redact"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/retry"
)

// Options configure a probe. The zero value (or nil) probes with the
// built-in battery, native tools and three automatically chosen dialects.
type Options struct {
	// Battery is the prompts and tools; nil is DefaultBattery().
	Battery *Battery
	// Candidates are the dialects to present the tools in when native
	// tools are off; nil chooses them: the template's, Ollama's parser's,
	// the model table's, the dialect native answers leaked in, then
	// hermes, json and pythonic.
	Candidates []string
	// MaxCandidates bounds the chosen candidates; 0 is 3.
	MaxCandidates int
	// SkipNative and SkipPrompted leave a phase out.
	SkipNative   bool
	SkipPrompted bool
	// Template, when set, is the chat template used as evidence instead of
	// the server's; TemplateSource says where it came from ("file" when
	// empty).
	Template       string
	TemplateSource string
	// Config holds the retry loop's settings; nil is config.Default().
	// The probe turns the circuit breaker off and does not re-ask after an
	// HTTP 400, so that every prompt is measured on its own.
	Config *config.Config
	// Registry parses answers; nil is registry.Default().
	Registry *registry.Registry
	// Renderer writes a dialect's syntax for the prompted modes; nil is
	// package render.
	Renderer func(dialect string) (Renderer, bool)
	// MaxTokens is the output budget of each first request (0: the
	// server's default); RequestOptions are passed to the server
	// (temperature, num_ctx, …).
	MaxTokens      int
	RequestOptions map[string]any
	// KeepText keeps the text of each first answer in the report.
	KeepText bool
	// Clock measures the latencies and waits between attempts; nil is the
	// real clock. A simulation (Sim) passes its own virtual clock, for
	// reproducible reports.
	Clock retry.Clock
	// Progress, when set, is called before each prompt is asked.
	Progress func(Progress)
	// Logger receives the retry loop's records.
	Logger *slog.Logger
}

// Progress says where a running probe is.
type Progress struct {
	// Step counts the prompts asked so far, this one included, of Total.
	Step, Total int
	// Mode is ModeNative or ModePrompted, Dialect the prompted dialect.
	Mode, Dialect string
	// Prompt is the prompt's id.
	Prompt string
}

// Staple dialects tried when no evidence names enough candidates: the
// three shapes small models most often follow.
var staples = []string{"hermes", "json", "pythonic"}

// Run probes the model: it asks the server about the model and its chat
// template, asks every prompt with native tools, then with the tools
// presented in the system prompt in each candidate dialect, lets the retry
// loop recover what failed, and reports what it saw and what to configure.
//
// Errors: TLP-016 (or TLP-018 for an unknown candidate) for invalid
// options, before anything is sent; errors for which ServerError is true
// when the server cannot be reached, has no such model, fails or rejects
// requests (the report so far is returned with them).
func Run(ctx context.Context, target Target, opts *Options) (*Report, error) {
	p, err := newProber(target, opts)
	if err != nil {
		return nil, err
	}
	return p.run(ctx)
}

// prober is the state of one Run.
type prober struct {
	target   Target
	opts     Options
	battery  *Battery
	reg      *registry.Registry
	cfg      config.Config
	model    client.Model
	analyzer *analyzer
	report   *Report
	template string

	step, total int
}

func newProber(target Target, opts *Options) (*prober, error) {
	if err := target.validate(); err != nil {
		return nil, err
	}
	p := &prober{target: target}
	if opts != nil {
		p.opts = *opts
	}
	o := &p.opts
	p.battery = cmp.Or(o.Battery, DefaultBattery())
	if p.battery.set == nil {
		return nil, toolcall.NewError(toolcall.CodeInvalidInput, "the battery was not made by ParseBattery")
	}
	p.reg = cmp.Or(o.Registry, registry.Default())
	if o.Renderer == nil {
		o.Renderer = defaultRenderer
	}
	if o.MaxCandidates <= 0 {
		o.MaxCandidates = 3
	}
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	if o.MaxTokens < 0 {
		return nil, toolcall.NewError(toolcall.CodeInvalidInput, "MaxTokens must not be negative")
	}
	for _, d := range o.Candidates {
		if _, ok := p.reg.Lookup(d); !ok {
			return nil, toolcall.NewError(toolcall.CodeUnknownDialect, fmt.Sprintf("candidate %q is not a registered dialect", d))
		}
		if _, ok := o.Renderer(d); !ok {
			return nil, toolcall.NewError(toolcall.CodeUnknownDialect, fmt.Sprintf("candidate %q has no renderer to present tools with", d))
		}
	}
	p.cfg = config.Default()
	if o.Config != nil {
		if err := o.Config.Validate(); err != nil {
			return nil, err
		}
		p.cfg = *o.Config
	}
	// Every prompt is measured on its own: no breaker across prompts, and
	// a request the server refuses is a finding, not something to argue.
	p.cfg.BreakerThreshold = 0
	p.cfg.ModelHTTPRetries = 0
	p.cfg.Dialect = ""
	model, err := target.chatModel()
	if err != nil {
		return nil, err
	}
	p.model = model
	p.analyzer = &analyzer{reg: p.reg, tools: p.battery.set, cfg: &p.cfg}
	return p, nil
}

func (p *prober) run(ctx context.Context) (*Report, error) {
	start := p.opts.Clock.Now()
	info, err := Inspect(ctx, p.target)
	if err != nil {
		return nil, err
	}
	p.report = &Report{Model: p.target.Model, API: p.target.api(), Host: p.target.HostURL(), Server: *info, Modes: []ModeReport{}}
	for _, pr := range p.battery.Prompts {
		p.report.Prompts = append(p.report.Prompts, PromptInfo{ID: pr.ID, Kind: pr.Kind, Expect: pr.ExpectedNames()})
	}
	p.evidence(info)
	p.analyzer.template, p.analyzer.model = p.template, p.target.Model
	candidates := p.candidates()
	prompts := len(p.battery.Prompts)
	if !p.opts.SkipNative {
		p.total += prompts
	}
	if !p.opts.SkipPrompted {
		p.total += prompts * len(candidates)
	}
	defer func() { p.report.DurationMS = millis(p.opts.Clock.Now().Sub(start)) }()

	if !p.opts.SkipNative {
		mode, err := p.native(ctx, info)
		p.report.Modes = append(p.report.Modes, mode)
		if err != nil {
			return p.report, err
		}
		if leaked := leakedDialect(&mode); leaked != "" && len(p.opts.Candidates) == 0 && !slices.Contains(candidates, leaked) {
			if _, ok := p.opts.Renderer(leaked); ok {
				before := len(candidates)
				candidates = append([]string{leaked}, candidates...)
				candidates = candidates[:min(len(candidates), p.opts.MaxCandidates)]
				if !p.opts.SkipPrompted {
					p.total += prompts * (len(candidates) - before)
				}
			}
		}
	}
	if !p.opts.SkipPrompted {
		for _, d := range candidates {
			mode, err := p.prompted(ctx, d)
			p.report.Modes = append(p.report.Modes, mode)
			if err != nil {
				return p.report, err
			}
		}
	}
	p.report.Recommendation = recommend(p.report)
	return p.report, nil
}

// evidence records what the template, Ollama's parser and the model name
// say.
func (p *prober) evidence(info *ModelInfo) {
	p.template, p.report.Template.Source = info.Template, info.TemplateSource
	if p.opts.Template != "" {
		p.template, p.report.Template.Source = p.opts.Template, cmp.Or(p.opts.TemplateSource, "file")
	}
	t := &p.report.Template
	t.Bytes = len(p.template)
	t.Detection = p.reg.DetectTemplate(p.template)
	t.Parser = info.Parser
	t.ParserDialect = p.reg.DialectForOllamaParser(info.Parser)
	p.report.ModelTable.Dialect, p.report.ModelTable.Pattern = p.reg.DialectForModel(p.target.Model)
}

// candidates chooses the dialects to present the tools in.
func (p *prober) candidates() []string {
	var list []string
	if len(p.opts.Candidates) > 0 {
		for _, d := range p.opts.Candidates {
			if !slices.Contains(list, d) {
				list = append(list, d)
			}
		}
		return list
	}
	add := func(d string) {
		if d == "" || d == retry.NativeDialect || slices.Contains(list, d) {
			return
		}
		if _, ok := p.reg.Lookup(d); !ok {
			return
		}
		if _, ok := p.opts.Renderer(d); ok {
			list = append(list, d)
		}
	}
	for _, d := range p.report.Template.Detection.Dialects() {
		add(d)
	}
	add(p.report.Template.ParserDialect)
	add(p.report.ModelTable.Dialect)
	for _, d := range staples {
		add(d)
	}
	return list[:min(len(list), p.opts.MaxCandidates)]
}

// leakedDialect is the dialect most native answers wrote their calls in,
// when they wrote them into the text.
func leakedDialect(m *ModeReport) string {
	counts := map[string]int{}
	best := ""
	for _, r := range m.Results {
		if r.Answer.Where != WhereContent {
			continue
		}
		d := r.Answer.Dialect
		counts[d]++
		if counts[d] > counts[best] || counts[d] == counts[best] && d < best {
			best = d
		}
	}
	return best
}

// native asks every prompt with the tools in the request's tools field.
func (p *prober) native(ctx context.Context, info *ModelInfo) (ModeReport, error) {
	mode := ModeReport{Mode: ModeNative}
	unsupported := func(from int) {
		for _, pr := range p.battery.Prompts[from:] {
			mode.Results = append(mode.Results, PromptResult{Prompt: pr.ID, Outcome: OutcomeUnsupported,
				Answer: Answer{Where: WhereNoAnswer}, Final: []string{}})
		}
	}
	if supported, known := info.ToolSupport(); known && !supported {
		mode.Unsupported = fmt.Sprintf("the server lists no tools capability for the model (capabilities: %s)",
			cmp.Or(strings.Join(info.Capabilities, ", "), "none"))
		unsupported(0)
		p.step += len(p.battery.Prompts)
		mode.Summary = summarize(mode.Results)
		return mode, nil
	}
	parse := registry.Options{Template: p.template, Model: p.target.Model}
	for i := range p.battery.Prompts {
		pr := &p.battery.Prompts[i]
		p.progress(ModeNative, "", pr.ID)
		res, err := p.ask(ctx, p.model, pr, parse)
		if err != nil && errors.Is(err, toolcall.ErrRequestRejected) && !errors.Is(err, toolcall.ErrRetriesExhausted) {
			mode.Unsupported = "the server refused native tools: " + rejection(err)
			unsupported(i)
			p.step += len(p.battery.Prompts) - i - 1
			break
		}
		mode.Results = append(mode.Results, res)
		if err != nil && ServerError(err) {
			mode.Summary = summarize(mode.Results)
			return mode, err
		}
	}
	mode.Summary = summarize(mode.Results)
	return mode, nil
}

// rejection is the server's message for a refused request.
func rejection(err error) string {
	var te *client.TransportError
	if errors.As(err, &te) && te.Message != "" {
		// Redacted: the server may quote the request's credentials.
		msg := strings.Join(strings.Fields(redact.Text(te.Message)), " ")
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		return msg
	}
	return errorInfo(err).Message
}

// prompted asks every prompt with the tools in the system prompt, in
// dialect d, and parses the answers as d.
func (p *prober) prompted(ctx context.Context, d string) (ModeReport, error) {
	mode := ModeReport{Mode: ModePrompted, Dialect: d}
	r, _ := p.opts.Renderer(d)
	model := &TextDialect{Model: p.model, Renderer: r}
	parse := registry.Options{Dialect: d}
	for i := range p.battery.Prompts {
		pr := &p.battery.Prompts[i]
		p.progress(ModePrompted, d, pr.ID)
		res, err := p.ask(ctx, model, pr, parse)
		mode.Results = append(mode.Results, res)
		if err != nil && ServerError(err) {
			mode.Summary = summarize(mode.Results)
			return mode, err
		}
	}
	mode.Summary = summarize(mode.Results)
	return mode, nil
}

func (p *prober) progress(mode, dialect, prompt string) {
	p.step++
	if p.opts.Progress != nil {
		p.opts.Progress(Progress{Step: p.step, Total: p.total, Mode: mode, Dialect: dialect, Prompt: prompt})
	}
}

// realClock is the wall clock, and retry.SleepContext to wait.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error { return retry.SleepContext(ctx, d) }

// ask runs one prompt through the retry loop and describes what happened.
func (p *prober) ask(ctx context.Context, model client.Model, pr *Prompt, parse registry.Options) (PromptResult, error) {
	rec := &recorder{model: model}
	cfg := p.cfg
	cfg.RequireToolCall = pr.WantsCall()
	loop := &retry.Loop{Model: rec, Tools: p.battery.set, Registry: p.reg, Parse: parse, Config: &cfg,
		Clock: p.opts.Clock, Logger: p.opts.Logger}
	req := &client.Request{Model: p.target.Model, Tools: p.battery.Tools, MaxTokens: p.opts.MaxTokens, Options: p.opts.RequestOptions}
	if p.battery.System != "" {
		req.Messages = append(req.Messages, client.Message{Role: "system", Content: p.battery.System})
	}
	req.Messages = append(req.Messages, client.Message{Role: "user", Content: pr.Text})
	out, err := loop.Run(ctx, req)
	p.report.Requests += rec.count()

	res := PromptResult{Prompt: pr.ID, Final: []string{}, Answer: Answer{Where: WhereNoAnswer}}
	if first := rec.first(); first != nil {
		res.Answer = p.analyzer.answer(first, pr, parse.Dialect, p.opts.KeepText)
	}
	var final []toolcall.Call
	var repairs int
	if out != nil {
		res.Attempts = len(out.Attempts)
		res.PromptTokens, res.CompletionTokens = out.PromptTokens, out.CompletionTokens
		res.TotalMS = millis(out.Duration)
		if len(out.Attempts) > 0 {
			res.LatencyMS = millis(out.Attempts[0].ModelTime)
		}
		for _, a := range out.Attempts[min(1, len(out.Attempts)):] {
			switch a.Reason {
			case retry.ReasonReflection:
				res.Reflections++
			case retry.ReasonTruncation:
				res.Truncations++
			case retry.ReasonRejected:
				res.Rejections++
			}
		}
		if res.Truncations > 0 {
			res.MaxTokens = out.Attempts[len(out.Attempts)-1].MaxTokens
		}
		if out.Result != nil {
			final, repairs = out.Result.Calls, len(out.Result.Repairs)
		}
	}
	res.Final = nameList(final)
	res.FinalMatch = pr.MatchCalls(final)
	switch {
	case err != nil:
		res.Outcome, res.Error = OutcomeFailed, errorInfo(err)
	case !pr.WantsCall() && len(final) > 0:
		res.Outcome = OutcomeUnwanted
	case !res.FinalMatch.Names:
		res.Outcome = OutcomeWrongCall
	case res.Attempts > 1:
		res.Outcome, res.RecoveredAt = OutcomeRecovered, res.Attempts
	case repairs > 0:
		res.Outcome = OutcomeRepaired
	default:
		res.Outcome = OutcomeOK
	}
	return res, err
}

// recorder is a client.Model that keeps the first answer and counts the
// requests.
type recorder struct {
	model client.Model

	mu       sync.Mutex
	requests int
	answer   *client.Response
}

func (r *recorder) Chat(ctx context.Context, req *client.Request) (*client.Response, error) {
	resp, err := r.model.Chat(ctx, req)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests++
	if err == nil && resp != nil && r.answer == nil {
		r.answer = resp
	}
	return resp, err
}

func (r *recorder) first() *client.Response {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.answer
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests
}
