package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/codemode"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
	"github.com/dialectkit/toolcall/stream"
)

type parseFlags struct {
	dialect         string
	toolsFile       string
	model           string
	templateFile    string
	fallback        []string
	noRepair        bool
	coerce          bool
	allowRisky      bool
	strict          bool
	reasoningOpen   bool
	reasoningClosed bool
	stream          bool
	json            bool
	jsonl           bool
	maxLine         int
	code            bool
}

func newParseCmd() *cobra.Command {
	var f parseFlags
	cmd := &cobra.Command{
		Use:   "parse [FILE]",
		Short: "Extract tool calls from model output",
		Long: `parse reads raw model output (from FILE, or standard input) and prints the tool
calls in it, the content and reasoning around them, the repairs made to
malformed arguments, and a coded error for every call that could not be
recovered.

Without --dialect, the dialect is detected: from the chat template (--template),
the model name (--model), the markers in the output, and by trying the
candidate parsers and scoring how well their calls match the declared tools
(--tools). The human output says which evidence decided.

With --jsonl, every input line is a JSON object
  {"id": "...", "text": "<raw model output>", "dialect": "<name>"?, "tools": [...]?, "chunks": ["..."]?}
and every output line is
  {"id": "...", "dialect": "...", "calls": [{"id", "name", "arguments"}], "content": "...",
   "reasoning": "..."?, "repairs": [...]?, "errors": [{"code", "message"}]}
in the same order, with the same id. A line that is not valid input gets an
output line with a TLP-016 error. With "chunks", the text is fed as those
deltas through the streaming parser; with "events": true as well, the
output line also carries "events": [...], the objects --stream prints
(below), in order.

With --stream, the output is read as it arrives (a pipe from a model) and
every event is printed the moment it is settled, one JSON object per line:
  {"event": "content"|"reasoning", "text": "..."}
  {"event": "detected", "dialect": "...", "reason": "..."}
  {"event": "call_start", "index": 0, "name": "..."}
  {"event": "call_arguments", "index": 0, "text": "<argument text so far>"}
  {"event": "call", "index": 0, "call": {"id", "name", "arguments"}}
  {"event": "call_error", "index": 0, "error": {"code", "message"}}
  {"event": "done", "result": <the --json result>}
Text that could still be the start of a marker is held back; the final
result is the one parsing the whole output at once gives. Where the output
starts is settled at once when it opens with a call or with <think> (in a
dialect with a wrapper of its own, such as Mistral's [THINK], when its first
reasoning tag of either kind opens a block), or when the dialect's
templates never open a reasoning block (Llama, Functionary, Granite, xLAM,
Kimi-K2, Seed-OSS, MiniMax-M1, Apertus, GigaChat 3); otherwise say it (--reasoning-closed, --reasoning-open or
--template): until it is known, a closing tag later in the output
(</think>) could make the text before it reasoning, so that text waits for
the end, and so do calls the dialect would then read as reasoning
(Hermes).

Exit status: 0 when every call found parsed and validated (or there was no
call); 1 when the output had errors (a call that could not be read,
repaired or validated); 2 for usage and I/O errors, among them a --dialect
or --fallback name no dialect is registered under. With --jsonl the status
is 0 unless reading or writing failed: errors are reported per line.`,
		Example: `  dialect-probe parse testdata/samples/qwen3-hermes.txt
  ollama run qwen3 "..." | dialect-probe parse --tools tools.json --json
  dialect-probe parse --jsonl < vectors.jsonl > results.jsonl
  llama-cli ... | dialect-probe parse --stream --dialect hermes --reasoning-closed`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runParse(cmd, args, &f) },
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.dialect, "dialect", "d", "", "dialect to use (default: detect)")
	fl.StringVarP(&f.toolsFile, "tools", "t", "", "JSON file with the declared tools (OpenAI/Ollama or bare shape)")
	fl.StringVar(&f.model, "model", "", "model name, used as detection evidence")
	fl.StringVar(&f.templateFile, "template", "", "chat template file, used as detection evidence and, without --reasoning-open/--reasoning-closed, to tell whether the output starts inside a reasoning block")
	fl.StringSliceVar(&f.fallback, "fallback", nil, "dialects to try when the named dialect finds no call")
	fl.BoolVar(&f.noRepair, "no-repair", false, "require strict JSON arguments (no lenient repair)")
	fl.BoolVar(&f.coerce, "coerce", false, "coerce argument values toward the schema (\"5\" → 5)")
	fl.BoolVar(&f.allowRisky, "allow-risky", false, "with --coerce, also apply risky coercions (\"false\" → false)")
	fl.BoolVar(&f.strict, "strict", false, "reject properties the schema does not declare, even without additionalProperties: false")
	fl.BoolVar(&f.reasoningOpen, "reasoning-open", false, "the template opened a reasoning block: output starts inside it")
	fl.BoolVar(&f.reasoningClosed, "reasoning-closed", false, "the template opened no reasoning block: a stray closing tag is text (lets --stream print answer text and calls at once)")
	fl.BoolVar(&f.stream, "stream", false, "read the output as it arrives and print events as they happen, one JSON object per line")
	fl.BoolVar(&f.json, "json", false, "print the result as JSON")
	fl.BoolVar(&f.jsonl, "jsonl", false, "read and write JSON lines (see above)")
	fl.IntVar(&f.maxLine, "max-line", defaultMaxLine, "longest --jsonl input line accepted, in bytes")
	fl.BoolVar(&f.code, "code", false, "also report the Python code blocks of the answer (Code Mode) under \"code\"")
	return cmd
}

