package probe_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/probe"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// goIdentifier matches a Go identifier as a reader of the report would
// meet it: a qualified name (probe.TextDialect) or a type name in
// parentheses ((TextDialect)). The report speaks to users, not to Go.
var goIdentifier = regexp.MustCompile(`\b[a-z]+\.[A-Z][A-Za-z]+\b|\([A-Z][a-z]+[A-Z][A-Za-z]*\)`)

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	if id := goIdentifier.Find(got); id != nil {
		t.Errorf("%s names a Go identifier: %s", name, id)
	}
	path := filepath.Join("..", "testdata", "probe", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", name, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first line that differs.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + a + "\n  got:  " + b
		}
	}
	return "(same lines)"
}

func runSim(t *testing.T, name, api string) *probe.Report {
	t.Helper()
	rep, err := probe.RunSim(context.Background(), name, api, nil)
	if err != nil {
		t.Fatalf("RunSim(%s): %v", name, err)
	}
	return rep
}

func mode(t *testing.T, r *probe.Report, name string) *probe.ModeReport {
	t.Helper()
	for i := range r.Modes {
		if r.Modes[i].Name() == name {
			return &r.Modes[i]
		}
	}
	t.Fatalf("no mode %s in the report", name)
	return nil
}

func result(t *testing.T, m *probe.ModeReport, prompt string) *probe.PromptResult {
	t.Helper()
	for i := range m.Results {
		if m.Results[i].Prompt == prompt {
			return &m.Results[i]
		}
	}
	t.Fatalf("no result for %s in mode %s", prompt, m.Name())
	return nil
}

