// Package config holds the settings of tool call handling: the reflection
// loop's retries, repair and validation, logging, the transport and
// truncation policies and the circuit breaker. Load reads them from YAML,
// the tool_call section of an agent configuration file; both package retry
// and the dialect-probe command read them from here.
package config

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/lenient"
	"github.com/dialectkit/toolcall/schema"
)

// AgentPath is where agents keep their configuration, relative to the
// project root. Load reads the tool_call settings from it under
// Section.
const AgentPath = ".agent/config.yml"

// Section is the path of the tool_call settings inside an agent
// configuration file, under the Ollama provider: SectionFor(ProviderOllama).
const Section = "model.providers.ollama.tool_call"

// The providers an agent configuration keeps tool_call settings under:
// model.providers.<provider>.tool_call.
const (
	// ProviderOllama is Ollama's native API.
	ProviderOllama = "ollama"
	// ProviderOpenAI is an OpenAI-compatible server (llama.cpp, vLLM, LM
	// Studio).
	ProviderOpenAI = "openai"
)

// Providers are the provider sections Parse looks for, in order.
var providers = []string{ProviderOllama, ProviderOpenAI}

// SectionFor is the path of the tool_call settings of a provider inside an
// agent configuration file: model.providers.<provider>.tool_call.
func SectionFor(provider string) string { return "model.providers." + provider + ".tool_call" }

// What to do with an answer that stopped for length (Config.OnTruncation).
const (
	// TruncationMoreTokens asks again with a larger output budget
	// (Request.MaxTokens doubled, up to Config.MaxTokensCap); when the cap is
	// reached it asks for a shorter answer instead.
	TruncationMoreTokens = "more_tokens"
	// TruncationShorter asks the model for a shorter answer.
	TruncationShorter = "shorter"
	// TruncationFail returns the truncation error (TLP-014) at once.
	TruncationFail = "fail"
)

// Where a model's output starts (Config.Reasoning).
const (
	// ReasoningAuto lets the chat template say, and without one the
	// output's first reasoning tag; the empty string means the same.
	ReasoningAuto = "auto"
	// ReasoningOpen says the template opened a reasoning block: the output
	// starts inside it, up to the first closing tag.
	ReasoningOpen = "open"
	// ReasoningClosed says the output starts outside reasoning: a closing
	// tag with no opening one is text.
	ReasoningClosed = "closed"
)

// DefaultRetryPromptTemplate is the text sent back as a failed call's tool
// result. Placeholders are replaced as plain text (see RenderReflection); a
// line whose placeholders all come out empty is left out.
const DefaultRetryPromptTemplate = `Your call to "{tool_name}" failed with {error_code}: {error_message}
Field: {field_path}
Expected: {expected}, got: {actual}
Missing required fields: {missing_fields}
{violations}
Valid tool names: {valid_tools}
Did you mean "{suggestion}"?
Error position: {error_position}
What you wrote: {malformed_json}
{format_note}
A correct call in your format ({dialect}):
{schema_example}
Fix this call and make it again. Calls without an error were accepted: do not repeat them.`

