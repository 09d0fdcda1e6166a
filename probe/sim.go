package probe

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/retry"
	"github.com/dialectkit/toolcall/schema"
)

// The built-in simulations: each is a recorded model behaviour (what it
// answers natively, which dialects it writes and follows, where it goes
// wrong) replayed by a real Ollama-protocol server on 127.0.0.1.
//
//go:embed sims/*.json sims/*.gotmpl
var simFiles embed.FS

// SimInfo describes a built-in simulation.
type SimInfo struct {
	// Name is what probe --sim takes.
	Name string `json:"name"`
	// Model is the simulated model's name.
	Model string `json:"model"`
	// Summary says how the model behaves.
	Summary string `json:"summary"`
}

// Sims lists the built-in simulations, by name.
func Sims() []SimInfo {
	entries, _ := simFiles.ReadDir("sims")
	var out []SimInfo
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		if rec, err := loadRecording(name); err == nil {
			out = append(out, SimInfo{Name: rec.Name, Model: rec.Model, Summary: rec.Summary})
		}
	}
	return out
}

// recording is one simulated model: its metadata and how it answers.
type recording struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
	Model   string `json:"model"`
	Show    struct {
		TemplateFile string   `json:"template_file"`
		Capabilities []string `json:"capabilities"`
		Family       string   `json:"family"`
		Parameters   string   `json:"parameters"`
		Parser       string   `json:"parser"`
		Renderer     string   `json:"renderer"`
	} `json:"show"`
	// Native is how it answers with native tools: "tool_calls" (the server
	// parses its calls), "content" (they leak into the text, in Speaks) or
	// "unsupported" (the server refuses tools, HTTP 400).
	Native string `json:"native"`
	// Speaks is the dialect it writes; Follows the dialects it writes when
	// the system prompt presents the tools in them.
	Speaks  string   `json:"speaks"`
	Follows []string `json:"follows"`
	// Answers are per prompt id: the text and the calls of the answer, and
	// Fixed, the calls it makes once told what was wrong.
	Answers map[string]recordedAnswer `json:"answers"`
	// Turns are literal answers that replace the generated one for a
	// prompt, a mode ("native", a dialect, "prompted" or "*") and an
	// attempt (0: any).
	Turns []recordedTurn `json:"turns"`

	template string
}

type recordedAnswer struct {
	Text     string         `json:"text"`
	Thinking string         `json:"thinking"`
	Calls    []recordedCall `json:"calls"`
	Fixed    []recordedCall `json:"fixed"`
}

type recordedCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type recordedTurn struct {
	Prompt  string `json:"prompt"`
	Mode    string `json:"mode"`
	Attempt int    `json:"attempt"`
	Note    string `json:"note"`
	// Content is the text exactly as the model wrote it; Calls are native
	// tool calls whose Arguments text may be malformed.
	Content    string                             `json:"content"`
	Thinking   string                             `json:"thinking"`
	Calls      []struct{ Name, Arguments string } `json:"calls"`
	DoneReason string                             `json:"done_reason"`
}

func loadRecording(name string) (*recording, error) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return nil, unknownSim(name)
	}
	data, err := simFiles.ReadFile("sims/" + name + ".json")
	if err != nil {
		return nil, unknownSim(name)
	}
	var rec recording
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return nil, toolcall.Errorf(toolcall.CodeInvalidInput, err, "simulation "+name+" is not valid")
	}
	if rec.Show.TemplateFile != "" {
		t, err := simFiles.ReadFile("sims/" + rec.Show.TemplateFile)
		if err != nil {
			return nil, toolcall.Errorf(toolcall.CodeInvalidInput, err, "simulation "+name+" names a missing template")
		}
		rec.template = string(t)
	}
	if err := rec.check(); err != nil {
		return nil, err
	}
	return &rec, nil
}

func unknownSim(name string) error {
	names := make([]string, 0, 8)
	for _, s := range Sims() {
		names = append(names, s.Name)
	}
	return toolcall.NewError(toolcall.CodeInvalidInput, fmt.Sprintf("no simulation is named %q; there are: %s", name, strings.Join(names, ", ")))
}

