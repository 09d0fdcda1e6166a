package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/retry"
)

func TestDefaultConfig(t *testing.T) {
	c := config.Default()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"max_retries", c.MaxRetries, 3},
		{"retry_delay_ms", c.RetryDelay, 100 * time.Millisecond},
		{"enable_auto_repair", c.EnableAutoRepair, true},
		{"repair_timeout_ms", c.RepairTimeout, 100 * time.Millisecond},
		{"strict_validation", c.StrictValidation, false},
		{"max_nesting_depth", c.MaxNestingDepth, 64},
		{"max_argument_size", c.MaxArgumentSize, 1048576},
		{"log_repair_details", c.LogRepairDetails, true},
		{"log_argument_values", c.LogArgumentValues, false},
		{"retry_prompt_template", c.RetryPromptTemplate, config.DefaultRetryPromptTemplate},
		{"model_http_retries", c.ModelHTTPRetries, 2},
		{"model_http_retry_delay_ms", c.ModelHTTPRetryDelay, 500 * time.Millisecond},
		{"on_truncation", c.OnTruncation, config.TruncationMoreTokens},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	// The zero-value file is the defaults.
	for _, doc := range []string{"", "# nothing\n", "model:\n  name: qwen3\n", "{}\n"} {
		got, err := config.Parse([]byte(doc))
		if err != nil || !reflect.DeepEqual(got, c) {
			t.Errorf("Parse(%q) = %+v, %v; want the defaults", doc, got, err)
		}
	}
}

const agentConfig = `# .agent/config.yml
agent:
  name: helper
model:
  default: qwen2.5:7b
  providers:
    ollama:
      host: http://localhost:11434
      tool_call:
        max_retries: 5
        retry_delay_ms: 250
        enable_auto_repair: false
        repair_timeout_ms: 50
        strict_validation: false
        coerce_types: true
        max_nesting_depth: 32
        max_argument_size: 65536
        log_repair_details: false
        log_argument_values: true
        retry_prompt_template: "Fix {tool_name}: {error_message}"
        require_tool_call: true
        dialect: hermes
        model_http_retries: 1
        model_http_retry_delay_ms: 1000
        transport_retries: 4
        backoff_initial_ms: 200
        backoff_max_ms: 5000
        backoff_multiplier: 3
        backoff_jitter: 0.5
        max_retry_after_ms: 10000
        on_truncation: shorter
        truncation_retries: 1
        max_tokens_cap: 8192
        circuit_breaker_threshold: 0
        circuit_breaker_cooldown_ms: 1000
    openai:
      host: http://localhost:8080
`

func TestLoadAgentConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, config.AgentPath)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(agentConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := config.Config{
		MaxRetries: 5, RetryDelay: 250 * time.Millisecond, EnableAutoRepair: false, RepairTimeout: 50 * time.Millisecond,
		StrictValidation: false, CoerceTypes: true, MaxNestingDepth: 32, MaxArgumentSize: 65536,
		LogRepairDetails: false, LogArgumentValues: true, RetryPromptTemplate: "Fix {tool_name}: {error_message}",
		RequireToolCall: true, Dialect: "hermes", ModelHTTPRetries: 1, ModelHTTPRetryDelay: time.Second,
		TransportRetries: 4, Backoff: config.Backoff{Initial: 200 * time.Millisecond, Max: 5 * time.Second, Multiplier: 3, Jitter: 0.5},
		IdleTimeout: time.Minute, MaxRetryAfter: 10 * time.Second, MaxReflectedCalls: 8, MaxReflectedExcerpt: 500, MaxReflectedContent: 16 << 10, OnTruncation: config.TruncationShorter, TruncationRetries: 1, MaxTokensCap: 8192,
		BreakerThreshold: 0, BreakerCooldown: time.Second,
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("loaded\n%+v\nwant\n%+v", c, want)
	}
	opts := c.DialectOptions(nil)
	if !opts.DisableRepair || opts.Validation.Strict || !opts.Validation.Coerce ||
		opts.Lenient != (lenient.Options{MaxSize: 65536, MaxDepth: 32, Timeout: 50 * time.Millisecond}) {
		t.Errorf("dialect options = %+v", opts)
	}
}