// Config holds the settings of the reflection loop, of repair and
// validation, of logging, and of the transport and truncation policies.
// Start from Default; Validate reports a value out of range as a
// TLP-024 error naming its key. Durations are whole milliseconds in YAML
// (the keys end in _ms).
type Config struct {
	// MaxRetries is how many times a turn with failed calls is reflected
	// back to the model (max_retries, 1–10). A run makes at most
	// 1+MaxRetries reflection attempts.
	MaxRetries int
	// RetryDelay is the pause before each reflection attempt
	// (retry_delay_ms).
	RetryDelay time.Duration
	// EnableAutoRepair runs the lenient repair pipeline on arguments that
	// are not valid JSON (enable_auto_repair); off, they must be strict JSON.
	EnableAutoRepair bool
	// RepairTimeout is the time budget of one repair (repair_timeout_ms).
	RepairTimeout time.Duration
	// StrictValidation rejects properties a schema does not declare even
	// when it does not say additionalProperties: false (strict_validation;
	// off by default: validation follows JSON Schema, and a tool declared
	// with OpenAI's "strict": true is strict either way).
	StrictValidation bool
	// CoerceTypes converts values toward the schema ("5" → 5) and records
	// each change (coerce_types). Risky coercions are never applied.
	CoerceTypes bool
	// MaxNestingDepth is the deepest nesting accepted in arguments
	// (max_nesting_depth).
	MaxNestingDepth int
	// MaxArgumentSize is the largest arguments text accepted, in bytes
	// (max_argument_size).
	MaxArgumentSize int
	// LogRepairDetails logs each repair (kind, offset) at DEBUG
	// (log_repair_details).
	LogRepairDetails bool
	// LogArgumentValues logs argument values, secrets redacted, at DEBUG
	// (log_argument_values). Values never appear at other levels.
	LogArgumentValues bool
	// RetryPromptTemplate is the text of a failed call's tool result
	// (retry_prompt_template); see DefaultRetryPromptTemplate.
	RetryPromptTemplate string
	// RequireToolCall treats an answer without any tool call as a failure
	// to reflect, as tool_choice "required" would (require_tool_call).
	RequireToolCall bool
	// Dialect names the text dialect the model writes (dialect); empty
	// means detect it. It is used when the Loop's parse options name none.
	Dialect string
	// Fallback names the dialects to try, in order, when Dialect finds no
	// call and no error (fallback; registry.Options.Fallback).
	// It is used with Dialect, when the Loop's parse options name neither.
	Fallback []string
	// Reasoning says where the model's output starts (reasoning):
	// ReasoningOpen inside a reasoning block its chat template opened,
	// ReasoningClosed outside any; empty or ReasoningAuto lets the chat
	// template decide, and without one the output's own bytes. The proxy
	// (dialect-probe serve) reads it; it wins over the template.
	Reasoning string

	// ModelHTTPRetries is how many times a request the server rejected
	// with HTTP 400 is answered by telling the model and asking again
	// (model_http_retries, 0–10).
	ModelHTTPRetries int
	// ModelHTTPRetryDelay is the pause before such a request
	// (model_http_retry_delay_ms).
	ModelHTTPRetryDelay time.Duration
	// TransportRetries is how many times in one run a request that failed
	// in transport (network, 408, 429, 5xx) is repeated after a wait
	// (transport_retries, 0–10). It is a budget of its own.
	TransportRetries int
	// Backoff sets the waits between transport retries
	// (backoff_initial_ms, backoff_max_ms, backoff_multiplier,
	// backoff_jitter).
	Backoff Backoff
	// IdleTimeout ends a request whose server sends nothing for this long
	// (idle_timeout_ms, 0–3600000; 0 turns it off): no answer headers, or
	// no byte between two reads of the answer. It is a transport failure,
	// repeated on the transport budget, not a wait for the whole run.
	IdleTimeout time.Duration
	// MaxRetryAfter is the longest Retry-After honoured
	// (max_retry_after_ms); a server asking for a longer wait ends the run.
	MaxRetryAfter time.Duration

	// MaxReflectedCalls is the most failed calls (and problems that belong
	// to no call) one re-ask reflects back, and the most valid calls it
	// echoes (max_reflected_calls, 1–1000). The others are counted in one
	// note, so that an answer of thousands of broken calls cannot make a
	// request thousands of times its size.
	MaxReflectedCalls int
	// MaxReflectedExcerpt is the most characters of a failed call's text
	// quoted back to the model (max_reflected_excerpt, 0–100000).
	MaxReflectedExcerpt int
	// MaxReflectedContent is the most bytes of the answer's text around the
	// calls echoed back in a re-ask (max_reflected_content, 0–16777216);
	// past it the text is cut with a note of how much was left out.
	MaxReflectedContent int

	// OnTruncation is what to do with an answer that stopped for length
	// (on_truncation): TruncationMoreTokens, TruncationShorter or
	// TruncationFail.
	OnTruncation string
	// TruncationRetries is how many truncated answers one run recovers
	// from (truncation_retries, 0–10).
	TruncationRetries int
	// MaxTokensCap bounds the raised output budget (max_tokens_cap).
	MaxTokensCap int

	// BreakerThreshold is how many failed runs in a row open the circuit
	// breaker for a model (circuit_breaker_threshold); 0 disables it.
	BreakerThreshold int
	// BreakerCooldown is how long an open breaker refuses runs before it
	// lets one probe through (circuit_breaker_cooldown_ms).
	BreakerCooldown time.Duration
}

