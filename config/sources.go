package config

import (
	"os"
	"slices"
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
// a whole; a bad value is a TLP-024 error naming its key and source. The
// file's models entries are not applied: ResolveModel applies the one of a
// model.
func Resolve(path, provider string, lookup func(string) (string, bool), overrides []string) (Config, []Setting, error) {
	return ResolveModel(path, provider, "", lookup, overrides)
}

// ResolveModel is Resolve for one model: the entry of the section's models
// mapping that names it (see ModelsKey) applies over the section's values,
// under the environment and the overrides. An empty model, or one no entry
// names, gets what Resolve gives.
func ResolveModel(path, provider, model string, lookup func(string) (string, bool), overrides []string) (Config, []Setting, error) {
	ms, err := ResolveModels(path, provider, lookup, overrides)
	if err != nil {
		return Config{}, nil, err
	}
	r, _ := ms.lookup(model)
	return r.cfg, slices.Clone(r.settings), nil
}

// ResolveModels builds the effective configuration of every model the
// file's models mapping names, and of all the others, as ResolveModel
// does, and checks each of them: a file whose entry makes a combination
// out of range fails here, before any request.
func ResolveModels(path, provider string, lookup func(string) (string, bool), overrides []string) (*Models, error) {
	var data []byte
	if path != "" {
		if _, err := LoadFor(path, provider); err != nil {
			return nil, err
		}
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return nil, toolcall.Errorf(toolcall.CodeInvalidConfig, err, "cannot read configuration file "+path)
		}
	}
	return resolveModels(data, path, provider, lookup, overrides)
}

// ParseModels reads the settings of every model from YAML, as
// ResolveModels reads a file, without the environment or overrides.
func ParseModels(data []byte, provider string) (*Models, error) {
	if _, err := ParseFor(data, provider); err != nil {
		return nil, err
	}
	return resolveModels(data, "", provider, nil, nil)
}

// resolveModels is ResolveModels once the file, already checked, is read.
func resolveModels(data []byte, path, provider string, lookup func(string) (string, bool), overrides []string) (*Models, error) {
	var section map[string]any
	var prefix string
	var entries []modelEntry
	fileKey := func(key string) string {
		if path == "" {
			return key
		}
		return path + ": " + key
	}
	if len(data) > 0 {
		var err error
		var doc any
		if yaml.Unmarshal(data, &doc) == nil {
			if root, ok := doc.(map[string]any); ok {
				section, prefix, _ = locateSection(root, provider)
			}
		}
		if section != nil {
			if entries, err = parseModelEntries(section[ModelsKey], prefix+ModelsKey); err != nil {
				return nil, err
			}
		}
	}
	type value struct {
		key  string
		v    any
		src  Source
		from string
	}
	var late []value
	scalar := func(text string) any {
		var parsed any
		if yaml.Unmarshal([]byte(text), &parsed) == nil {
			switch parsed.(type) {
			case string, bool, int, int64, uint64, float64:
				return parsed
			}
		}
		return text
	}
	if lookup != nil {
		for _, s := range settings {
			if text, ok := lookup(EnvVar(s.key)); ok {
				late = append(late, value{s.key, scalar(text), SourceEnv, EnvVar(s.key)})
			}
		}
	}
	for _, o := range overrides {
		key, text, ok := strings.Cut(o, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return nil, configError(o, "expected KEY=VALUE", nil)
		}
		if _, ok := settingByKey(key); !ok {
			return nil, configError("--set "+key, "unknown setting "+key+" (known: "+strings.Join(settingKeys(), ", ")+")", nil)
		}
		late = append(late, value{key, scalar(text), SourceFlag, "--set " + key})
	}
	build := func(entry *modelEntry) (resolved, error) {
		cfg := Default()
		sources := map[string]Setting{}
		apply := func(key string, v any, src Source, from string) error {
			s, _ := settingByKey(key)
			if msg := s.set(&cfg, v); msg != "" {
				return configError(from, msg, nil)
			}
			sources[key] = Setting{Source: src, From: from}
			return nil
		}
		var vals []value
		for _, k := range sortedKeys(section) {
			if k != ModelsKey && section[k] != nil {
				vals = append(vals, value{k, section[k], SourceFile, fileKey(prefix + k)})
			}
		}
		if entry != nil {
			for _, k := range sortedKeys(entry.values) {
				vals = append(vals, value{k, entry.values[k], SourceFile, fileKey(entry.prefix + k)})
			}
		}
		for _, v := range append(vals, late...) {
			if err := apply(v.key, v.v, v.src, v.from); err != nil {
				return resolved{}, err
			}
		}
		for _, s := range settings {
			if msg := s.check(&cfg); msg != "" {
				from := s.key
				if src, ok := sources[s.key]; ok {
					from = src.From
				}
				return resolved{}, configError(from, msg, nil)
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
		r := resolved{cfg: cfg, settings: out}
		if entry != nil {
			r.pattern = entry.pattern
		}
		return r, nil
	}
	base, err := build(nil)
	if err != nil {
		return nil, err
	}
	ms := &Models{base: base, raw: entries}
	for i := range entries {
		r, err := build(&entries[i])
		if err != nil {
			return nil, err
		}
		ms.entries = append(ms.entries, r)
	}
	return ms, nil
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
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
	case "fallback":
		return append([]string{}, c.Fallback...)
	case "reasoning":
		return c.Reasoning
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
