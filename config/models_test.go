package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/config"
)

const modelsDoc = `model:
  providers:
    ollama:
      tool_call:
        max_retries: 2
        coerce_types: true
        models:
          "qwen3:8b":
            dialect: hermes
            fallback: [json, pythonic]
            max_retries: 4
          "qwen3*":
            dialect: qwen3_coder
          "llama3.2":
            enable_auto_repair: false
          "hf.co/*/Mistral-*":
            dialect: mistral
          "bare:tag":
`

// TestModels: an entry overrides the section key by key; the most specific
// entry wins; Ollama's implicit :latest tag names the same model.
func TestModels(t *testing.T) {
	ms, err := config.ParseModels([]byte(modelsDoc), "")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		model, pattern, dialect string
		fallback                []string
		retries                 int
		repair                  bool
	}{
		{"qwen3:8b", "qwen3:8b", "hermes", []string{"json", "pythonic"}, 4, true},
		{"qwen3:14b", "qwen3*", "qwen3_coder", nil, 2, true},
		{"qwen3", "qwen3*", "qwen3_coder", nil, 2, true},
		{"llama3.2:latest", "llama3.2", "", nil, 2, false},
		{"llama3.2", "llama3.2", "", nil, 2, false},
		{"llama3.2:1b", "", "", nil, 2, true},
		{"hf.co/bartowski/Mistral-Small-GGUF:Q4", "hf.co/*/Mistral-*", "mistral", nil, 2, true},
		{"bare:tag", "bare:tag", "", nil, 2, true},
		{"other", "", "", nil, 2, true},
		{"", "", "", nil, 2, true},
	}
	for _, tt := range tests {
		cfg, pattern, ok := ms.For(tt.model)
		if ok != (tt.pattern != "") || pattern != tt.pattern || cfg.Dialect != tt.dialect || !slices.Equal(cfg.Fallback, tt.fallback) ||
			cfg.MaxRetries != tt.retries || cfg.EnableAutoRepair != tt.repair || !cfg.CoerceTypes {
			t.Errorf("For(%q) = %q %v: dialect %q fallback %q retries %d repair %v coerce %v", tt.model, pattern, ok,
				cfg.Dialect, cfg.Fallback, cfg.MaxRetries, cfg.EnableAutoRepair, cfg.CoerceTypes)
		}
	}
	if got := ms.Patterns(); !slices.Equal(got, []string{"bare:tag", "hf.co/*/Mistral-*", "llama3.2", "qwen3*", "qwen3:8b"}) {
		t.Errorf("patterns %q", got)
	}
	// Parse reads the section and checks the entries, without applying them.
	cfg, err := config.Parse([]byte(modelsDoc))
	if err != nil || cfg.Dialect != "" || cfg.MaxRetries != 2 {
		t.Errorf("Parse = %+v, %v", cfg, err)
	}
}