// Default returns the default settings: those a retry.Loop whose Config is
// nil runs with, recovery on (max_retries 3). The zero Config is not the
// defaults (repair off, every limit 0) and does not validate: start from
// Default. The proxy's default (proxy.DefaultConfig, what a zero
// proxy.Options.Config means) is Default with recovery off.
func Default() Config {
	return Config{
		MaxRetries:          3,
		RetryDelay:          100 * time.Millisecond,
		EnableAutoRepair:    true,
		RepairTimeout:       lenient.DefaultTimeout,
		StrictValidation:    false,
		MaxNestingDepth:     lenient.DefaultMaxDepth,
		MaxArgumentSize:     lenient.DefaultMaxSize,
		LogRepairDetails:    true,
		RetryPromptTemplate: DefaultRetryPromptTemplate,
		ModelHTTPRetries:    2,
		ModelHTTPRetryDelay: 500 * time.Millisecond,
		TransportRetries:    3,
		Backoff:             DefaultBackoff(),
		IdleTimeout:         60 * time.Second,
		MaxRetryAfter:       60 * time.Second,
		MaxReflectedCalls:   8,
		MaxReflectedExcerpt: 500,
		MaxReflectedContent: 16 << 10,
		OnTruncation:        TruncationMoreTokens,
		TruncationRetries:   2,
		MaxTokensCap:        32768,
		BreakerThreshold:    5,
		BreakerCooldown:     30 * time.Second,
	}
}

// DialectOptions maps the configuration onto the options of a parse:
// repair on or off, its time, depth and size limits, and validation.
func (c *Config) DialectOptions(tools *schema.Set) dialects.Options {
	return dialects.Options{
		Tools:         tools,
		Lenient:       c.LenientOptions(),
		DisableRepair: !c.EnableAutoRepair,
		Validation:    c.SchemaOptions(),
	}
}

// LenientOptions maps the configuration onto the repair pipeline's limits.
func (c *Config) LenientOptions() lenient.Options {
	return lenient.Options{MaxSize: c.MaxArgumentSize, MaxDepth: c.MaxNestingDepth, Timeout: c.RepairTimeout}
}

// SchemaOptions maps the configuration onto validation options.
func (c *Config) SchemaOptions() schema.Options {
	return schema.Options{Strict: c.StrictValidation, Coerce: c.CoerceTypes}
}

// Validate reports the first setting out of range as a TLP-024 error
// naming its key.
func (c *Config) Validate() error { return c.validate("") }

func (c *Config) validate(prefix string) error {
	for _, s := range settings {
		if msg := s.check(c); msg != "" {
			return configError(prefix+s.key, msg, nil)
		}
	}
	return nil
}

func configError(key, msg string, cause error) *toolcall.Error {
	return toolcall.Errorf(toolcall.CodeInvalidConfig, cause, key+": "+msg)
}

// Load reads the settings from a YAML file: an agent configuration
// holding them under a provider's section (Section, or the openai
// provider's when there is no ollama one), a file with a top-level
// tool_call mapping, or a file of bare settings. Settings it does not
// mention keep their defaults.
func Load(path string) (Config, error) { return LoadFor(path, "") }

// LoadFor reads the settings as Load does, from the section of the given
// provider (ProviderOllama, ProviderOpenAI) when the file is an agent
// configuration that has one; a file with the section of one provider
// only serves every provider.
func LoadFor(path, provider string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, toolcall.Errorf(toolcall.CodeInvalidConfig, err, "cannot read configuration file "+path)
	}
	cfg, err := ParseFor(data, provider)
	if err != nil {
		if te, ok := err.(*toolcall.Error); ok {
			te.Message = path + ": " + te.Message
		}
		return Config{}, err
	}
	return cfg, nil
}