// TestProviderSections: an agent configuration keeps settings under
// the provider they are for; ParseFor reads the provider's own section,
// and a file with one provider's section serves every provider.
func TestProviderSections(t *testing.T) {
	both := "model:\n  providers:\n    ollama:\n      tool_call:\n        max_retries: 2\n    openai:\n      host: http://127.0.0.1:8080\n      tool_call:\n        max_retries: 5\n"
	onlyOpenAI := "model:\n  providers:\n    openai:\n      tool_call:\n        max_retries: 5\n"
	tests := []struct {
		doc, provider string
		want          int
	}{
		{both, "", 2},
		{both, config.ProviderOllama, 2},
		{both, config.ProviderOpenAI, 5},
		{onlyOpenAI, "", 5},
		{onlyOpenAI, config.ProviderOllama, 5},
		{onlyOpenAI, config.ProviderOpenAI, 5},
	}
	for _, tt := range tests {
		c, err := config.ParseFor([]byte(tt.doc), tt.provider)
		if err != nil || c.MaxRetries != tt.want {
			t.Errorf("ParseFor(%.40q, %q) = %d, %v; want %d", tt.doc, tt.provider, c.MaxRetries, err, tt.want)
		}
	}
	path := filepath.Join(t.TempDir(), "config.yml")
	if err := os.WriteFile(path, []byte(both), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := config.LoadFor(path, config.ProviderOpenAI); err != nil || c.MaxRetries != 5 {
		t.Errorf("LoadFor(openai) = %d, %v", c.MaxRetries, err)
	}
	if got := config.SectionFor(config.ProviderOllama); got != config.Section {
		t.Errorf("SectionFor(ollama) = %q, want %q", got, config.Section)
	}
}

func TestConfigShapes(t *testing.T) {
	for _, doc := range []string{
		"max_retries: 7\n",
		"tool_call:\n  max_retries: 7\n",
		"model:\n  providers:\n    ollama:\n      tool_call:\n        max_retries: 7\n",
	} {
		c, err := config.Parse([]byte(doc))
		if err != nil || c.MaxRetries != 7 || c.RetryDelay != 100*time.Millisecond {
			t.Errorf("Parse(%q) = %d, %v", doc, c.MaxRetries, err)
		}
	}
}

func TestConfigErrorsNameTheKey(t *testing.T) {
	const section = "model:\n  providers:\n    ollama:\n      tool_call:\n"
	tests := []struct {
		doc, key, msg string
	}{
		{section + "        max_retries: 0\n", "model.providers.ollama.tool_call.max_retries", "0 is out of range 1–10"},
		{section + "        max_retries: 11\n", "model.providers.ollama.tool_call.max_retries", "out of range"},
		{section + "        max_retries: three\n", "model.providers.ollama.tool_call.max_retries", "expected an integer, got a string"},
		{section + "        max_retries: 2.5\n", "model.providers.ollama.tool_call.max_retries", "expected an integer"},
		{section + "        retry_delay_ms: -1\n", "model.providers.ollama.tool_call.retry_delay_ms", "out of range"},
		{section + "        enable_auto_repair: maybe\n", "model.providers.ollama.tool_call.enable_auto_repair", "expected true or false"},
		{section + "        model_http_retries: 20\n", "model.providers.ollama.tool_call.model_http_retries", "out of range 0–10"},
		{section + "        on_truncation: retry\n", "model.providers.ollama.tool_call.on_truncation", `"retry" is not one of more_tokens, shorter, fail`},
		{section + "        reasoning: thinking\n", "model.providers.ollama.tool_call.reasoning", `"thinking" is not one of auto, open, closed`},
		{section + "        reasoning: true\n", "model.providers.ollama.tool_call.reasoning", "expected a string, got a boolean"},
		{section + "        backoff_jitter: 1.5\n", "model.providers.ollama.tool_call.backoff_jitter", "out of range"},
		{section + "        backoff_initial_ms: 5000\n        backoff_max_ms: 1000\n", "model.providers.ollama.tool_call.backoff_max_ms", "less than backoff_initial_ms"},
		{section + "        retry_prompt_template: \"\"\n", "model.providers.ollama.tool_call.retry_prompt_template", "must not be empty"},
		{section + "        max_retrys: 3\n", "model.providers.ollama.tool_call.max_retrys", "unknown setting"},
		{"model:\n  providers: [ollama]\n", "model.providers", "expected a mapping"},
		{"tool_call: 3\n", "tool_call", "expected a mapping"},
		{"tool_call:\n  max_nesting_depth: 0\n", "tool_call.max_nesting_depth", "out of range"},
		{"max_argument_size: 999999999999\n", "max_argument_size", "out of range"},
		{"- 1\n- 2\n", "(document)", "expected a mapping"},
		// Every key a typo: not silently the defaults.
		{"max_retrys: 3\nretry_dealy_ms: 10\n", "(document)", `none of its keys is known: "max_retrys", "retry_dealy_ms"`},
		{"ui:\n  theme: dark\n", "(document)", `none of its keys is known: "ui"`},
		{"tool_calls:\n  max_retries: 3\n", "(document)", `none of its keys is known: "tool_calls"`},
		{"model:\n  providers:\n    openai:\n      tool_call:\n        max_retrys: 3\n", "model.providers.openai.tool_call.max_retrys", "unknown setting"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			_, err := config.Parse([]byte(tt.doc))
			var e *toolcall.Error
			if !errors.As(err, &e) || e.Code != toolcall.CodeInvalidConfig {
				t.Fatalf("err = %v, want TLP-024", err)
			}
			if !strings.HasPrefix(e.Message, tt.key+": ") || !strings.Contains(e.Message, tt.msg) {
				t.Errorf("message %q, want %q and %q", e.Message, tt.key, tt.msg)
			}
		})
	}
}