// parseInput is one --jsonl input line.
type parseInput struct {
	ID       json.RawMessage `json:"id"`
	Text     *string         `json:"text"`
	Dialect  string          `json:"dialect"`
	Tools    json.RawMessage `json:"tools"`
	Chunks   []string        `json:"chunks"`
	Events   bool            `json:"events"`
	Model    string          `json:"model"`
	Template string          `json:"template"`
}

// parseOutput is one --jsonl output line, and the --json result.
type parseOutput struct {
	ID        json.RawMessage     `json:"id,omitempty"`
	Dialect   string              `json:"dialect"`
	Calls     []callRecord        `json:"calls"`
	Content   string              `json:"content"`
	Reasoning string              `json:"reasoning,omitempty"`
	Repairs   []toolcall.Repair   `json:"repairs,omitempty"`
	Errors    []errorRecord       `json:"errors"`
	Detection *registry.Detection `json:"detection,omitempty"`
	// Events are the streamed events of a line with "chunks" and
	// "events": true, as parse --stream prints them.
	Events []eventRecord `json:"events,omitempty"`
	// Code lists the Python code blocks of the answer, with --code.
	Code *[]codemode.Block `json:"code,omitempty"`
}

type callRecord struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Server is the MCP server part of a combined name "server___tool".
	Server    string          `json:"server,omitempty"`
	Arguments json.RawMessage `json:"arguments"`
}

func (f *parseFlags) options(tools *schema.Set) *registry.Options {
	o := &registry.Options{Dialect: f.dialect, Fallback: f.fallback, Model: f.model}
	o.Tools = tools
	o.DisableRepair = f.noRepair
	o.Validation = schema.Options{Strict: f.strict, Coerce: f.coerce, AllowRisky: f.allowRisky}
	o.ReasoningOpen = f.reasoningOpen
	o.ReasoningClosed = f.reasoningClosed
	return o
}