// TestResolveModel: the entry sits between the section and the
// environment, and says where each value came from.
func TestResolveModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yml")
	if err := os.WriteFile(path, []byte(modelsDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{config.EnvVar("max_retries"): "6", config.EnvVar("fallback"): "markdown_json, json"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cfg, settings, err := config.ResolveModel(path, "ollama", "qwen3:8b", lookup, []string{"coerce_types=false"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Dialect != "hermes" || cfg.MaxRetries != 6 || cfg.CoerceTypes || !slices.Equal(cfg.Fallback, []string{"markdown_json", "json"}) {
		t.Errorf("config %+v", cfg)
	}
	want := map[string]string{
		"dialect":      path + ": model.providers.ollama.tool_call.models.qwen3:8b.dialect",
		"max_retries":  "DIALECTKIT_TOOL_CALL_MAX_RETRIES",
		"coerce_types": "--set coerce_types",
		"fallback":     "DIALECTKIT_TOOL_CALL_FALLBACK",
	}
	for _, s := range settings {
		if w, ok := want[s.Key]; ok && s.From != w {
			t.Errorf("%s from %q, want %q", s.Key, s.From, w)
		}
	}
	if src := config.SourceOf(settings, "retry_delay_ms"); src != config.SourceDefault {
		t.Errorf("retry_delay_ms source %s", src)
	}
	// Resolve, with no model, is the section's.
	cfg, _, err = config.Resolve(path, "ollama", nil, nil)
	if err != nil || cfg.Dialect != "" || cfg.MaxRetries != 2 {
		t.Errorf("Resolve = %+v, %v", cfg, err)
	}
}

// TestModelsErrors: every key of every entry is checked, with its full
// path, in Parse as in ResolveModels.
func TestModelsErrors(t *testing.T) {
	section := "tool_call:\n  backoff_initial_ms: 500\n  models:\n"
	tests := []struct{ doc, key, msg string }{
		{section + "    m:\n      max_retrys: 3\n", "tool_call.models.m.max_retrys", "unknown setting"},
		{section + "    m:\n      max_retries: 0\n", "tool_call.models.m.max_retries", "out of range 1–10"},
		{section + "    m:\n      dialect: 3\n", "tool_call.models.m.dialect", "expected a string"},
		{section + "    m:\n      fallback: [json, json]\n", "tool_call.models.m.fallback", `"json" is listed twice`},
		{section + "    m:\n      fallback: {a: 1}\n", "tool_call.models.m.fallback", "expected a sequence"},
		{section + "    m:\n      models: {}\n", "tool_call.models.m.models", "unknown setting"},
		{section + "    m:\n      reasoning: opened\n", "tool_call.models.m.reasoning", `"opened" is not one of auto, open, closed`},
		{section + "    m: 3\n", "tool_call.models.m", "expected a mapping"},
		{section + "    \"**\":\n      dialect: hermes\n", "tool_call.models.**", "other than *"},
		{"tool_call:\n  models: [a]\n", "tool_call.models", "expected a mapping"},
		// The combination is checked per model: the entry's cap is under the section's start.
		{section + "    m:\n      backoff_max_ms: 100\n", "tool_call.models.m.backoff_max_ms", "less than backoff_initial_ms"},
	}
	for _, tt := range tests {
		_, err := config.ParseModels([]byte(tt.doc), "")
		if !errors.Is(err, toolcall.ErrInvalidConfig) || !strings.Contains(err.Error(), tt.key+": ") || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%q:\n got %v\nwant %s: …%s", tt.doc, err, tt.key, tt.msg)
		}
	}
}

func TestServe(t *testing.T) {
	doc := "serve:\n  listen: 127.0.0.1:9000\n  upstream: http://127.0.0.1:8080\n  api: openai\n  api_key_env: PROXY_KEY\n" +
		"  max_request_bytes: 1024\n  max_response_bytes: 2048\n  max_concurrent: 3\n  idle_timeout_ms: 1500\n  total_timeout_ms: 60000\n  shutdown_grace_ms: 250\n" +
		"tool_call:\n  max_retries: 2\n"
	s, err := config.ParseServe([]byte(doc))
	want := config.Serve{Listen: "127.0.0.1:9000", Upstream: "http://127.0.0.1:8080", API: "openai", APIKeyEnv: "PROXY_KEY",
		MaxRequestBytes: 1024, MaxResponseBytes: 2048, MaxConcurrent: 3, IdleTimeout: 1500 * time.Millisecond,
		TotalTimeout: time.Minute, ShutdownGrace: 250 * time.Millisecond}
	if err != nil || s != want {
		t.Errorf("ParseServe = %+v, %v", s, err)
	}
	// The serve mapping stands beside every shape of the tool_call settings.
	for _, doc := range []string{doc, "serve:\n  max_concurrent: 2\nmax_retries: 2\n", "serve:\n  max_concurrent: 2\n"} {
		if _, err := config.Parse([]byte(doc)); err != nil {
			t.Errorf("Parse(%q): %v", doc, err)
		}
	}
	for _, tt := range []struct{ doc, msg string }{
		{"serve:\n  listne: x\n", "serve.listne: unknown setting"},
		{"serve:\n  api: grpc\n", `serve.api: "grpc" is not one of ollama, openai`},
		{"serve:\n  max_concurrent: -1\n", "serve.max_concurrent: -1 is out of range"},
		{"serve:\n  idle_timeout_ms: 1s\n", "serve.idle_timeout_ms: expected an integer, got a string"},
		{"serve: 3\n", "serve: expected a mapping"},
	} {
		_, err := config.ParseServe([]byte(tt.doc))
		if !errors.Is(err, toolcall.ErrInvalidConfig) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("ParseServe(%q) = %v, want …%s", tt.doc, err, tt.msg)
		}
	}
}

// TestReasoningSetting: where the output starts is set per model, over the
// section's value, and an entry can give it back to the template (auto).
func TestReasoningSetting(t *testing.T) {
	doc := "tool_call:\n  reasoning: closed\n  models:\n    \"deepseek-r1*\":\n      reasoning: open\n    qwq:\n      reasoning: auto\n"
	ms, err := config.ParseModels([]byte(doc), "")
	if err != nil {
		t.Fatal(err)
	}
	for model, want := range map[string]string{"deepseek-r1:8b": config.ReasoningOpen, "qwq": config.ReasoningAuto, "llama3.2": config.ReasoningClosed} {
		if cfg, _, _ := ms.For(model); cfg.Reasoning != want {
			t.Errorf("%s: reasoning %q, want %q", model, cfg.Reasoning, want)
		}
	}
}
