package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/probe"
	"github.com/dialectkit/toolcall/redact"
)

type probeFlags struct {
	host          string
	model         string
	api           string
	apiKeyEnv     string
	sim           string
	listSims      bool
	promptsFile   string
	printPrompts  bool
	candidates    []string
	maxCandidates int
	noNative      bool
	noPrompted    bool
	templateFile  string
	configFile    string
	maxTokens     int
	options       []string
	timeout       time.Duration
	json          bool
	keepText      bool
	quiet         bool
	log           logFlags
	closeLog      func()
}

func newProbeCmd() *cobra.Command {
	var f probeFlags
	cmd := &cobra.Command{
		Use:   "probe --model NAME | --sim NAME [flags]",
		Short: "Find out how a model calls tools: from its template, and by asking it",
		Long: `probe finds out how a model calls tools and what to configure for it.

1. From the template: it asks the server about the model (Ollama /api/show:
   template, capabilities, family, parameters, parser; llama.cpp /props: the
   chat template) and detects the dialect from the template's markers.
2. By asking: it sends a battery of prompts (single call, parallel calls,
   nested and typed arguments, no call wanted, a long string argument, a tool
   name that needs care; --prompts FILE replaces it) with the tools declared
   natively, and sees whether calls arrive in tool_calls or leak into the text,
   and in which dialect. Then it presents the tools in the system prompt in
   each candidate dialect (the template's, the model table's, the one native
   answers leaked in, then hermes, json, pythonic) and measures which one the
   model follows.
3. For failures, the retry loop runs (reflection, larger output budget) and
   the report says whether and at which attempt it recovered.

The report has a line per prompt and a summary per mode (native support, leak
rate, dialect seen and how sure, well-formed, repaired and schema-valid
rates, repairs by kind, recovery by attempt, latency and tokens), then a
recommendation: the dialect chain and the settings, as a .agent/config.yml
snippet. --json prints it for machines. Progress goes to standard error.

--sim NAME probes a built-in simulated model on a real Ollama-protocol server
on 127.0.0.1 (--sims lists them), so the whole path runs without a model; its
latencies come from a virtual clock, so its reports are reproducible.

Exit status: 0 when the probe ran (whatever it found); 2 for usage errors; 3
when the server is the problem (unreachable, model missing, server errors).`,
		Example: `  dialect-probe probe --model qwen3:8b
  dialect-probe probe --sim hermes-leak
  dialect-probe probe --api openai --host http://127.0.0.1:8080 --model qwen3 --json
  dialect-probe probe --model llama3.2 --prompts my-prompts.json --candidates pythonic,json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			file, err := configFile(cmd, f.configFile)
			if err != nil {
				return err
			}
			f.configFile = file.Path
			return runProbe(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.host, "host", "", "server URL (default $OLLAMA_HOST or http://127.0.0.1:11434 for ollama, "+defaultOpenAIHost+" for openai)")
	fl.StringVarP(&f.model, "model", "m", "", "model name (required without --sim)")
	fl.StringVar(&f.api, "api", apiOllama, "server protocol: ollama or openai")
	fl.StringVar(&f.apiKeyEnv, "api-key-env", "OPENAI_API_KEY", "environment variable holding the API key (openai)")
	fl.StringVar(&f.sim, "sim", "", "probe a built-in simulated model instead of a server (see --sims)")
	fl.BoolVar(&f.listSims, "sims", false, "list the built-in simulated models and exit")
	fl.StringVar(&f.promptsFile, "prompts", "", "JSON file with the battery of prompts and tools (see --print-prompts)")
	fl.BoolVar(&f.printPrompts, "print-prompts", false, "print the built-in battery as JSON and exit")
	fl.StringSliceVar(&f.candidates, "candidates", nil, "dialects to present the tools in (default: chosen from the evidence)")
	fl.IntVar(&f.maxCandidates, "max-candidates", 3, "how many dialects to choose when --candidates is not given")
	fl.BoolVar(&f.noNative, "no-native", false, "do not ask with native tools")
	fl.BoolVar(&f.noPrompted, "no-prompted", false, "do not present the tools in the system prompt")
	fl.StringVar(&f.templateFile, "template", "", "chat template file (Jinja, Ollama Go, GGUF, tokenizer_config.json) to use instead of the server's")
	fl.StringVarP(&f.configFile, "config", "c", "", "YAML file with the retry settings the probe recovers with"+configFlagHelp)
	fl.IntVar(&f.maxTokens, "max-tokens", 0, "output budget of each first request (0: the server's default)")
	fl.StringArrayVarP(&f.options, "option", "o", nil, "request option KEY=VALUE, VALUE read as JSON when it is (temperature=0)")
	fl.DurationVar(&f.timeout, "timeout", 30*time.Minute, "give up after this long")
	fl.BoolVar(&f.json, "json", false, "print the report as JSON")
	fl.BoolVar(&f.keepText, "keep-text", false, "keep the text of each first answer in the JSON report")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no progress on standard error")
	f.log.register(fl, "log the retry loop's records to standard error")
	return cmd
}

func runProbe(cmd *cobra.Command, f *probeFlags) error {
	w := cmd.OutOrStdout()
	switch {
	case f.listSims:
		return printSims(w)
	case f.printPrompts:
		_, err := w.Write(probe.DefaultBatteryJSON())
		return err
	}
	opts, err := f.probeOptions(cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	if f.closeLog != nil {
		defer f.closeLog()
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	var rep *probe.Report
	if f.sim != "" {
		rep, err = probe.RunSim(ctx, f.sim, f.api, opts)
	} else {
		rep, err = probe.Run(ctx, probe.Target{API: f.api, Host: f.host, Model: f.model, APIKey: os.Getenv(f.apiKeyEnv)}, opts)
	}
	if rep != nil && (err == nil || len(rep.Modes) > 0) {
		if werr := writeReport(w, rep, f.json); werr != nil {
			return werr
		}
	}
	if err == nil {
		return nil
	}
	var coded *toolcall.Error
	if errors.As(err, &coded) && isUsageCode(coded.Code) {
		return err
	}
	host := f.host
	if rep != nil {
		host = rep.Host
	} else if host == "" {
		host = (&probe.Target{API: f.api}).HostURL()
	}
	code, msg := callFailure(&callFlags{api: f.api, model: f.model, timeout: f.timeout, apiKeyEnv: f.apiKeyEnv}, host, err)
	if !probe.ServerError(err) && code != exitServer {
		code, msg = exitServer, "the probe stopped: "+redact.Text(err.Error())
	}
	if rep != nil && len(rep.Modes) > 0 {
		msg += " (the report above is partial)"
	}
	fmt.Fprintln(cmd.ErrOrStderr(), "dialect-probe:", msg)
	return exitError{code}
}

// probeOptions builds the probe's options from the flags, checking them
// before anything is sent.
func (f *probeFlags) probeOptions(stderr io.Writer) (*probe.Options, error) {
	if f.api != apiOllama && f.api != apiOpenAI {
		return nil, fmt.Errorf("--api must be %s or %s, not %q", apiOllama, apiOpenAI, f.api)
	}
	switch {
	case f.sim == "" && f.model == "":
		return nil, errors.New("--model is required (or --sim NAME to probe a simulated model; --sims lists them)")
	case f.sim != "" && f.host != "":
		return nil, errors.New("--sim starts its own server: it takes no --host")
	case f.sim != "" && f.model != "":
		return nil, errors.New("--sim names its own model: it takes no --model")
	case f.maxTokens < 0:
		return nil, errors.New("--max-tokens must not be negative")
	case f.maxCandidates < 1:
		return nil, errors.New("--max-candidates must be at least 1")
	case f.noNative && f.noPrompted:
		return nil, errors.New("--no-native and --no-prompted leave nothing to ask")
	}
	opts := &probe.Options{Candidates: f.candidates, MaxCandidates: f.maxCandidates, SkipNative: f.noNative,
		SkipPrompted: f.noPrompted, MaxTokens: f.maxTokens, KeepText: f.keepText}
	if f.promptsFile != "" {
		data, err := os.ReadFile(f.promptsFile)
		if err != nil {
			return nil, err
		}
		if opts.Battery, err = probe.ParseBattery(data); err != nil {
			return nil, fmt.Errorf("%s: %w", f.promptsFile, err)
		}
	}
	if f.templateFile != "" {
		t, err := probe.ReadTemplateFile(f.templateFile)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.templateFile, err)
		}
		opts.Template, opts.TemplateSource = t.Template, "file "+f.templateFile
	}
	if f.configFile != "" || configFromEnv() {
		cfg, _, err := config.Resolve(f.configFile, f.api, os.LookupEnv, nil)
		if err != nil {
			return nil, err
		}
		opts.Config = &cfg
	}
	req, err := (&callFlags{model: "probe", api: f.api, prompt: "probe", options: f.options}).request(nil)
	if err != nil {
		return nil, err
	}
	opts.RequestOptions = req.Options
	logger, closeLog, err := f.log.logger(stderr)
	if err != nil {
		return nil, err
	}
	opts.Logger = logger
	f.closeLog = closeLog
	if !f.quiet {
		start := time.Now()
		opts.Progress = func(p probe.Progress) {
			what := p.Mode
			if p.Dialect != "" {
				what += " " + p.Dialect
			}
			fmt.Fprintf(stderr, "probe: prompt %d of %d: %s, %s (%s elapsed)\n", p.Step, p.Total, what, p.Prompt,
				time.Since(start).Round(100*time.Millisecond))
		}
	}
	return opts, nil
}

func writeReport(w io.Writer, rep *probe.Report, asJSON bool) error {
	if !asJSON {
		return probe.WriteText(w, rep)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

func printSims(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "name\tmodel\tbehaviour")
	for _, s := range probe.Sims() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, s.Model, strings.TrimSpace(s.Summary))
	}
	return tw.Flush()
}