// Every built-in simulation, end to end through a real HTTP server, the
// Ollama adapter, parsing, the retry loop and the report: the text report
// is golden, and the findings that matter are asserted one by one.
func TestSims(t *testing.T) {
	tests := []struct {
		sim   string
		check func(t *testing.T, r *probe.Report)
	}{
		{"native", func(t *testing.T, r *probe.Report) {
			n := mode(t, r, "native")
			if n.Summary.InToolCalls != 5 || n.Summary.LeakRate != 0 || n.Summary.SuccessRate != 1 {
				t.Errorf("native summary %+v", n.Summary)
			}
			rec := r.Recommendation
			if rec.NativeTools != probe.NativeUse || rec.Dialect != "hermes" || rec.PresentTools != "native" {
				t.Errorf("recommendation %+v", rec)
			}
			if s := mode(t, r, "json").Summary; s.RepairsByKind[toolcall.RepairControlCharacter] != 1 {
				t.Errorf("json mode repairs %v, want the raw newlines repaired", s.RepairsByKind)
			}
		}},
		{"hermes-leak", func(t *testing.T, r *probe.Report) {
			n := mode(t, r, "native")
			if n.Summary.InContent != 5 || n.Summary.LeakRate != 1 || len(n.Summary.Dialects) != 1 || n.Summary.Dialects[0].Dialect != "hermes" {
				t.Errorf("native summary %+v", n.Summary)
			}
			if c := result(t, n, "careful_name"); c.Outcome != probe.OutcomeRecovered || c.RecoveredAt != 2 ||
				c.Answer.Errors[0] != toolcall.CodeUnknownTool {
				t.Errorf("careful_name %+v", c)
			}
			if s := mode(t, r, "pythonic").Summary; s.SuccessRate > 0.2 || s.Dialects[0].Dialect != "hermes" {
				t.Errorf("a model that ignores pythonic: %+v", s)
			}
			rec := r.Recommendation
			if rec.NativeTools != probe.NativeParseContent || rec.Dialect != "hermes" || rec.MaxRetries != 1 {
				t.Errorf("recommendation %+v", rec)
			}
			if !strings.Contains(rec.Summary, "native tools: leak into content — parse content with hermes") {
				t.Errorf("summary %q", rec.Summary)
			}
		}},
		{"pythonic", func(t *testing.T, r *probe.Report) {
			n := mode(t, r, "native")
			if !strings.Contains(n.Unsupported, "no tools capability") || n.Summary.Asked != 0 {
				t.Errorf("native mode %+v", n)
			}
			rec := r.Recommendation
			if rec.NativeTools != probe.NativeUnsupported || rec.Dialect != "pythonic" || rec.PresentTools != "system_prompt" {
				t.Errorf("recommendation %+v", rec)
			}
			if s := mode(t, r, "json").Summary; s.RepairsByKind[toolcall.RepairPythonLiteral] != 1 || s.WellFormedRate == 1 {
				t.Errorf("json mode %+v", s)
			}
		}},
		{"malformed", func(t *testing.T, r *probe.Report) {
			n := mode(t, r, "native")
			s := n.Summary
			if s.Repaired != 2 || s.Recovered != 3 || s.RecoveredAt[2] != 3 || s.CoercionFixes != 2 || s.SuccessRate != 1 {
				t.Errorf("native summary %+v", s)
			}
			if p := result(t, n, "parallel"); p.Answer.SchemaValid != 0 || p.Reflections != 1 || !p.FinalMatch.Arguments {
				t.Errorf("parallel %+v", p)
			}
			rec := r.Recommendation
			if rec.NativeTools != probe.NativeParseContent || rec.Dialect != "llama3_json" || !rec.CoerceTypes || rec.MaxRetries != 1 {
				t.Errorf("recommendation %+v", rec)
			}
		}},
		{"truncated", func(t *testing.T, r *probe.Report) {
			n := mode(t, r, "native")
			l := result(t, n, "long_string")
			if l.Answer.Where != probe.WhereTruncated || l.Truncations != 2 || l.RecoveredAt != 3 || l.MaxTokens != 256 {
				t.Errorf("long_string %+v", l)
			}
			rec := r.Recommendation
			if rec.OnTruncation != config.TruncationMoreTokens || rec.TruncationRetries != 2 || rec.MaxTokens != 256 || rec.Dialect != "mistral" {
				t.Errorf("recommendation %+v", rec)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.sim, func(t *testing.T) {
			r := runSim(t, tt.sim, probe.APIOllama)
			if r.Simulated != tt.sim || r.Requests == 0 || r.DurationMS <= 0 {
				t.Errorf("report header %q %d %v", r.Simulated, r.Requests, r.DurationMS)
			}
			tt.check(t, r)
			checkConfig(t, r.Model, &r.Recommendation)
			var text bytes.Buffer
			if err := probe.WriteText(&text, r); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.sim+".txt", text.Bytes())
		})
	}
}

// The config snippet is valid .agent/config.yml and says what the
// recommendation says, for the model probed.
func checkConfig(t *testing.T, model string, rec *probe.Recommendation) {
	t.Helper()
	ms, err := config.ParseModels([]byte(rec.Config), "")
	if err != nil {
		t.Fatalf("config snippet does not parse: %v\n%s", err, rec.Config)
	}
	cfg, pattern, ok := ms.For(model)
	if !ok || pattern != model {
		t.Fatalf("config snippet has no entry for %q (%q):\n%s", model, pattern, rec.Config)
	}
	if !slices.Equal(cfg.Fallback, rec.Fallback) {
		t.Errorf("fallback %q, want %q", cfg.Fallback, rec.Fallback)
	}
	if cfg.Dialect != rec.Dialect || cfg.MaxRetries != rec.MaxRetries || cfg.CoerceTypes != rec.CoerceTypes || !cfg.EnableAutoRepair {
		t.Errorf("config %+v does not match the recommendation %+v", cfg, rec)
	}
	if rec.OnTruncation != "" && (cfg.OnTruncation != rec.OnTruncation || cfg.TruncationRetries != rec.TruncationRetries) {
		t.Errorf("truncation settings %s/%d, want %s/%d", cfg.OnTruncation, cfg.TruncationRetries, rec.OnTruncation, rec.TruncationRetries)
	}
}

// The same simulation through the OpenAI-compatible endpoint: the
// template comes from /props, and a model without tools is refused with
// an HTTP 400, which the probe reports instead of failing.
func TestSimOpenAI(t *testing.T) {
	r := runSim(t, "pythonic", probe.APIOpenAI)
	if r.Template.Source != "llama.cpp /props" || r.Template.Bytes == 0 {
		t.Errorf("template %+v", r.Template)
	}
	n := mode(t, r, "native")
	if !strings.Contains(n.Unsupported, "tools param requires --jinja flag") {
		t.Errorf("native: %q", n.Unsupported)
	}
	if r.Recommendation.Dialect != "pythonic" || r.Recommendation.NativeTools != probe.NativeUnsupported {
		t.Errorf("recommendation %+v", r.Recommendation)
	}
	r = runSim(t, "hermes-leak", probe.APIOpenAI)
	if n := mode(t, r, "native"); n.Summary.InContent != 5 || r.Recommendation.Dialect != "hermes" {
		t.Errorf("openai hermes leak: %+v / %+v", n.Summary, r.Recommendation)
	}
}

// Reports of a simulation are the same on every run: the JSON, once the
// port is set aside, is byte for byte the same.
func TestSimDeterministic(t *testing.T) {
	encode := func() []byte {
		r := runSim(t, "malformed", probe.APIOllama)
		r.Host = ""
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	if a, b := encode(), encode(); !bytes.Equal(a, b) {
		t.Error("two runs of the same simulation gave different reports")
	}
}

func TestSimsListed(t *testing.T) {
	sims := probe.Sims()
	want := []string{"hermes-leak", "malformed", "native", "pythonic", "truncated"}
	if len(sims) != len(want) {
		t.Fatalf("sims %+v", sims)
	}
	for i, s := range sims {
		if s.Name != want[i] || s.Model == "" || s.Summary == "" {
			t.Errorf("sim %d: %+v", i, s)
		}
	}
	for _, bad := range []string{"", "nope", "../battery", "sims/native"} {
		if _, err := probe.StartSim(bad, nil); !errors.Is(err, toolcall.ErrInvalidInput) {
			t.Errorf("StartSim(%q) err = %v", bad, err)
		}
	}
}

// Progress counts every prompt of every mode, in order, up to the total.
func TestProgress(t *testing.T) {
	var steps []probe.Progress
	opts := &probe.Options{Progress: func(p probe.Progress) { steps = append(steps, p) }}
	if _, err := probe.RunSim(context.Background(), "native", probe.APIOllama, opts); err != nil {
		t.Fatal(err)
	}
	if len(steps) != 24 {
		t.Fatalf("%d progress calls, want 24", len(steps))
	}
	for i, p := range steps {
		if p.Step != i+1 || p.Total != 24 || p.Prompt == "" {
			t.Errorf("step %d: %+v", i, p)
		}
	}
	if steps[0].Mode != probe.ModeNative || steps[23].Mode != probe.ModePrompted || steps[23].Dialect != "pythonic" {
		t.Errorf("first %+v, last %+v", steps[0], steps[23])
	}
}

// noWait is a clock whose backoff does not sleep, for the failure tests.
type noWait struct{}

func (noWait) Now() time.Time { return time.Now() }

func (noWait) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

func TestServerFailures(t *testing.T) {
	tools := func(req *fakeserver.Request) bool { return len(req.Tools) > 0 }
	hermes := "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
	tests := []struct {
		name    string
		api     string
		models  []string // served models; the probe asks for "m"
		info    map[string]fakeserver.ModelInfo
		respond fakeserver.ResponderFunc
		down    bool
		// fatal: Run fails with a server error of this HTTP status (0: no
		// response); otherwise check looks at the report.
		fatal  bool
		status int
		check  func(t *testing.T, r *probe.Report)
	}{
		{name: "unreachable", down: true, fatal: true, status: 0},
		{name: "unreachable openai", api: probe.APIOpenAI, down: true, fatal: true, status: 0},
		{name: "model missing", models: []string{"other"}, fatal: true, status: 404},
		{
			name: "model missing openai", api: probe.APIOpenAI, models: []string{"other"}, fatal: true, status: 404,
			check: func(t *testing.T, r *probe.Report) {
				if len(r.Modes) != 1 || len(r.Modes[0].Results) != 1 {
					t.Errorf("the probe should stop at the first request: %+v", r.Modes)
				}
			},
		},
		{
			name: "400 for tools unsupported",
			info: map[string]fakeserver.ModelInfo{"m": {Capabilities: []string{"completion", "tools"}}},
			respond: func(req *fakeserver.Request) fakeserver.Turn {
				if tools(req) {
					return fakeserver.Turn{Status: 400, Error: `"m" does not support tools`}
				}
				// It follows hermes when shown it, and answers the
				// weather prompt only.
				if strings.Contains(req.Messages[0].Content, "<tool_call>") && strings.Contains(req.Messages[1].Content, "Paris") {
					return fakeserver.Turn{Content: hermes}
				}
				return fakeserver.Turn{Content: "I cannot help with that."}
			},
			check: func(t *testing.T, r *probe.Report) {
				n := r.Modes[0]
				if !strings.Contains(n.Unsupported, `the server refused native tools: "m" does not support tools`) || n.Summary.Asked != 0 {
					t.Errorf("native mode %+v", n)
				}
				if len(r.Modes) != 4 || r.Recommendation.NativeTools != probe.NativeUnsupported || r.Recommendation.Dialect != "hermes" {
					t.Errorf("modes %d, recommendation %+v", len(r.Modes), r.Recommendation)
				}
			},
		},
		{
			name: "in-stream error from the server's tool parser",
			respond: func(req *fakeserver.Request) fakeserver.Turn {
				if tools(req) && strings.Contains(req.Messages[len(req.Messages)-1].Content, "Paris") {
					return fakeserver.Turn{StreamError: `error parsing tool call: raw='{"name": "get_weather", "arguments": {"city": "Par', err=unexpected end of JSON input`}
				}
				return fakeserver.Turn{Content: hermes}
			},
			check: func(t *testing.T, r *probe.Report) {
				s := result(t, &r.Modes[0], "single")
				if s.Outcome != probe.OutcomeFailed || s.Error == nil || s.Answer.Where != probe.WhereNoAnswer {
					t.Errorf("single %+v", s)
				}
				if len(r.Modes) != 4 {
					t.Errorf("the probe should go on after the model's failure: %d modes", len(r.Modes))
				}
			},
		},
		{
			name: "in-stream server error",
			respond: func(req *fakeserver.Request) fakeserver.Turn {
				return fakeserver.Turn{StreamError: "model runner has unexpectedly stopped"}
			},
			fatal: true, status: 500,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			respond := tt.respond
			if respond == nil {
				respond = func(*fakeserver.Request) fakeserver.Turn { return fakeserver.Turn{Content: hermes} }
			}
			srv := fakeserver.NewServer(respond, &fakeserver.Options{Models: tt.models, Info: tt.info})
			url := srv.URL
			if tt.down {
				srv.Close()
				url = closedURL(t)
			} else {
				defer srv.Close()
			}
			opts := &probe.Options{Clock: noWait{}}
			r, err := probe.Run(context.Background(), probe.Target{API: tt.api, Host: url, Model: "m"}, opts)
			if tt.fatal {
				var te *client.TransportError
				if err == nil || !probe.ServerError(err) || !errors.As(err, &te) || te.StatusCode != tt.status {
					t.Fatalf("err = %v (status %v), want a server error with status %d", err, te, tt.status)
				}
				if tt.check != nil {
					tt.check(t, r)
				}
				return
			}
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			tt.check(t, r)
		})
	}
}

// closedURL is the URL of a port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	return url
}