// Parse reads the settings from YAML, as Load does. An unknown
// key, a value of the wrong type or out of range is a TLP-024 error naming
// the full key (model.providers.ollama.tool_call.max_retries), and so is a
// document none of whose keys is known (every key a typo).
func Parse(data []byte) (Config, error) { return ParseFor(data, "") }

// ParseFor reads the settings from YAML, as LoadFor does.
func ParseFor(data []byte, provider string) (Config, error) {
	cfg := Default()
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Config{}, toolcall.Errorf(toolcall.CodeInvalidConfig, err, "configuration is not valid YAML: "+firstLine(err.Error()))
	}
	if doc == nil {
		return cfg, nil
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return Config{}, configError("(document)", "expected a mapping", nil)
	}
	section, prefix, err := locateSection(root, provider)
	if err != nil {
		return Config{}, err
	}
	if section == nil {
		return cfg, nil
	}
	keys := make([]string, 0, len(section))
	for k := range section {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k == ModelsKey {
			if _, err := parseModelEntries(section[k], prefix+k); err != nil {
				return Config{}, err
			}
			continue
		}
		s, ok := settingByKey(k)
		if !ok {
			return Config{}, configError(prefix+k, unknownSetting(), nil)
		}
		if section[k] == nil {
			continue // "key:" with no value keeps the default
		}
		if msg := s.set(&cfg, section[k]); msg != "" {
			return Config{}, configError(prefix+k, msg, nil)
		}
	}
	if err := cfg.validate(prefix); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// locateSection finds the settings mapping in a document and the key prefix
// that names it. An agent configuration (a top-level "model") without a
// tool_call section has none: the defaults apply. Any other document must
// hold the settings: one whose keys are all unknown is an error naming
// them.
func locateSection(root map[string]any, provider string) (map[string]any, string, error) {
	if _, ok := root["model"]; ok {
		order := providers
		if provider != "" {
			order = append([]string{provider}, providers...)
		}
		for _, p := range order {
			section, prefix, err := agentSection(root, SectionFor(p))
			if section != nil || err != nil {
				return section, prefix, err
			}
		}
		return nil, "", nil
	}
	if v, ok := root["tool_call"]; ok {
		if v == nil {
			return nil, "", nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, "", configError("tool_call", "expected a mapping", nil)
		}
		return m, "tool_call.", nil
	}
	for k := range root {
		if _, ok := settingByKey(k); ok || k == ModelsKey {
			return bareSettings(root), "", nil
		}
	}
	if len(root) == 0 || (len(root) == 1 && root[ServeKey] != nil) {
		return nil, "", nil
	}
	keys := make([]string, 0, len(root))
	for k := range root {
		if k != ServeKey {
			keys = append(keys, strconv.Quote(k))
		}
	}
	slices.Sort(keys)
	return nil, "", configError("(document)", fmt.Sprintf("none of its keys is known: %s (settings: %s; or a tool_call mapping, or an agent configuration with %s)",
		strings.Join(keys, ", "), strings.Join(settingKeys(), ", "), SectionFor("<provider>")), nil)
}