// check rejects a recording the simulator could not replay.
func (rec *recording) check() error {
	bad := func(msg string) error {
		return toolcall.NewError(toolcall.CodeInvalidInput, "simulation "+rec.Name+": "+msg)
	}
	switch rec.Native {
	case "tool_calls", "content", "unsupported":
	default:
		return bad(fmt.Sprintf("native is %q, not tool_calls, content or unsupported", rec.Native))
	}
	for _, d := range append([]string{rec.Speaks}, rec.Follows...) {
		if _, ok := defaultRenderer(d); !ok {
			return bad(fmt.Sprintf("dialect %q has no renderer", d))
		}
	}
	for id, a := range rec.Answers {
		for _, c := range append(slices.Clone(a.Calls), a.Fixed...) {
			if t := bytes.TrimSpace(c.Arguments); len(t) == 0 || t[0] != '{' || !json.Valid(t) {
				return bad(fmt.Sprintf("answer %q: the arguments of %q are not a JSON object (literal turns carry malformed text)", id, c.Name))
			}
		}
	}
	return nil
}

// Sim is a running simulation: an Ollama-protocol server on 127.0.0.1
// (which also speaks the OpenAI-compatible protocol and llama.cpp's
// /props) answering as the recorded model would, and the virtual clock
// its answers take time on.
type Sim struct {
	// Info describes the simulation.
	Info SimInfo
	// URL is the server's base URL, "http://127.0.0.1:PORT".
	URL string

	clock   *simClock
	handler *fakeserver.Handler
	server  *http.Server
	done    chan struct{}
}

// StartSim starts the simulation of that name. battery is the battery the
// probe will ask (nil: DefaultBattery), so that the model recognises its
// prompts. Close it when done.
func StartSim(name string, battery *Battery) (*Sim, error) {
	return startSim(name, battery, false)
}

// ServeSim starts the simulation of that name for any client, as
// `dialect-probe serve --sim` runs it: it answers a request for any model
// name, the battery's prompts as the recording says, and any other
// request that declares tools with a call to one of them, leaked in the
// model's dialect (the last message a tool result: a short text, so that
// an agent's turn ends), and any request without tools with text. Close
// it when done.
func ServeSim(name string) (*Sim, error) {
	return startSim(name, nil, true)
}

func startSim(name string, battery *Battery, anyModel bool) (*Sim, error) {
	rec, err := loadRecording(name)
	if err != nil {
		return nil, err
	}
	if battery == nil {
		battery = DefaultBattery()
	}
	clock := &simClock{}
	clock.ns.Store(simEpoch.UnixNano())
	m := &simModel{rec: rec, battery: battery, clock: clock, serving: anyModel}
	if n, err := strconv.Atoi(parameter(rec.Show.Parameters, "num_predict")); err == nil && n > 0 {
		m.numPredict = n
	}
	info := fakeserver.ModelInfo{Template: rec.template, Capabilities: rec.Show.Capabilities, Family: rec.Show.Family,
		Parameters: rec.Show.Parameters, Parser: rec.Show.Parser, Renderer: rec.Show.Renderer}
	fo := &fakeserver.Options{Models: []string{rec.Model}, Info: map[string]fakeserver.ModelInfo{rec.Model: info}}
	if anyModel {
		fo.Models = nil
	}
	h := fakeserver.NewHandler(m, fo)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, toolcall.Errorf(toolcall.CodeTransport, err, "the simulated server could not listen on 127.0.0.1")
	}
	s := &Sim{
		Info:    SimInfo{Name: rec.Name, Model: rec.Model, Summary: rec.Summary},
		URL:     "http://" + ln.Addr().String(),
		clock:   clock,
		handler: h,
		server:  &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second},
		done:    make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		_ = s.server.Serve(ln)
	}()
	return s, nil
}

// Target is the simulated model behind the simulated server, spoken to
// with api (APIOllama or APIOpenAI).
func (s *Sim) Target(api string) Target {
	return Target{API: api, Host: s.URL, Model: s.Info.Model}
}

// Now is the simulation's virtual clock: every answer advances it by the
// time a model of its speed would take (prompt and output tokens), and
// nothing else does, so latencies are the same on every machine.
func (s *Sim) Now() time.Time { return time.Unix(0, s.clock.ns.Load()).UTC() }

// Sleep advances the virtual clock by d instead of waiting.
func (s *Sim) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.clock.advance(d)
	return nil
}