func TestInvalidOptions(t *testing.T) {
	srv := fakeserver.NewServer(fakeserver.Script{}, nil)
	defer srv.Close()
	target := probe.Target{Host: srv.URL, Model: "m"}
	tests := []struct {
		name   string
		target probe.Target
		opts   *probe.Options
		code   toolcall.Code
	}{
		{"no model", probe.Target{Host: srv.URL}, nil, toolcall.CodeInvalidInput},
		{"bad api", probe.Target{API: "grpc", Host: srv.URL, Model: "m"}, nil, toolcall.CodeInvalidInput},
		{"unknown candidate", target, &probe.Options{Candidates: []string{"klingon"}}, toolcall.CodeUnknownDialect},
		{"negative budget", target, &probe.Options{MaxTokens: -1}, toolcall.CodeInvalidInput},
		{"bad config", target, &probe.Options{Config: &config.Config{}}, toolcall.CodeInvalidConfig},
		{"bad ollama host", probe.Target{Host: "ftp://x", Model: "m"}, nil, toolcall.CodeInvalidConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := probe.Run(context.Background(), tt.target, tt.opts)
			var e *toolcall.Error
			if !errors.As(err, &e) || e.Code != tt.code {
				t.Errorf("err = %v, want %s", err, tt.code)
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d chat requests sent for invalid options", n)
	}
}

// Candidates named by the caller are the prompted modes, in order, and a
// phase can be left out.
func TestCandidatesAndPhases(t *testing.T) {
	r, err := probe.RunSim(context.Background(), "native", probe.APIOllama,
		&probe.Options{Candidates: []string{"mistral", "json", "mistral"}, SkipNative: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Modes) != 2 || r.Modes[0].Dialect != "mistral" || r.Modes[1].Dialect != "json" {
		t.Fatalf("modes %+v", r.Modes)
	}
	if r.Recommendation.NativeTools != probe.NativeUntested || r.Recommendation.Mode != "mistral" {
		t.Errorf("recommendation %+v", r.Recommendation)
	}
	r, err = probe.RunSim(context.Background(), "native", probe.APIOllama, &probe.Options{SkipPrompted: true, KeepText: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Modes) != 1 || r.Recommendation.Fallback[0] != "json" {
		t.Errorf("native only: %d modes, %+v", len(r.Modes), r.Recommendation)
	}
	if no := result(t, &r.Modes[0], "no_call"); no.Answer.Text != "Paris." {
		t.Errorf("KeepText: %q", no.Answer.Text)
	}
}

// A battery of one's own: the simulation answers what it recognises, and
// prose otherwise.
func TestCustomBattery(t *testing.T) {
	b, err := probe.ParseBattery([]byte(`{"system": "", "tools": [{"name": "ping", "parameters": {"type": "object", "properties": {}}}],
		"prompts": [{"id": "p", "prompt": "Ping the server.", "expect": [{"name": "ping"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := probe.RunSim(context.Background(), "hermes-leak", probe.APIOllama, &probe.Options{Battery: b, Candidates: []string{"json"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Prompts) != 1 || len(r.Modes) != 2 {
		t.Fatalf("prompts %v, modes %d", r.Prompts, len(r.Modes))
	}
	if p := r.Modes[0].Results[0]; p.Outcome != probe.OutcomeFailed || p.Answer.Where != probe.WhereNone {
		t.Errorf("unknown prompt: %+v", p)
	}
	if !strings.HasPrefix(r.Recommendation.Summary, "no way of asking produced the wanted calls") {
		t.Errorf("recommendation %q", r.Recommendation.Summary)
	}
	checkConfig(t, r.Model, &r.Recommendation)
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := probe.RunSim(ctx, "native", probe.APIOllama, nil)
	if !errors.Is(err, toolcall.ErrCanceled) || !probe.ServerError(err) {
		t.Errorf("err = %v", err)
	}
}

func TestInspect(t *testing.T) {
	srv := fakeserver.NewServer(fakeserver.Script{}, &fakeserver.Options{Models: []string{"m"}, Info: map[string]fakeserver.ModelInfo{
		"m": {Template: "{{ .Prompt }}", Capabilities: []string{"completion"}, Family: "qwen3", Parser: "qwen3-coder",
			Parameters: "stop \"<|im_end|>\"\nnum_predict 128\nnum_ctx 8192"},
	}})
	defer srv.Close()
	info, err := probe.Inspect(context.Background(), probe.Target{Host: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if info.Template != "{{ .Prompt }}" || info.TemplateSource != "ollama /api/show" || info.Family != "qwen3" || info.Parser != "qwen3-coder" {
		t.Errorf("info %+v", info)
	}
	if supported, known := info.ToolSupport(); supported || !known {
		t.Errorf("ToolSupport = %v, %v", supported, known)
	}
	if info.Parameter("num_predict") != "128" || info.Parameter("stop") != "<|im_end|>" || info.Parameter("seed") != "" {
		t.Errorf("parameters %q", info.Parameters)
	}
	// An OpenAI-compatible server without llama.cpp's /props: no
	// template, no capabilities, no error.
	bare := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" {
			w.Write([]byte(`{"data": []}`))
			return
		}
		http.NotFound(w, r)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go bare.Serve(ln)
	defer bare.Close()
	info, err = probe.Inspect(context.Background(), probe.Target{API: probe.APIOpenAI, Host: "http://" + ln.Addr().String() + "/v1", Model: "m"})
	if err != nil || info.Template != "" || info.Capabilities != nil {
		t.Errorf("bare OpenAI server: %+v, %v", info, err)
	}
	if _, known := info.ToolSupport(); known {
		t.Error("an OpenAI server says nothing about capabilities")
	}
}
