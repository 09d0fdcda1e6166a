package clienttest

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/proxy"
)

// installAgent installs the agent CLI of agent/package-lock.json (Qwen
// Code, pinned with its integrity) into a temporary directory, without its
// install scripts and optional native packages (terminal, clipboard,
// images), which a non-interactive run does not use. It is npm install
// from the lock file, not npm ci: npm ci refuses a lock that lacks some
// platforms' optional packages, which the registry does not list for
// every platform. It skips the test when node or npm is absent.
func installAgent(t *testing.T) string {
	t.Helper()
	longtest.Skip(t)
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the agent cannot run (CI installs node and npm)", tool)
		}
	}
	dir := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json"} {
		data, err := os.ReadFile(filepath.Join("agent", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--omit=optional", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	return filepath.Join(dir, "node_modules", ".bin", "qwen")
}

// runQwen runs Qwen Code once, non-interactively with its tools approved,
// in work with its settings in a new home: the model qwen3:8b at baseURL
// (an OpenAI-compatible /v1).
func runQwen(t *testing.T, qwen, baseURL, prompt, work string) {
	t.Helper()
	home := t.TempDir()
	settings, err := json.Marshal(map[string]any{
		"modelProviders": map[string]any{"openai": []any{map[string]any{"id": "qwen3:8b", "name": "qwen3:8b", "baseUrl": baseURL, "envKey": "OPENAI_API_KEY"}}},
		"security":       map[string]any{"auth": map[string]any{"selectedType": "openai"}},
		"model":          map[string]any{"name": "qwen3:8b"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".qwen"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".qwen", "settings.json"), settings, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, qwen, "-p", prompt, "--yolo")
	cmd.Dir = work
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENAI_API_KEY=none", "NO_COLOR=1"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("qwen: %v\n%s", err, out)
	}
}

// TestAgentQwenCode: Qwen Code, asked to write a file, runs its own
// write_file tool from a call the model leaked into its text as a Hermes
// <tool_call> block when it talks to the proxy, and does not when it talks
// to the same scripted upstream directly.
func TestAgentQwenCode(t *testing.T) {
	qwen := installAgent(t)
	const marker = "written through the proxy"
	script := func(dir string) fakeserver.Script {
		args, _ := json.Marshal(map[string]string{"file_path": filepath.Join(dir, "marker.txt"), "content": marker})
		return fakeserver.Script{
			{Content: "I will write it.\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": " + string(args) + "}\n</tool_call>", ChunkSize: 7},
			{Content: "Done.", ChunkSize: 7},
		}
	}
	for _, through := range []bool{true, false} {
		work := t.TempDir()
		up := fakeserver.NewServer(script(work), nil)
		base := up.URL
		if through {
			h, err := proxy.NewHandler(Options(proxy.OpenAI, up.URL))
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			base = srv.URL
			defer srv.Close()
		}
		runQwen(t, qwen, base+"/v1", "Write the file marker.txt in the current directory.", work)
		up.Close()
		if len(up.Requests()) == 0 {
			t.Fatalf("through the proxy %v: the agent asked the upstream nothing", through)
		}
		data, err := os.ReadFile(filepath.Join(work, "marker.txt"))
		switch {
		case through && (err != nil || string(data) != marker):
			t.Errorf("through the proxy, the agent did not run the leaked call: %q, %v", data, err)
		case !through && err == nil:
			t.Errorf("direct to the upstream, the agent ran a call leaked into text (the test shows nothing): %q", data)
		}
	}
}