func runParse(cmd *cobra.Command, args []string, f *parseFlags) error {
	if err := checkDialects("--dialect", f.dialect); err != nil {
		return err
	}
	if err := checkDialects("--fallback", f.fallback...); err != nil {
		return err
	}
	var tools *schema.Set
	if f.toolsFile != "" {
		data, err := os.ReadFile(f.toolsFile)
		if err != nil {
			return err
		}
		if tools, err = toolSet(data); err != nil {
			return fmt.Errorf("%s: %w", f.toolsFile, err)
		}
		// Schemas written with type aliases ("float", "int", …) are read
		// as the JSON Schema types they stand for; say so once.
		for _, a := range tools.TypeAliases() {
			fmt.Fprintf(cmd.ErrOrStderr(), "dialect-probe: warning: %s: %s\n", f.toolsFile, a)
		}
	}
	opts := f.options(tools)
	if f.templateFile != "" {
		data, err := os.ReadFile(f.templateFile)
		if err != nil {
			return err
		}
		opts.Template = string(data)
	}
	in, err := input(cmd, args)
	if err != nil {
		return err
	}
	defer in.Close()
	if f.stream {
		return runStream(cmd, in, opts)
	}
	if f.jsonl {
		return eachLine(in, cmd.OutOrStdout(), f.maxLine,
			func(line []byte) any { return parseLine(line, f, opts) },
			func(id json.RawMessage, e *toolcall.Error) any { return failedParse(id, e) })
	}
	data, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	res, det := registry.Default().ParseDetect(string(data), opts)
	out := toParseOutput(res)
	out.Detection = &det
	if f.code {
		out.Code = detectCode(string(data), opts)
	}
	if f.json {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		printParse(cmd.OutOrStdout(), out, det)
	}
	if !res.OK() {
		return exitError{1}
	}
	return nil
}

func toolSet(data []byte) (*schema.Set, error) {
	defs, err := toolcall.ParseTools(data)
	if err != nil {
		return nil, err
	}
	return schema.NewSet(defs...)
}

// parseLine answers one --jsonl line. It never fails: a bad line gets a
// record with an error.
func parseLine(line []byte, f *parseFlags, base *registry.Options) parseOutput {
	var in parseInput
	if err := json.Unmarshal(line, &in); err != nil {
		return failedParse(lineID(line), toolcall.Errorf(toolcall.CodeInvalidInput, err, "line is not a JSON object: "+err.Error()))
	}
	if in.Text == nil && in.Chunks == nil {
		return failedParse(in.ID, toolcall.NewError(toolcall.CodeInvalidInput, `line has neither "text" nor "chunks"`))
	}
	if in.Text != nil && in.Chunks != nil {
		// Which of two different outputs is meant cannot be known: the
		// line is refused rather than one of them silently chosen.
		if at, ok := chunksDiffer(*in.Text, in.Chunks); ok {
			return failedParse(in.ID, toolcall.NewError(toolcall.CodeInvalidInput, fmt.Sprintf(
				`"text" (%d bytes) and the joined "chunks" (%d bytes) differ, first at byte %d: give one, or both the same`,
				len(*in.Text), chunksLen(in.Chunks), at)))
		}
	}
	opts := *base
	if in.Dialect != "" {
		opts.Dialect = in.Dialect
	}
	if in.Model != "" {
		opts.Model = in.Model
	}
	if in.Template != "" {
		opts.Template = in.Template
	}
	if len(in.Tools) > 0 && string(in.Tools) != "null" {
		tools, err := toolSet(in.Tools)
		if err != nil {
			var te *toolcall.Error
			if !asToolcallError(err, &te) {
				te = toolcall.Errorf(toolcall.CodeInvalidTool, err, err.Error())
			}
			return failedParse(in.ID, te)
		}
		opts.Tools = tools
	}
	text := ""
	if in.Text != nil {
		text = *in.Text
	}
	var (
		res    *toolcall.Result
		events []eventRecord
	)
	if in.Chunks != nil {
		// The deltas arrive, in order, through the streaming parser, as
		// they would from a model; its final result is the one-shot one.
		p := registry.Default().Stream(&opts)
		record := func(evs []stream.Event) {
			if !in.Events {
				return
			}
			for _, ev := range evs {
				events = append(events, toEventRecord(ev))
			}
		}
		for _, c := range in.Chunks {
			record(p.Write(c))
		}
		record(p.Close())
		res = p.Result()
		if in.Events && events == nil {
			events = []eventRecord{}
		}
	} else {
		res = registry.Default().Parse(text, &opts)
	}
	out := toParseOutput(res)
	out.ID = in.ID
	out.Events = events
	if f.code {
		if in.Text == nil {
			text = strings.Join(in.Chunks, "")
		}
		out.Code = detectCode(text, &opts)
	}
	return out
}

