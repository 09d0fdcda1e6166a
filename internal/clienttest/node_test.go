package clienttest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/proxy"
)

// The JavaScript clients are installed once per test binary, with npm ci
// from js/package-lock.json, into a temporary directory that TestMain
// removes.
var (
	jsOnce sync.Once
	jsDir  string
	jsErr  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if jsDir != "" {
		os.RemoveAll(jsDir)
	}
	os.Exit(code)
}

// nodeClients returns the directory holding the scripts and their
// installed packages. It skips the test when node or npm is absent, and
// fails it when the install fails.
func nodeClients(t *testing.T) string {
	t.Helper()
	longtest.Skip(t)
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the official JavaScript clients cannot run (CI installs node and npm)", tool)
		}
	}
	jsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "clienttest-js-")
		if err != nil {
			jsErr = err.Error()
			return
		}
		jsDir = dir
		for _, f := range []string{"package.json", "package-lock.json", "harness.mjs", "openai.mjs", "ollama.mjs", "responses.mjs", "anthropic.mjs", "aisdk.mjs", "langchain.mjs"} {
			data, err := os.ReadFile(filepath.Join("js", f))
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, f), data, 0o644)
			}
			if err != nil {
				jsErr = err.Error()
				return
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			jsErr = "npm ci: " + err.Error() + "\n" + string(out)
		}
	})
	if jsErr != "" {
		t.Fatal(jsErr)
	}
	return jsDir
}

// jsCase is one chat a node script runs.
type jsCase struct {
	Name    string            `json:"name"`
	BaseURL string            `json:"baseURL"`
	Model   string            `json:"model"`
	Prompt  string            `json:"prompt"`
	Tools   []json.RawMessage `json:"tools"`
	Mode    string            `json:"mode"`
	// Provider names, for the scripts of libraries with several, the
	// provider the case runs on.
	Provider string `json:"provider,omitempty"`
}

// jsGot is what a node script reports for one case.
type jsGot struct {
	Got
	Name   string   `json:"name"`
	Usage  bool     `json:"usage"`
	Events []string `json:"events"`
	Models []string `json:"models"`
}

// runNode runs script on the cases and returns its report by case name.
func runNode(t *testing.T, dir, script string, cases []jsCase) map[string]jsGot {
	t.Helper()
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	var got []jsGot
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node %s printed %q: %v", script, out, err)
	}
	byName := map[string]jsGot{}
	for _, g := range got {
		byName[g.Name] = g
	}
	if len(byName) != len(cases) {
		t.Fatalf("node %s reported %d cases, want %d", script, len(byName), len(cases))
	}
	return byName
}

func newCase(name, base, mode string) jsCase {
	return jsCase{Name: name, BaseURL: base, Model: Model, Prompt: Prompt,
		Tools: []json.RawMessage{json.RawMessage(WeatherTool)}, Mode: mode}
}

// jsClients are the official JavaScript clients, the script that drives
// each, and the modes each is run in through the proxy.
var jsClients = []struct {
	api    proxy.API
	script string
	modes  []string
}{
	{proxy.OpenAI, "openai.mjs", []string{"whole", "stream", "stream_helper"}},
	{proxy.Ollama, "ollama.mjs", []string{"whole", "stream"}},
	{proxy.Responses, "responses.mjs", []string{"whole", "stream", "stream_helper"}},
	{proxy.Anthropic, "anthropic.mjs", []string{"whole", "stream", "stream_helper"}},
}

// allModes are every mode a script has, used against the upstream alone.
var allModes = map[proxy.API][]string{
	proxy.OpenAI:    {"whole", "stream", "stream_helper"},
	proxy.Ollama:    {"whole", "stream"},
	proxy.Responses: {"whole", "stream", "stream_helper"},
	proxy.Anthropic: {"whole", "stream", "stream_helper"},
}

// listsModels are the scripts with a "models" mode: a path the proxy
// passes through.
var listsModels = map[proxy.API]bool{proxy.OpenAI: true, proxy.Ollama: true}

// TestJSClients drives the official OpenAI (chat completions and
// Responses), Anthropic and Ollama JavaScript clients through the proxy in
// every scenario: they must see the calls as native
// tool calls through their own parsing. Against the upstream alone, the
// native scenario must read the same and a leaked call must not, which
// shows the harness reads what the client parsed.
func TestJSClients(t *testing.T) {
	dir := nodeClients(t)
	for _, cl := range jsClients {
		t.Run(string(cl.api), func(t *testing.T) {
			var cases []jsCase
			want := map[string]Want{}
			for _, sc := range Scenarios {
				for _, mode := range cl.modes {
					s, err := NewStack(cl.api, sc.Script)
					if err != nil {
						t.Fatal(err)
					}
					defer s.Close()
					name := sc.Name + "/" + mode
					cases = append(cases, newCase(name, s.Proxy.URL, mode))
					want[name] = sc.Want
				}
			}
			direct := map[string]bool{}
			for _, sc := range Named("native", "hermes") {
				for _, mode := range allModes[cl.api] {
					up := fakeserver.NewServer(sc.Script, nil)
					defer up.Close()
					name := "direct/" + sc.Name + "/" + mode
					cases = append(cases, newCase(name, up.URL, mode))
					want[name] = sc.Want
					direct[name] = sc.Name == "native"
				}
			}
			if listsModels[cl.api] {
				// A path the proxy passes through: the model list.
				listed := fakeserver.NewServer(fakeserver.Script{}, &fakeserver.Options{Models: []string{Model}})
				defer listed.Close()
				h, err := proxy.NewHandler(Options(cl.api, listed.URL))
				if err != nil {
					t.Fatal(err)
				}
				listProxy := httptest.NewServer(h)
				defer listProxy.Close()
				cases = append(cases, newCase("models", listProxy.URL, "models"))
			}

			got := runNode(t, dir, cl.script, cases)
			if listsModels[cl.api] {
				t.Run("models", func(t *testing.T) {
					if g := got["models"]; g.Status != 0 || len(g.Models) != 1 || g.Models[0] != Model {
						t.Errorf("models through the proxy = %q (status %d %s), want [%s]", g.Models, g.Status, g.Error, Model)
					}
				})
			}
			for _, c := range cases {
				if c.Mode == "models" {
					continue
				}
				t.Run(c.Name, func(t *testing.T) {
					g := got[c.Name]
					d := want[c.Name].Check(cl.api, g.Got)
					if strings.HasPrefix(c.Name, "direct/") && !direct[c.Name] {
						if d == "" {
							t.Errorf("the leaked call reads as a native call without the proxy: %+v", g)
						}
						return
					}
					if d != "" {
						t.Errorf("%s\ngot %+v", d, g)
					}
					checkStreamExtras(t, cl.api, c.Mode, want[c.Name], g)
				})
			}
		})
	}
}

// checkStreamExtras checks what the OpenAI and Anthropic SDKs' streaming
// adds: the usage (asked for with stream_options on chat completions), and
// the stream helper's event for each call.
func checkStreamExtras(t *testing.T, api proxy.API, mode string, w Want, g jsGot) {
	t.Helper()
	if api == proxy.Ollama || w.Status != 0 {
		return
	}
	switch mode {
	case "stream":
		if !g.Usage {
			t.Errorf("no usage chunk, though include_usage was asked")
		}
	case "stream_helper":
		if len(g.Events) != len(w.Calls) {
			t.Errorf("arguments.done events = %q, want one per call (%d)", g.Events, len(w.Calls))
		}
	}
}
