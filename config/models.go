package config

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// ModelsKey is the key, inside a tool_call section, of the settings of
// named models: a mapping from a model name (or a pattern with *) to the
// settings that differ for it. An entry overrides the section's values
// key by key; the keys it does not set keep the section's.
//
//	tool_call:
//	  max_retries: 2            # every model
//	  models:
//	    "qwen3:8b":
//	      dialect: hermes
//	      fallback: [json]
//	    "llama3.2*":
//	      dialect: pythonic
const ModelsKey = "models"

// ServeKey is the top-level key of the settings of dialect-probe serve
// (see Serve). It may stand beside any of the three shapes of a file.
const ServeKey = "serve"

// unknownSetting is the message for a key that is not a setting.
func unknownSetting() string {
	return "unknown setting (known: " + strings.Join(settingKeys(), ", ") + ", " + ModelsKey + ")"
}

// bareSettings is a file of bare settings without its serve mapping.
func bareSettings(root map[string]any) map[string]any {
	if _, ok := root[ServeKey]; !ok {
		return root
	}
	out := make(map[string]any, len(root))
	for k, v := range root {
		if k != ServeKey {
			out[k] = v
		}
	}
	return out
}

// fallbackSetting reads the fallback dialects: a sequence of names, or
// one string of names separated by commas (as an environment variable or
// a flag gives it).
func fallbackSetting() setting {
	check := func(names []string) string {
		for i, n := range names {
			if n == "" {
				return fmt.Sprintf("entry %d is empty", i)
			}
			if slices.Contains(names[:i], n) {
				return fmt.Sprintf("%q is listed twice", n)
			}
		}
		return ""
	}
	return setting{
		key: "fallback",
		set: func(c *Config, v any) string {
			var names []string
			switch x := v.(type) {
			case string:
				for n := range strings.SplitSeq(x, ",") {
					if n = strings.TrimSpace(n); n != "" {
						names = append(names, n)
					}
				}
			case []any:
				for i, e := range x {
					s, ok := e.(string)
					if !ok {
						return fmt.Sprintf("entry %d: expected a dialect name, got %s", i, yamlKind(e))
					}
					names = append(names, strings.TrimSpace(s))
				}
			default:
				return "expected a sequence of dialect names, got " + yamlKind(v)
			}
			if msg := check(names); msg != "" {
				return msg
			}
			c.Fallback = names
			return ""
		},
		check: func(c *Config) string { return check(c.Fallback) },
	}
}

// modelEntry is one entry of a models mapping: the settings it sets, in
// the file's order of keys (sorted), with where each came from.
type modelEntry struct {
	pattern string
	values  map[string]any
	prefix  string // the full key of the entry, with a dot
}

// parseModelEntries reads a models mapping and checks every key of every
// entry: a key that is not a setting, or a value of the wrong type or out
// of range, is a TLP-024 error naming it.
func parseModelEntries(v any, key string) ([]modelEntry, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, configError(key, "expected a mapping of model names to settings, got "+yamlKind(v), nil)
	}
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	entries := make([]modelEntry, 0, len(names))
	for _, name := range names {
		prefix := key + "." + name + "."
		if strings.TrimSpace(name) == "" || strings.Trim(name, "*") == "" {
			return nil, configError(key+"."+name, "a model name must have a character other than * and spaces", nil)
		}
		e := modelEntry{pattern: name, values: map[string]any{}, prefix: prefix}
		if m[name] != nil {
			settings, ok := m[name].(map[string]any)
			if !ok {
				return nil, configError(key+"."+name, "expected a mapping of settings, got "+yamlKind(m[name]), nil)
			}
			for k, val := range settings {
				s, ok := settingByKey(k)
				if !ok {
					return nil, configError(prefix+k, "unknown setting (known: "+strings.Join(settingKeys(), ", ")+")", nil)
				}
				if val == nil {
					continue
				}
				probe := Default()
				if msg := s.set(&probe, val); msg != "" {
					return nil, configError(prefix+k, msg, nil)
				}
				e.values[k] = val
			}
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// matchModel reports whether a model name matches an entry's pattern, and
// how specific the match is (higher wins). An exact name is the most
// specific; Ollama's implicit tag counts as exact ("qwen3" and
// "qwen3:latest" name the same model); in a pattern, * stands for any
// run of characters, and more literal characters make a closer match.
func matchModel(pattern, model string) (int, bool) {
	if model == "" {
		return 0, false
	}
	if pattern == model || withTag(pattern) == withTag(model) {
		return 1 << 30, true
	}
	if !strings.Contains(pattern, "*") || !wildcard(pattern, model) {
		return 0, false
	}
	return len(strings.ReplaceAll(pattern, "*", "")), true
}

// withTag adds Ollama's default tag to a model name that has none.
func withTag(name string) string {
	if i := strings.LastIndexAny(name, ":/"); i >= 0 && name[i] == ':' {
		return name
	}
	return name + ":latest"
}

// wildcard matches s against a pattern where * is any run of characters
// (slashes included: hf.co/org/model names have them), in linear time for
// the patterns of a configuration file.
func wildcard(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, last)
}

// bestEntry returns the entry that matches model most closely; among
// equally close patterns, the first in key order.
func bestEntry(entries []modelEntry, model string) (modelEntry, bool) {
	best, bestScore, found := modelEntry{}, -1, false
	for _, e := range entries {
		if score, ok := matchModel(e.pattern, model); ok && score > bestScore {
			best, bestScore, found = e, score, true
		}
	}
	return best, found
}

// Models holds the effective settings of every model a file names, and of
// the others: what ResolveModels builds. It is safe for concurrent use.
type Models struct {
	base    resolved
	entries []resolved
	raw     []modelEntry
}

// resolved is a configuration and where each of its values came from.
type resolved struct {
	pattern  string
	cfg      Config
	settings []Setting
}

// Default returns the settings of a model no entry names: the section's.
func (m *Models) Default() Config { return m.base.cfg }

// DefaultSettings is Default with where each value came from.
func (m *Models) DefaultSettings() []Setting { return slices.Clone(m.base.settings) }

// Patterns lists the model names and patterns of the entries, in key
// order.
func (m *Models) Patterns() []string {
	out := make([]string, len(m.entries))
	for i, e := range m.entries {
		out[i] = e.pattern
	}
	return out
}

// For returns the settings of a model by the name a request gives, and
// the entry that gave them; ok is false when no entry matches (the
// section's settings, Default, apply).
func (m *Models) For(model string) (cfg Config, pattern string, ok bool) {
	r, ok := m.lookup(model)
	return r.cfg, r.pattern, ok
}

// Settings is For with where each value came from.
func (m *Models) Settings(model string) []Setting {
	r, _ := m.lookup(model)
	return slices.Clone(r.settings)
}

func (m *Models) lookup(model string) (resolved, bool) {
	e, ok := bestEntry(m.raw, model)
	if !ok {
		return m.base, false
	}
	i := slices.IndexFunc(m.entries, func(r resolved) bool { return r.pattern == e.pattern })
	return m.entries[i], true
}

// SourceOf returns where the setting key's value came from in settings.
func SourceOf(settings []Setting, key string) Source {
	for _, s := range settings {
		if s.Key == key {
			return cmp.Or(s.Source, SourceDefault)
		}
	}
	return SourceDefault
}
