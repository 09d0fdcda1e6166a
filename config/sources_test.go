package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/config"
)

func TestResolveSources(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yml")
	data := "model:\n  providers:\n    ollama:\n      tool_call:\n        max_retries: 5\n        coerce_types: true\n        transport_retries: 1\n"
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		config.EnvVar("transport_retries"): "4",
		config.EnvVar("dialect"):           "hermes",
		"UNRELATED":                        "x",
	}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cfg, settings, err := config.Resolve(path, "ollama", lookup, []string{"dialect=qwen3_coder", "backoff_jitter=0.5"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MaxRetries != 5 || !cfg.CoerceTypes || cfg.TransportRetries != 4 || cfg.Dialect != "qwen3_coder" || cfg.Backoff.Jitter != 0.5 {
		t.Errorf("config = %+v", cfg)
	}
	want := map[string]struct {
		value  any
		source config.Source
		from   string
	}{
		"max_retries":       {5, config.SourceFile, path + ": model.providers.ollama.tool_call.max_retries"},
		"coerce_types":      {true, config.SourceFile, path + ": model.providers.ollama.tool_call.coerce_types"},
		"transport_retries": {4, config.SourceEnv, "DIALECTKIT_TOOL_CALL_TRANSPORT_RETRIES"},
		"dialect":           {"qwen3_coder", config.SourceFlag, "--set dialect"},
		"backoff_jitter":    {0.5, config.SourceFlag, "--set backoff_jitter"},
		"retry_delay_ms":    {int64(100), config.SourceDefault, ""},
	}
	seen := 0
	for _, s := range settings {
		if s.Value == nil {
			t.Errorf("%s has no value", s.Key)
		}
		w, ok := want[s.Key]
		if !ok {
			if s.Source != config.SourceDefault {
				t.Errorf("%s: source %s, want default", s.Key, s.Source)
			}
			continue
		}
		seen++
		if s.Value != w.value || s.Source != w.source || s.From != w.from {
			t.Errorf("%s = %#v from %s (%s), want %#v from %s (%s)", s.Key, s.Value, s.Source, s.From, w.value, w.source, w.from)
		}
	}
	if seen != len(want) {
		t.Errorf("saw %d of %d settings", seen, len(want))
	}
	// Without a file and an environment, everything is a default.
	def, settings, err := config.Resolve("", "", nil, nil)
	if err != nil || def.MaxRetries != config.Default().MaxRetries {
		t.Fatal(err)
	}
	for _, s := range settings {
		if s.Source != config.SourceDefault {
			t.Errorf("%s: %s", s.Key, s.Source)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		env       map[string]string
		overrides []string
	}{
		"env out of range":    {env: map[string]string{config.EnvVar("max_retries"): "50"}},
		"env of wrong type":   {env: map[string]string{config.EnvVar("coerce_types"): "maybe"}},
		"flag unknown key":    {overrides: []string{"max_retrys=3"}},
		"flag without value":  {overrides: []string{"max_retries"}},
		"cross-key violation": {overrides: []string{"backoff_initial_ms=5000", "backoff_max_ms=100"}},
	} {
		lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		_, _, err := config.Resolve("", "", lookup, tc.overrides)
		if !errors.Is(err, toolcall.ErrInvalidConfig) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
