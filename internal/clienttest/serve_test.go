package clienttest

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/proxy"
)

// serveScenarios are the scenarios run through `dialect-probe serve`: those
// whose outcome does not depend on the proxy's configuration (recovery,
// the transport backoff), which the Handler tests cover.
var serveScenarios = []string{"native", "hermes", "hermes_two_calls", "pythonic", "fenced_json",
	"malformed_leaked", "malformed_native", "truncated"}

// byPrompt answers each chat request with the script of the scenario its
// last user message names, counting the requests of each scenario apart,
// so that one upstream serves every scenario.
type byPrompt struct {
	mu   sync.Mutex
	seen map[string]int
}

func (b *byPrompt) Respond(req *fakeserver.Request) fakeserver.Turn {
	name := ""
	for _, m := range req.Messages {
		if m.Role == "user" {
			name = m.Content
		}
	}
	b.mu.Lock()
	n := b.seen[name]
	b.seen[name]++
	b.mu.Unlock()
	for _, sc := range Scenarios {
		if sc.Name == name {
			return sc.Script.Respond(&fakeserver.Request{Seq: n})
		}
	}
	return fakeserver.Turn{Status: http.StatusBadRequest, Error: "no scenario named " + name}
}

// buildCLI builds dialect-probe into a temporary directory.
func buildCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dialect-probe")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/dialectkit/toolcall/cmd/dialect-probe")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// serve runs `dialect-probe serve` in front of upstream and returns its
// base URL, once it has said it listens, and a function that stops it with
// SIGTERM and returns how it exited.
func serve(t *testing.T, bin, upstream string, api proxy.API) (base string, stop func() error) {
	t.Helper()
	// No config file applies: not one in the working directory, nor the
	// user's own.
	cmd := exec.Command(bin, "serve", "--config", "", "--upstream", upstream, "--api", string(api), "--listen", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		said := false
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "listening on "); ok && !said {
				said = true
				lines <- rest
			}
		}
		io.Copy(io.Discard, stderr)
		exited <- cmd.Wait()
	}()
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			return err
		}
		select {
		case err := <-exited:
			return err
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			return errors.New("serve did not exit within 30s of SIGTERM")
		}
	}
	t.Cleanup(func() {
		if !stopped {
			stopped = true
			cmd.Process.Kill()
			<-exited
		}
	})
	select {
	case base = <-lines:
	case err := <-exited:
		t.Fatalf("serve exited before it listened: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not say it listens within 60s")
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("serve listens on %q, want http://127.0.0.1:PORT", base)
	}
	return base, stop
}

// TestServe runs the dialect-probe binary as the proxy, as an agent would,
// and drives it with the ollama/api client and, when node is there, the
// official JavaScript clients (the Responses API under --api openai, the
// Messages API under --api ollama, beside each mode's own); SIGTERM then
// ends it with status 0.
func TestServe(t *testing.T) {
	longtest.Skip(t)
	bin := buildCLI(t)
	_, errNode := exec.LookPath("node")
	_, errNpm := exec.LookPath("npm")
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI} {
		t.Run(string(api), func(t *testing.T) {
			up := fakeserver.NewServer(&byPrompt{seen: map[string]int{}}, nil)
			defer up.Close()
			base, stop := serve(t, bin, up.URL, api)
			want := map[string]Want{}
			for _, sc := range Scenarios {
				want[sc.Name] = sc.Want
			}
			if api == proxy.Ollama {
				for _, name := range serveScenarios {
					for _, stream := range []bool{false, true} {
						t.Run("ollama-go/"+name+"/"+modeName(stream), func(t *testing.T) {
							got := ollamaChatPrompt(t, base, http.DefaultClient, stream, name)
							if d := want[name].Check(api, got); d != "" {
								t.Errorf("%s\ngot %+v", d, got)
							}
						})
					}
				}
			}
			if errNode == nil && errNpm == nil {
				dir := nodeClients(t)
				// The API of the serve mode, and the one its upstream kind
				// also serves: the Responses API beside OpenAI chat, the
				// Messages API beside Ollama's.
				clients := map[proxy.API][]proxy.API{proxy.Ollama: {proxy.Ollama, proxy.Anthropic}, proxy.OpenAI: {proxy.OpenAI, proxy.Responses}}[api]
				for _, capi := range clients {
					script := map[proxy.API]string{proxy.Ollama: "ollama.mjs", proxy.OpenAI: "openai.mjs", proxy.Responses: "responses.mjs", proxy.Anthropic: "anthropic.mjs"}[capi]
					var cases []jsCase
					for _, name := range serveScenarios {
						for _, mode := range allModes[capi] {
							c := newCase(name+"/"+mode, base, mode)
							c.Prompt = name
							cases = append(cases, c)
						}
					}
					got := runNode(t, dir, script, cases)
					for _, c := range cases {
						t.Run("js/"+string(capi)+"/"+c.Name, func(t *testing.T) {
							if d := want[c.Prompt].Check(capi, got[c.Name].Got); d != "" {
								t.Errorf("%s\ngot %+v", d, got[c.Name])
							}
						})
					}
				}
			} else {
				t.Logf("node or npm is not installed: serve is driven by the Go client alone")
			}
			if err := stop(); err != nil {
				t.Errorf("serve after SIGTERM: %v", err)
			}
		})
	}
}

func modeName(stream bool) string {
	if stream {
		return "stream"
	}
	return "whole"
}