func TestConfigMalformedYAML(t *testing.T) {
	for _, doc := range []string{"max_retries: [1\n", "a: 1\na: 2\n", "\x00\x01binary"} {
		_, err := config.Parse([]byte(doc))
		if !errors.Is(err, toolcall.ErrInvalidConfig) {
			t.Errorf("Parse(%q) err = %v", doc, err)
		}
	}
	_, err := config.Load(filepath.Join(t.TempDir(), "missing.yml"))
	if !errors.Is(err, toolcall.ErrInvalidConfig) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	path := filepath.Join(t.TempDir(), "c.yml")
	if err := os.WriteFile(path, []byte("max_retries: 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Load(path); err == nil || !strings.Contains(err.Error(), path+": max_retries: 0 is out of range") {
		t.Errorf("Load error does not name the file and key: %v", err)
	}
}

func TestValidateGoConfig(t *testing.T) {
	c := config.Default()
	c.TransportRetries = -1
	err := c.Validate()
	if !errors.Is(err, toolcall.ErrInvalidConfig) || !strings.Contains(err.Error(), "transport_retries: -1 is out of range 0–10") {
		t.Errorf("err = %v", err)
	}
	c = config.Default()
	c.RepairTimeout = 0
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "repair_timeout_ms") {
		t.Errorf("err = %v", err)
	}
}

// docs/configuration.md documents every key, its full example parses to
// the defaults, and it shows the default template as it is.
func TestConfigurationDoc(t *testing.T) {
	doc, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	block := func(lang string) string {
		start := strings.Index(text, "```"+lang+"\n")
		if start < 0 {
			t.Fatalf("no %s block", lang)
		}
		rest := text[start+len(lang)+4:]
		return rest[:strings.Index(rest, "```")]
	}
	c, err := config.Parse([]byte(block("yaml")))
	if err != nil {
		t.Fatalf("the documented example does not load: %v", err)
	}
	c.RetryPromptTemplate = config.DefaultRetryPromptTemplate
	if !reflect.DeepEqual(c, config.Default()) {
		t.Errorf("the documented example is not the defaults:\n%+v", c)
	}
	if got := strings.TrimSuffix(block("text"), "\n"); got != config.DefaultRetryPromptTemplate {
		t.Errorf("documented default template:\n%s\nwant:\n%s", got, config.DefaultRetryPromptTemplate)
	}
	_, err = config.Parse([]byte("tool_call:\n  no_such_key: 1\n"))
	known := err.Error()[strings.Index(err.Error(), "(known: ")+len("(known: "):]
	for _, key := range strings.Split(strings.TrimSuffix(known, ")"), ", ") {
		if !strings.Contains(text, "| `"+key+"` |") {
			t.Errorf("docs/configuration.md does not document %s", key)
		}
	}
	for _, p := range retry.Placeholders() {
		if !strings.Contains(text, "{"+p+"}") {
			t.Errorf("docs/configuration.md does not document {%s}", p)
		}
	}
}