// Close stops the server.
func (s *Sim) Close() error {
	s.handler.Release()
	err := s.server.Close()
	<-s.done
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// RunSim probes a built-in simulation: it starts it, runs the probe with
// the simulation's clock (so the report is reproducible), and stops it.
// opts.Battery, when set, is the battery the simulation answers.
func RunSim(ctx context.Context, name, api string, opts *Options) (*Report, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	sim, err := StartSim(name, o.Battery)
	if err != nil {
		return nil, err
	}
	defer sim.Close()
	o.Clock = sim
	rep, err := Run(ctx, sim.Target(api), &o)
	if rep != nil {
		rep.Simulated = sim.Info.Name
	}
	return rep, err
}

// simEpoch is when every simulation's clock starts.
var simEpoch = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// simClock is a virtual clock, safe for concurrent use.
type simClock struct{ ns atomic.Int64 }

func (c *simClock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// Speed of the simulated models: prompt processing and generation, as a
// small model on a laptop GPU.
const (
	simOverhead    = 40 * time.Millisecond
	simPerPrompt   = 400 * time.Microsecond
	simPerGenerate = 25 * time.Millisecond
)

// simModel answers chat requests as the recording says.
type simModel struct {
	rec        *recording
	battery    *Battery
	clock      *simClock
	numPredict int
	// serving: any request, not only the battery's, is answered with a
	// call to its own tools (ServeSim).
	serving bool

	once    sync.Once
	systems map[string][]string // system prompt → the dialects that present the tools so
}

// Respond answers one request.
func (m *simModel) Respond(req *fakeserver.Request) fakeserver.Turn {
	prompt, attempt := m.locate(req.Messages)
	mode := m.mode(req)
	turn := m.answer(req, prompt, mode, attempt)
	prompted := len(req.Body)/4 + 1
	generated := turn.CompletionTokens
	if generated == 0 {
		n := len(turn.Content) + len(turn.Thinking)
		for _, c := range turn.Calls {
			n += len(c.Name) + len(c.Arguments)
		}
		generated = n/4 + 1
	}
	m.clock.advance(simOverhead + time.Duration(prompted)*simPerPrompt + time.Duration(generated)*simPerGenerate)
	return turn
}

// locate finds the prompt (the first user message) and the attempt (one
// more than the assistant messages after it).
func (m *simModel) locate(msgs []fakeserver.Message) (prompt string, attempt int) {
	attempt = 1
	for _, msg := range msgs {
		switch {
		case msg.Role == "user" && prompt == "":
			prompt = "?"
			for _, p := range m.battery.Prompts {
				if p.Text == msg.Content {
					prompt = p.ID
				}
			}
		case msg.Role == "assistant" && prompt != "":
			attempt++
		}
	}
	return prompt, attempt
}

// mode is "native" when the request declares tools, else the dialect its
// system prompt presents them in (as TextDialect writes it), else "".
func (m *simModel) mode(req *fakeserver.Request) string {
	if len(req.Tools) > 0 {
		return ModeNative
	}
	m.once.Do(func() {
		m.systems = map[string][]string{}
		for _, d := range renderedDialects() {
			if r, ok := defaultRenderer(d); ok && d != ModeNative {
				td := &TextDialect{Renderer: r}
				prompt := td.SystemPrompt(m.battery.System, m.battery.Tools)
				m.systems[prompt] = append(m.systems[prompt], d)
			}
		}
	})
	for _, msg := range req.Messages {
		if msg.Role != "system" {
			continue
		}
		// Dialects that present tools alike are told apart by the model
		// only as far as it follows one of them.
		same := m.systems[msg.Content]
		for _, d := range same {
			if slices.Contains(m.rec.Follows, d) {
				return d
			}
		}
		if len(same) > 0 {
			return same[0]
		}
		return ""
	}
	return ""
}

// answer is the turn for a prompt, mode and attempt: a literal recorded
// turn when there is one, else the recorded calls written as the model
// writes them; then cut at the output limit.
func (m *simModel) answer(req *fakeserver.Request, prompt, mode string, attempt int) fakeserver.Turn {
	if prompt == "?" && m.serving {
		return m.anyRequest(req)
	}
	if mode == ModeNative && m.rec.Native == "unsupported" {
		msg := fmt.Sprintf("registry.ollama.ai/library/%s does not support tools", m.rec.Model)
		if req.API == fakeserver.OpenAI {
			msg = "tools param requires --jinja flag" // llama.cpp's server, started without a tool template
		}
		return fakeserver.Turn{Status: http.StatusBadRequest, Error: msg}
	}
	if t, ok := m.literal(prompt, mode, attempt); ok {
		return m.limit(req, t, t.Content)
	}
	ans, ok := m.rec.Answers[prompt]
	if !ok && m.serving {
		return m.anyRequest(req)
	}
	if !ok {
		return fakeserver.Turn{Content: "I am not sure how to help with that."}
	}
	recorded := ans.Calls
	if attempt > 1 && len(ans.Fixed) > 0 {
		recorded = ans.Fixed
	}
	if len(recorded) == 0 {
		return m.limit(req, fakeserver.Turn{Content: ans.Text, Thinking: ans.Thinking}, ans.Text)
	}
	calls := make([]toolcall.Call, len(recorded))
	for i, c := range recorded {
		calls[i] = toolcall.Call{Name: c.Name, Arguments: c.Arguments, Index: i}
	}
	dialect := m.rec.Speaks
	if mode != ModeNative && slices.Contains(m.rec.Follows, mode) {
		dialect = mode
	}
	r, _ := defaultRenderer(dialect)
	text := r.Calls(calls)
	if ans.Text != "" {
		text = ans.Text + "\n" + text
	}
	if mode == ModeNative && m.rec.Native == "tool_calls" {
		t := fakeserver.Turn{Thinking: ans.Thinking}
		for _, c := range recorded {
			t.Calls = append(t.Calls, fakeserver.Call{Name: c.Name, Arguments: string(c.Arguments)})
		}
		return m.limit(req, t, text)
	}
	return m.limit(req, fakeserver.Turn{Content: text, Thinking: ans.Thinking}, text)
}

// anyRequest answers a request that is not one of the battery's prompts:
// with tools declared, a call to one of them (the first the last user
// message names, else the first), its arguments an example the tool's
// schema accepts, leaked in the model's dialect; after a tool result, or
// without tools, a short text.
func (m *simModel) anyRequest(req *fakeserver.Request) fakeserver.Turn {
	last, lastUser := "", ""
	for _, msg := range req.Messages {
		last = msg.Role
		if msg.Role == "user" {
			lastUser = msg.Content
		}
	}
	var tools []toolcall.Tool
	for _, raw := range req.Tools {
		if t, err := toolcall.ParseTool(raw); err == nil {
			tools = append(tools, t)
		}
	}
	if len(tools) == 0 || last == "tool" {
		return fakeserver.Turn{Content: "This is " + m.rec.Model + ", a simulated model (" + m.rec.Name + "): it calls one of the tools a request declares, and answers in text otherwise."}
	}
	pick := tools[0]
	for _, t := range tools {
		if strings.Contains(lastUser, t.Name) {
			pick = t
			break
		}
	}
	args := json.RawMessage("{}")
	if st, err := schema.NewTool(pick); err == nil {
		args = retry.ExampleArguments(st)
	}
	r, ok := defaultRenderer(m.rec.Speaks)
	if !ok {
		r, _ = defaultRenderer("hermes")
	}
	return fakeserver.Turn{Content: r.Calls([]toolcall.Call{{Name: pick.Name, Arguments: args}})}
}

// literal returns the recorded turn for a prompt, mode and attempt.
func (m *simModel) literal(prompt, mode string, attempt int) (fakeserver.Turn, bool) {
	for _, t := range m.rec.Turns {
		if t.Prompt != prompt || t.Attempt != 0 && t.Attempt != attempt {
			continue
		}
		if t.Mode != "*" && t.Mode != mode && !(t.Mode == ModePrompted && mode != ModeNative && mode != "") {
			continue
		}
		turn := fakeserver.Turn{Content: t.Content, Thinking: t.Thinking, DoneReason: t.DoneReason}
		for _, c := range t.Calls {
			turn.Calls = append(turn.Calls, fakeserver.Call{Name: c.Name, Arguments: c.Arguments})
		}
		return turn, true
	}
	return fakeserver.Turn{}, false
}

// limit cuts the answer at the output limit: the request's, else the
// model's num_predict. text is the answer as the model wrote it (its
// calls in its dialect): a cut answer is that text up to the limit, with
// no native calls, as a server whose parser never saw the call close
// returns it.
func (m *simModel) limit(req *fakeserver.Request, t fakeserver.Turn, text string) fakeserver.Turn {
	budget := req.MaxTokens
	if budget <= 0 {
		budget = m.numPredict
	}
	if budget <= 0 || len(text)/4+1 <= budget {
		return t
	}
	cut := min(budget*4, len(text))
	for cut > 0 && cut < len(text) && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return fakeserver.Turn{Content: text[:cut], Thinking: t.Thinking, DoneReason: "length", CompletionTokens: budget}
}

// parameter reads a Modelfile parameter from Ollama's "key value" lines.
func parameter(params, key string) string {
	return (&ModelInfo{Parameters: params}).Parameter(key)
}