// chunksDiffer reports whether the concatenated chunks differ from text,
// and the offset of the first byte where they do.
func chunksDiffer(text string, chunks []string) (int, bool) {
	at := 0
	for _, c := range chunks {
		n := min(len(c), len(text)-at)
		for i := 0; i < n; i++ {
			if c[i] != text[at+i] {
				return at + i, true
			}
		}
		if n < len(c) {
			return at + n, true // the chunks run past the text
		}
		at += n
	}
	return at, at != len(text)
}

func chunksLen(chunks []string) int {
	n := 0
	for _, c := range chunks {
		n += len(c)
	}
	return n
}

// detectCode finds the Python code blocks of an answer; calls of the
// declared tools are calls, not code.
func detectCode(text string, opts *registry.Options) *[]codemode.Block {
	blocks := codemode.Detect(text, &codemode.Options{Tools: opts.Tools.Names()})
	if blocks == nil {
		blocks = []codemode.Block{}
	}
	return &blocks
}

func asToolcallError(err error, target **toolcall.Error) bool {
	e, ok := err.(*toolcall.Error)
	if ok {
		*target = e
	}
	return ok
}

func failedParse(id json.RawMessage, e *toolcall.Error) parseOutput {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return parseOutput{ID: id, Calls: []callRecord{}, Errors: []errorRecord{toErrorRecord(e)}}
}

func toParseOutput(res *toolcall.Result) parseOutput {
	out := parseOutput{Dialect: res.Dialect, Calls: make([]callRecord, 0, len(res.Calls)),
		Content: res.Content, Reasoning: res.Reasoning, Repairs: res.Repairs, Errors: []errorRecord{}}
	for _, c := range res.Calls {
		out.Calls = append(out.Calls, callRecord{ID: c.ID, Name: c.Name, Server: c.Server, Arguments: c.Arguments})
	}
	for _, e := range res.Errors {
		out.Errors = append(out.Errors, toErrorRecord(e))
	}
	return out
}

func printParse(w io.Writer, out parseOutput, det registry.Detection) {
	if out.Dialect == "" {
		fmt.Fprintf(w, "dialect: none (%s)\n", det.Reason)
	} else {
		fmt.Fprintf(w, "dialect: %s (%s)\n", out.Dialect, det.Reason)
	}
	fmt.Fprintf(w, "calls: %d\n", len(out.Calls))
	for i, c := range out.Calls {
		fmt.Fprintf(w, "  [%d] %s %s  (id %s)\n", i, c.Name, c.Arguments, c.ID)
	}
	if out.Content != "" {
		fmt.Fprintf(w, "content: %q\n", out.Content)
	}
	if out.Reasoning != "" {
		fmt.Fprintf(w, "reasoning: %q\n", out.Reasoning)
	}
	if len(out.Repairs) > 0 {
		fmt.Fprintln(w, "repairs:")
		for _, r := range out.Repairs {
			fmt.Fprintf(w, "  call %d: %s\n", r.CallIndex, r)
		}
	}
	if len(out.Errors) > 0 {
		fmt.Fprintln(w, "errors:")
		for _, e := range out.Errors {
			fmt.Fprintf(w, "  %s\n", e.Message)
		}
	}
	if out.Code != nil {
		fmt.Fprintf(w, "code blocks: %d\n", len(*out.Code))
		for i, b := range *out.Code {
			kind := "bare"
			if b.Fenced {
				kind = "fenced " + b.Language
			}
			fmt.Fprintf(w, "  [%d] bytes %d-%d, %s, confidence %.2f, %d statement(s)\n", i, b.Start, b.End, strings.TrimSpace(kind), b.Confidence, b.Statements)
		}
	}
}