// agentSection walks an agent configuration down path. A missing part
// means no section; a part that is not a mapping is an error.
func agentSection(root map[string]any, section string) (map[string]any, string, error) {
	cur := root
	path := ""
	for _, part := range strings.Split(section, ".") {
		path += part
		v, ok := cur[part]
		if !ok || v == nil {
			return nil, "", nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, "", configError(path, "expected a mapping", nil)
		}
		cur = m
		path += "."
	}
	return cur, path, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// setting is one configuration key: how to read it from YAML and how to
// check its range.
type setting struct {
	key   string
	set   func(c *Config, v any) string // "" or what is wrong with v
	check func(c *Config) string
}

func settingByKey(k string) (setting, bool) {
	for _, s := range settings {
		if s.key == k {
			return s, true
		}
	}
	return setting{}, false
}

func settingKeys() []string {
	keys := make([]string, len(settings))
	for i, s := range settings {
		keys[i] = s.key
	}
	return keys
}

// settings lists every key in documentation order.
var settings = []setting{
	intSetting("max_retries", func(c *Config) *int { return &c.MaxRetries }, 1, 10),
	msSetting("retry_delay_ms", func(c *Config) *time.Duration { return &c.RetryDelay }, 0, 60_000),
	boolSetting("enable_auto_repair", func(c *Config) *bool { return &c.EnableAutoRepair }),
	msSetting("repair_timeout_ms", func(c *Config) *time.Duration { return &c.RepairTimeout }, 1, 60_000),
	boolSetting("strict_validation", func(c *Config) *bool { return &c.StrictValidation }),
	boolSetting("coerce_types", func(c *Config) *bool { return &c.CoerceTypes }),
	intSetting("max_nesting_depth", func(c *Config) *int { return &c.MaxNestingDepth }, 1, 10_000),
	intSetting("max_argument_size", func(c *Config) *int { return &c.MaxArgumentSize }, 1, 64<<20),
	boolSetting("log_repair_details", func(c *Config) *bool { return &c.LogRepairDetails }),
	boolSetting("log_argument_values", func(c *Config) *bool { return &c.LogArgumentValues }),
	stringSetting("retry_prompt_template", func(c *Config) *string { return &c.RetryPromptTemplate }, nil, false),
	boolSetting("require_tool_call", func(c *Config) *bool { return &c.RequireToolCall }),
	stringSetting("dialect", func(c *Config) *string { return &c.Dialect }, nil, true),
	fallbackSetting(),
	stringSetting("reasoning", func(c *Config) *string { return &c.Reasoning },
		[]string{ReasoningAuto, ReasoningOpen, ReasoningClosed}, true),
	intSetting("model_http_retries", func(c *Config) *int { return &c.ModelHTTPRetries }, 0, 10),
	msSetting("model_http_retry_delay_ms", func(c *Config) *time.Duration { return &c.ModelHTTPRetryDelay }, 0, 60_000),
	intSetting("transport_retries", func(c *Config) *int { return &c.TransportRetries }, 0, 10),
	msSetting("backoff_initial_ms", func(c *Config) *time.Duration { return &c.Backoff.Initial }, 1, 600_000),
	{
		key: "backoff_max_ms",
		set: msSetting("backoff_max_ms", func(c *Config) *time.Duration { return &c.Backoff.Max }, 1, 3_600_000).set,
		check: func(c *Config) string {
			if msg := checkMS(c.Backoff.Max, 1, 3_600_000); msg != "" {
				return msg
			}
			if c.Backoff.Max < c.Backoff.Initial {
				return fmt.Sprintf("%d is less than backoff_initial_ms (%d)", c.Backoff.Max.Milliseconds(), c.Backoff.Initial.Milliseconds())
			}
			return ""
		},
	},
	floatSetting("backoff_multiplier", func(c *Config) *float64 { return &c.Backoff.Multiplier }, 1, 10),
	floatSetting("backoff_jitter", func(c *Config) *float64 { return &c.Backoff.Jitter }, 0, 1),
	msSetting("idle_timeout_ms", func(c *Config) *time.Duration { return &c.IdleTimeout }, 0, 3_600_000),
	msSetting("max_retry_after_ms", func(c *Config) *time.Duration { return &c.MaxRetryAfter }, 0, 3_600_000),
	intSetting("max_reflected_calls", func(c *Config) *int { return &c.MaxReflectedCalls }, 1, 1000),
	intSetting("max_reflected_excerpt", func(c *Config) *int { return &c.MaxReflectedExcerpt }, 0, 100_000),
	intSetting("max_reflected_content", func(c *Config) *int { return &c.MaxReflectedContent }, 0, 16<<20),
	stringSetting("on_truncation", func(c *Config) *string { return &c.OnTruncation },
		[]string{TruncationMoreTokens, TruncationShorter, TruncationFail}, false),
	intSetting("truncation_retries", func(c *Config) *int { return &c.TruncationRetries }, 0, 10),
	intSetting("max_tokens_cap", func(c *Config) *int { return &c.MaxTokensCap }, 1, 10_000_000),
	intSetting("circuit_breaker_threshold", func(c *Config) *int { return &c.BreakerThreshold }, 0, 1000),
	msSetting("circuit_breaker_cooldown_ms", func(c *Config) *time.Duration { return &c.BreakerCooldown }, 1, 86_400_000),
}

func intSetting(key string, field func(*Config) *int, lo, hi int) setting {
	return setting{
		key: key,
		set: func(c *Config, v any) string {
			n, ok := yamlInt(v)
			if !ok {
				return "expected an integer, got " + yamlKind(v)
			}
			if n < int64(lo) || n > int64(hi) {
				return rangeMsg(fmt.Sprint(n), lo, hi)
			}
			*field(c) = int(n)
			return ""
		},
		check: func(c *Config) string {
			if n := *field(c); n < lo || n > hi {
				return rangeMsg(fmt.Sprint(n), lo, hi)
			}
			return ""
		},
	}
}

func msSetting(key string, field func(*Config) *time.Duration, lo, hi int64) setting {
	return setting{
		key: key,
		set: func(c *Config, v any) string {
			n, ok := yamlInt(v)
			if !ok {
				return "expected a whole number of milliseconds, got " + yamlKind(v)
			}
			if n < lo || n > hi {
				return rangeMsg(fmt.Sprint(n), lo, hi)
			}
			*field(c) = time.Duration(n) * time.Millisecond
			return ""
		},
		check: func(c *Config) string { return checkMS(*field(c), lo, hi) },
	}
}

func checkMS(d time.Duration, lo, hi int64) string {
	if d < time.Duration(lo)*time.Millisecond || d > time.Duration(hi)*time.Millisecond {
		return rangeMsg(fmt.Sprint(d.Milliseconds()), lo, hi)
	}
	return ""
}

func floatSetting(key string, field func(*Config) *float64, lo, hi float64) setting {
	check := func(f float64) string {
		if math.IsNaN(f) || f < lo || f > hi {
			return fmt.Sprintf("%g is out of range %g–%g", f, lo, hi)
		}
		return ""
	}
	return setting{
		key: key,
		set: func(c *Config, v any) string {
			var f float64
			switch x := v.(type) {
			case float64:
				f = x
			default:
				n, ok := yamlInt(v)
				if !ok {
					return "expected a number, got " + yamlKind(v)
				}
				f = float64(n)
			}
			if msg := check(f); msg != "" {
				return msg
			}
			*field(c) = f
			return ""
		},
		check: func(c *Config) string { return check(*field(c)) },
	}
}

func boolSetting(key string, field func(*Config) *bool) setting {
	return setting{
		key: key,
		set: func(c *Config, v any) string {
			b, ok := v.(bool)
			if !ok {
				return "expected true or false, got " + yamlKind(v)
			}
			*field(c) = b
			return ""
		},
		check: func(*Config) string { return "" },
	}
}

// stringSetting reads a string; allowed, when set, lists its only values.
func stringSetting(key string, field func(*Config) *string, allowed []string, emptyOK bool) setting {
	check := func(s string) string {
		if s == "" {
			if emptyOK {
				return ""
			}
			return "must not be empty"
		}
		if allowed != nil && !slices.Contains(allowed, s) {
			return fmt.Sprintf("%q is not one of %s", s, strings.Join(allowed, ", "))
		}
		return ""
	}
	return setting{
		key: key,
		set: func(c *Config, v any) string {
			s, ok := v.(string)
			if !ok {
				return "expected a string, got " + yamlKind(v)
			}
			if msg := check(s); msg != "" {
				return msg
			}
			*field(c) = s
			return ""
		},
		check: func(c *Config) string { return check(*field(c)) },
	}
}

func rangeMsg[T int | int64](v string, lo, hi T) string {
	return fmt.Sprintf("%s is out of range %d–%d", v, lo, hi)
}

// yamlInt reads an integer the YAML decoder produced (signed, unsigned, or a
// float with no fraction).
func yamlInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case uint64:
		if x > math.MaxInt64 {
			return 0, false
		}
		return int64(x), true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x), true
		}
	}
	return 0, false
}

// yamlKind names the type of a decoded YAML value, never the value itself.
func yamlKind(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case int, int64, uint64:
		return "an integer"
	case float64:
		return "a number"
	case []any:
		return "a sequence"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%T", v)
}
