package config

import (
	"os"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/dialectkit/toolcall"
)

// Source says where a setting's effective value came from.
type Source string

// The sources of a setting, weakest first: each overrides the ones before.
const (
	SourceDefault Source = "default"
	SourceFile    Source = "file"
	SourceEnv     Source = "environment"
	SourceFlag    Source = "flag"
)

// EnvPrefix starts the environment variables that set a setting: the
// setting's key in upper case after it (DIALECTKIT_TOOL_CALL_MAX_RETRIES=5).
// Their values are read as YAML scalars, like the file's.
const EnvPrefix = "DIALECTKIT_TOOL_CALL_"

// EnvVar is the environment variable of a setting key.
func EnvVar(key string) string { return EnvPrefix + strings.ToUpper(key) }

// Setting is one setting's effective value and where it came from.
type Setting struct {
	// Key is the setting's key (max_retries).
	Key string `json:"key"`
	// Value is the value as YAML would write it: a number, a boolean, a
	// string; durations in milliseconds, as their _ms keys say.
	Value any `json:"value"`
	// Source is where the value came from, and From names it: the file's
	// path and the key inside it, the environment variable, the flag.
	Source Source `json:"source"`
	From   string `json:"from,omitempty"`
}

// Resolve builds the effective configuration and says where each value
// came from: the defaults; then the file at path (if path is not empty),
// read as LoadFor reads it for provider; then the environment variables
// EnvVar(key), found through lookup (os.LookupEnv; nil reads none); then
// overrides, "key=value" pairs given as flags. The result is validated as
// a whole; a bad value is a TLP-024 error naming its key and source.
func Resolve(path, provider string, lookup func(string) (string, bool), overrides []string) (Config, []Setting, error) {
	cfg := Default()
	sources := map[string]Setting{}
	if path != "" {
		var err error
		if cfg, err = LoadFor(path, provider); err != nil {
			return Config{}, nil, err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return Config{}, nil, toolcall.Errorf(toolcall.CodeInvalidConfig, err, "cannot read configuration file "+path)
		}
		var doc any
		if yaml.Unmarshal(data, &doc) == nil {
			if root, ok := doc.(map[string]any); ok {
				if section, prefix, err := locateSection(root, provider); err == nil {
					for k, v := range section {
						if v != nil {
							sources[k] = Setting{Source: SourceFile, From: path + ": " + prefix + k}
						}
					}
				}
			}
		}
	}
	apply := func(key, text string, src Source, from string) error {
		s, ok := settingByKey(key)
		if !ok {
			return configError(from, "unknown setting "+key+" (known: "+strings.Join(settingKeys(), ", ")+")", nil)
		}
		var v any = text
		var parsed any
		if yaml.Unmarshal([]byte(text), &parsed) == nil {
			switch parsed.(type) {
			case string, bool, int, int64, uint64, float64:
				v = parsed
			}
		}
		if msg := s.set(&cfg, v); msg != "" {
			return configError(from, msg, nil)
		}
		sources[key] = Setting{Source: src, From: from}
		return nil
	}
	if lookup != nil {
		for _, s := range settings {
			if text, ok := lookup(EnvVar(s.key)); ok {
				if err := apply(s.key, text, SourceEnv, EnvVar(s.key)); err != nil {
					return Config{}, nil, err
				}
			}
		}
	}
	for _, o := range overrides {
		key, text, ok := strings.Cut(o, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return Config{}, nil, configError(o, "expected KEY=VALUE", nil)
		}
		if err := apply(key, text, SourceFlag, "--set "+key); err != nil {
			return Config{}, nil, err
		}
	}
	for _, s := range settings {
		if msg := s.check(&cfg); msg != "" {
			from := s.key
			if src, ok := sources[s.key]; ok {
				from = src.From
			}
			return Config{}, nil, configError(from, msg, nil)
		}
	}
	out := make([]Setting, 0, len(settings))
	for _, s := range settings {
		st, ok := sources[s.key]
		if !ok {
			st = Setting{Source: SourceDefault}
		}
		st.Key = s.key
		st.Value = cfg.value(s.key)
		out = append(out, st)
	}
	return cfg, out, nil
}

// value returns a setting's value as YAML would write it.
func (c *Config) value(key string) any {
	ms := func(d time.Duration) int64 { return d.Milliseconds() }
	switch key {
	case "max_retries":
		return c.MaxRetries
	case "retry_delay_ms":
		return ms(c.RetryDelay)
	case "enable_auto_repair":
		return c.EnableAutoRepair
	case "repair_timeout_ms":
		return ms(c.RepairTimeout)
	case "strict_validation":
		return c.StrictValidation
	case "coerce_types":
		return c.CoerceTypes
	case "max_nesting_depth":
		return c.MaxNestingDepth
	case "max_argument_size":
		return c.MaxArgumentSize
	case "log_repair_details":
		return c.LogRepairDetails
	case "log_argument_values":
		return c.LogArgumentValues
	case "retry_prompt_template":
		return c.RetryPromptTemplate
	case "require_tool_call":
		return c.RequireToolCall
	case "dialect":
		return c.Dialect
	case "model_http_retries":
		return c.ModelHTTPRetries
	case "model_http_retry_delay_ms":
		return ms(c.ModelHTTPRetryDelay)
	case "transport_retries":
		return c.TransportRetries
	case "backoff_initial_ms":
		return ms(c.Backoff.Initial)
	case "backoff_max_ms":
		return ms(c.Backoff.Max)
	case "backoff_multiplier":
		return c.Backoff.Multiplier
	case "backoff_jitter":
		return c.Backoff.Jitter
	case "idle_timeout_ms":
		return ms(c.IdleTimeout)
	case "max_retry_after_ms":
		return ms(c.MaxRetryAfter)
	case "max_reflected_calls":
		return c.MaxReflectedCalls
	case "max_reflected_excerpt":
		return c.MaxReflectedExcerpt
	case "max_reflected_content":
		return c.MaxReflectedContent
	case "on_truncation":
		return c.OnTruncation
	case "truncation_retries":
		return c.TruncationRetries
	case "max_tokens_cap":
		return c.MaxTokensCap
	case "circuit_breaker_threshold":
		return c.BreakerThreshold
	case "circuit_breaker_cooldown_ms":
		return ms(c.BreakerCooldown)
	}
	return nil
}
