package clienttest

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/proxy"
)

// agentCLI is an agent's command-line program, pinned by the lock file in
// agent/<Dir>, and how it is run once, non-interactively, against a server.
type agentCLI struct {
	// Dir is the directory under agent/ holding package.json and
	// package-lock.json.
	Dir string
	// Bin is the program's name in node_modules/.bin.
	Bin string
	// OmitOptional leaves out the optional packages: Qwen Code's are
	// native helpers (terminal, clipboard, images) a non-interactive run
	// does not use. The other agents' optional packages are their
	// platform binaries, which they need.
	OmitOptional bool
	// Postinstall are the packages' own install scripts (node files,
	// relative to the install directory) that put the platform binary
	// where the launcher looks for it. npm runs no install script (they
	// are run here, by name, after it); they only link or copy a file
	// from the platform package.
	Postinstall []string
	// API is the chat API the agent speaks, served by the proxy in front
	// of the scripted upstream.
	API proxy.API
	// Run runs the agent once in work, asking prompt, with its settings
	// in home, its model qwen3:8b at base (the server's URL, without /v1).
	Run func(t *testing.T, bin, base, home, work, prompt string)
}

// installAgent installs a (the version of its lock file, with its
// integrity) into a temporary directory and returns the program's path.
// It is npm install from the lock file, not npm ci: npm ci refuses a lock
// that lacks some platforms' optional packages, which the registry does
// not list for every platform. It skips the test when node or npm is
// absent.
func installAgent(t *testing.T, a agentCLI) string {
	t.Helper()
	longtest.Skip(t)
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the agent cannot run (CI installs node and npm)", tool)
		}
	}
	dir := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json"} {
		data, err := os.ReadFile(filepath.Join("agent", a.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := []string{"install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"}
	if a.OmitOptional {
		args = append(args, "--omit=optional")
	}
	cmd := exec.CommandContext(ctx, "npm", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	for _, script := range a.Postinstall {
		cmd := exec.CommandContext(ctx, "node", filepath.Base(script))
		cmd.Dir = filepath.Join(dir, filepath.Dir(script))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
	}
	return filepath.Join(dir, "node_modules", ".bin", a.Bin)
}

// runAgent runs the agent's program with args in work and the
// environment env (HOME and PATH are added), and fails the test when it
// does not exit with status 0 within three minutes.
func runAgent(t *testing.T, work string, env []string, bin string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = work
	cmd.Env = append(env, "PATH="+os.Getenv("PATH"), "NO_COLOR=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(bin), err, out)
	}
}

// writeJSONFile writes v as JSON to path, making its directory.
func writeJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o755)
	}
	if err == nil {
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// qwenCode: `qwen -p … --yolo` with a settings.json in its home that
// points it at an OpenAI-compatible /v1.
var qwenCode = agentCLI{
	Dir: "qwen-code", Bin: "qwen", OmitOptional: true, API: proxy.OpenAI,
	Run: func(t *testing.T, bin, base, home, work, prompt string) {
		writeJSONFile(t, filepath.Join(home, ".qwen", "settings.json"), map[string]any{
			"modelProviders": map[string]any{"openai": []any{map[string]any{"id": "qwen3:8b", "name": "qwen3:8b", "baseUrl": base + "/v1", "envKey": "OPENAI_API_KEY"}}},
			"security":       map[string]any{"auth": map[string]any{"selectedType": "openai"}},
			"model":          map[string]any{"name": "qwen3:8b"},
		})
		runAgent(t, work, []string{"HOME=" + home, "OPENAI_API_KEY=none"}, bin, "-p", prompt, "--yolo")
	},
}

// openCode: `opencode run …` with an opencode.json in the project that
// declares an OpenAI-compatible provider at /v1. The variables turn off
// what it would fetch from the network: the models.dev catalogue, its
// plugins' package (through npm, which is also kept offline), updates,
// language servers.
var openCode = agentCLI{
	Dir: "opencode", Bin: "opencode", API: proxy.OpenAI,
	Postinstall: []string{"node_modules/opencode-ai/postinstall.mjs"},
	Run: func(t *testing.T, bin, base, home, work, prompt string) {
		writeJSONFile(t, filepath.Join(work, "opencode.json"), map[string]any{
			"provider": map[string]any{"local": map[string]any{
				"npm":     "@ai-sdk/openai-compatible",
				"name":    "local",
				"options": map[string]any{"baseURL": base + "/v1", "apiKey": "none"},
				"models":  map[string]any{"qwen3:8b": map[string]any{"name": "qwen3:8b", "tool_call": true}},
			}},
			"model": "local/qwen3:8b",
		})
		runAgent(t, work, []string{"HOME=" + home,
			"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_DEFAULT_PLUGINS=1",
			"OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1",
			"npm_config_offline=true", "npm_config_registry=http://127.0.0.1:9/"},
			bin, "run", prompt)
	},
}

// codexCLI: `codex exec …` with a config.toml in $CODEX_HOME that
// declares a model provider at /v1 speaking the Responses API, commands
// run without asking and without its sandbox (the test's directory is
// the sandbox).
var codexCLI = agentCLI{
	Dir: "codex", Bin: "codex", API: proxy.Responses,
	Run: func(t *testing.T, bin, base, home, work, prompt string) {
		config := "model = \"qwen3:8b\"\nmodel_provider = \"local\"\ncheck_for_update_on_startup = false\n\n" +
			"[model_providers.local]\nname = \"local\"\nbase_url = " + strconv.Quote(base+"/v1") + "\nwire_api = \"responses\"\n"
		codexHome := filepath.Join(home, ".codex")
		if err := os.MkdirAll(codexHome, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		runAgent(t, work, []string{"HOME=" + home, "CODEX_HOME=" + codexHome, "OPENAI_API_KEY=none"},
			bin, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", prompt)
	},
}

// claudeCode: `claude -p …` with ANTHROPIC_BASE_URL (without /v1), a
// placeholder key, its Write tool allowed, and its non-essential traffic
// (telemetry, updates) off.
var claudeCode = agentCLI{
	Dir: "claude-code", Bin: "claude", API: proxy.Anthropic,
	Postinstall: []string{"node_modules/@anthropic-ai/claude-code/install.cjs"},
	Run: func(t *testing.T, bin, base, home, work, prompt string) {
		runAgent(t, work, []string{"HOME=" + home, "ANTHROPIC_BASE_URL=" + base, "ANTHROPIC_API_KEY=none",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"},
			bin, "-p", prompt, "--allowedTools", "Write", "--model", "qwen3:8b")
	},
}

// agentCase is one answer the scripted upstream gives an agent that asks
// to write a file.
type agentCase struct {
	Name string
	// Turn is the upstream's answer to the agent's first request with
	// tools, given the marker file's path and the text to write there.
	Turn func(path, text string) fakeserver.Turn
	// Direct reports whether the agent, talking to the upstream alone,
	// writes the file too: yes for a native call, no for a call leaked
	// into the text.
	Direct bool
}

// leaked is an agent's own tool called in a Hermes <tool_call> block of
// the text, with the arguments args gives for the marker's path and
// text.
func leaked(tool string, args func(path, text string) map[string]any) agentCase {
	return agentCase{Name: "leaked", Turn: func(path, text string) fakeserver.Turn {
		a, _ := json.Marshal(args(path, text))
		return fakeserver.Turn{Content: "I will write it.\n<tool_call>\n{\"name\": \"" + tool + "\", \"arguments\": " + string(a) + "}\n</tool_call>", ChunkSize: 7}
	}}
}

// native is an agent's own tool called natively with arguments its
// schema does not declare (and does not forbid): the agent runs it, and
// so must it through the proxy.
func native(tool string, args func(path, text string) map[string]any) agentCase {
	return agentCase{Name: "native, undeclared argument", Direct: true, Turn: func(path, text string) fakeserver.Turn {
		a, _ := json.Marshal(args(path, text))
		return fakeserver.Turn{Calls: []fakeserver.Call{{Name: tool, Arguments: string(a)}}}
	}}
}

// testAgent installs agent and runs each case through the proxy and
// direct to the same scripted upstream, asking it to write a file: the
// upstream answers the request with tools with the case's turn, and any
// other request (a title, the turn after the tool's result) with text.
// The file must be written through the proxy, and direct only when the
// call was native.
func testAgent(t *testing.T, agent agentCLI, cases ...agentCase) {
	bin := installAgent(t, agent)
	const marker = "written through the proxy"
	for _, c := range cases {
		for _, through := range []bool{true, false} {
			name := c.Name + "/direct"
			if through {
				name = c.Name + "/proxy"
			}
			t.Run(name, func(t *testing.T) {
				work, home := t.TempDir(), t.TempDir()
				path := filepath.Join(work, "marker.txt")
				up := fakeserver.NewServer(fakeserver.ResponderFunc(func(req *fakeserver.Request) fakeserver.Turn {
					if len(req.Tools) == 0 || len(req.Messages) > 0 && req.Messages[len(req.Messages)-1].Role == "tool" {
						return fakeserver.Turn{Content: "Done.", ChunkSize: 7}
					}
					return c.Turn(path, marker)
				}), nil)
				defer up.Close()
				base := up.URL
				if through {
					h, err := proxy.NewHandler(Options(agent.API, up.URL))
					if err != nil {
						t.Fatal(err)
					}
					srv := httptest.NewServer(h)
					defer srv.Close()
					base = srv.URL
				}
				agent.Run(t, bin, base, home, work, "Write the file marker.txt in the current directory.")
				if !asked(up.Requests()) {
					t.Fatal("the agent asked the upstream nothing with its tools")
				}
				data, err := os.ReadFile(path)
				switch {
				case (through || c.Direct) && (err != nil || strings.TrimSpace(string(data)) != marker):
					t.Errorf("the agent did not run the call: %q, %v", data, err)
				case !through && !c.Direct && err == nil:
					t.Errorf("direct to the upstream, the agent ran a call leaked into text (the test shows nothing): %q", data)
				}
			})
		}
	}
}

// asked reports whether one of reqs declared tools.
func asked(reqs []*fakeserver.Request) bool {
	for _, r := range reqs {
		if len(r.Tools) > 0 {
			return true
		}
	}
	return false
}

// fileArgs are the arguments of a tool that writes text to a file, under
// the names the agent gives them.
func fileArgs(pathKey, textKey string) func(path, text string) map[string]any {
	return func(path, text string) map[string]any { return map[string]any{pathKey: path, textKey: text} }
}

// shellArgs are the arguments of a shell tool whose command writes text to
// the file, the command under key, with extra arguments.
func shellArgs(key string, extra map[string]any) func(path, text string) map[string]any {
	return func(path, text string) map[string]any {
		args := map[string]any{key: "printf '%s\\n' " + strconv.Quote(text) + " > " + strconv.Quote(path)}
		for k, v := range extra {
			args[k] = v
		}
		return args
	}
}

// TestAgentQwenCode: Qwen Code runs its write_file tool from a call leaked
// into the text only through the proxy, and a native call with an
// argument its schema does not declare through the proxy as direct.
func TestAgentQwenCode(t *testing.T) {
	write := fileArgs("file_path", "content")
	testAgent(t, qwenCode, leaked("write_file", write),
		native("write_file", func(path, text string) map[string]any {
			args := write(path, text)
			args["reason"] = "the user asked for it"
			return args
		}))
}

// TestAgentOpenCode: OpenCode runs its write tool from a call leaked into
// the text only through the proxy, and its bash tool called natively with
// a description (an argument its schema does not declare, as models
// trained on other agents write) through the proxy as direct.
func TestAgentOpenCode(t *testing.T) {
	testAgent(t, openCode, leaked("write", fileArgs("filePath", "content")),
		native("bash", shellArgs("command", map[string]any{"description": "Writes the marker file"})))
}

// TestAgentCodex: Codex CLI, speaking the Responses API, runs its
// exec_command tool from a call leaked into the text only through the
// proxy.
func TestAgentCodex(t *testing.T) {
	testAgent(t, codexCLI, leaked("exec_command", shellArgs("cmd", nil)))
}

// TestAgentClaudeCode: Claude Code, speaking the Anthropic Messages API,
// runs its Write tool from a call leaked into the text only through the
// proxy.
func TestAgentClaudeCode(t *testing.T) {
	testAgent(t, claudeCode, leaked("Write", fileArgs("file_path", "content")))
}
