package probe

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/dialectkit/toolcall/config"
)

// How to use native tools (Recommendation.NativeTools).
const (
	// NativeUse: send the tools natively; calls arrive in tool_calls.
	NativeUse = "use"
	// NativeParseContent: send the tools natively, but the calls leak into
	// the text: parse the content with Dialect.
	NativeParseContent = "parse_content"
	// NativeOff: native tools work less well than tools in the system
	// prompt; present them in Dialect instead.
	NativeOff = "off"
	// NativeUnsupported: the server refuses native tools for the model.
	NativeUnsupported = "unsupported"
	// NativeUntested: the native phase was skipped.
	NativeUntested = "untested"
)

// Recommendation is what to configure for the model, from the mode that
// did best.
type Recommendation struct {
	// Summary is the recommendation in one line.
	Summary string `json:"summary"`
	// Mode is the mode it rests on: "native" or a prompted dialect; ""
	// when no mode produced a valid call.
	Mode string `json:"mode"`
	// NativeTools is NativeUse, NativeParseContent, NativeOff,
	// NativeUnsupported or NativeUntested.
	NativeTools string `json:"native_tools"`
	// Dialect is the dialect to parse text with (the config's dialect),
	// and Fallback the dialects to try after it (registry.Options.Fallback).
	Dialect  string   `json:"dialect"`
	Fallback []string `json:"fallback"`
	// PresentTools is "native" (the request's tools field) or
	// "system_prompt" (rendered in Dialect, as TextDialect does).
	PresentTools string `json:"present_tools"`
	// Settings of the retry loop.
	Repair            bool   `json:"enable_auto_repair"`
	CoerceTypes       bool   `json:"coerce_types"`
	MaxRetries        int    `json:"max_retries"`
	OnTruncation      string `json:"on_truncation,omitempty"`
	TruncationRetries int    `json:"truncation_retries,omitempty"`
	// MaxTokens is the output budget the answers needed, when the server's
	// default cut them off (Ollama num_predict, OpenAI max_tokens).
	MaxTokens int `json:"max_tokens,omitempty"`
	// Reasons say why, one finding per line.
	Reasons []string `json:"reasons"`
	// Config is the settings as a .agent/config.yml snippet.
	Config string `json:"config_yaml"`
}

// recommend chooses the mode that did best and turns its findings into
// settings.
func recommend(r *Report) Recommendation {
	rec := Recommendation{Repair: true, MaxRetries: 1, Fallback: []string{}, Reasons: []string{}}
	var native *ModeReport
	var prompted []*ModeReport
	for i := range r.Modes {
		m := &r.Modes[i]
		switch {
		case m.Mode == ModeNative && m.Unsupported == "":
			native = m
		case m.Mode == ModePrompted:
			prompted = append(prompted, m)
		}
	}
	slices.SortStableFunc(prompted, compareModes)
	switch {
	case len(r.Modes) == 0 || r.Modes[0].Mode != ModeNative:
		rec.NativeTools = NativeUntested
	case native == nil:
		rec.NativeTools = NativeUnsupported
		rec.Reasons = append(rec.Reasons, "native tools: "+r.Modes[0].Unsupported)
	}
	// Native tools win ties: they are the server's own path, and a
	// prompted mode must do better on outcomes, not only on how tidy the
	// arguments were, to be worth rewriting the conversation for.
	best := native
	if len(prompted) > 0 && (best == nil || compareOutcomes(prompted[0], native) < 0) {
		best = prompted[0]
	}
	if best == nil || best.Summary.SuccessRate == 0 {
		rec.Summary = "no way of asking produced the wanted calls: this model cannot be relied on for tool calls"
		rec.Reasons = append(rec.Reasons, "no mode ended right for any prompt")
		rec.Config = configYAML(r, &rec)
		return rec
	}
	rec.Mode = best.Name()
	if best == native {
		recommendNative(r, native, &rec)
	} else {
		rec.PresentTools, rec.Dialect = "system_prompt", best.Dialect
		if rec.NativeTools == "" {
			rec.NativeTools = NativeOff
			rec.Reasons = append(rec.Reasons, fmt.Sprintf("native tools: %s; tools in the system prompt in %s: %s — better",
				modeScore(native), best.Dialect, modeScore(best)))
		}
		rec.Reasons = append(rec.Reasons, fmt.Sprintf("present the tools in the system prompt in %s, with an example call, not in the request's tools field; %s",
			best.Dialect, modeScore(best)))
	}
	for _, m := range prompted {
		if len(rec.Fallback) < 2 && m.Dialect != rec.Dialect && m.Summary.SuccessRate >= 0.5 {
			rec.Fallback = append(rec.Fallback, m.Dialect)
		}
	}
	if len(rec.Fallback) == 0 && rec.Dialect != "json" {
		rec.Fallback = append(rec.Fallback, "json")
	}
	settings(best, &rec)
	rec.Summary = summaryLine(&rec)
	rec.Config = configYAML(r, &rec)
	return rec
}

// recommendNative fills in the recommendation of a model that did best
// with native tools.
func recommendNative(r *Report, native *ModeReport, rec *Recommendation) {
	s := &native.Summary
	rec.PresentTools = ModeNative
	leaked := leakedDialect(native)
	if s.InContent > 0 && leaked != "" {
		rec.NativeTools, rec.Dialect = NativeParseContent, leaked
		rec.Reasons = append(rec.Reasons, fmt.Sprintf("native tools: calls leak into the content in %d of %d answers with calls, written in %s — parse the content with %s",
			s.InContent, s.InToolCalls+s.InContent, leaked, leaked))
	} else {
		rec.NativeTools = NativeUse
		rec.Dialect = cmp.Or(r.Template.Detection.Dialect, r.Template.ParserDialect, r.ModelTable.Dialect)
		rec.Reasons = append(rec.Reasons, fmt.Sprintf("native tools: calls arrive in tool_calls (%d of %d answers with calls); %s",
			s.InToolCalls, s.InToolCalls+s.InContent, modeScore(native)))
		if rec.Dialect != "" {
			rec.Reasons = append(rec.Reasons, fmt.Sprintf("dialect %s, from %s, parses calls that land in the text", rec.Dialect, dialectSource(r, rec.Dialect)))
		}
	}
}

// dialectSource says which evidence named a dialect.
func dialectSource(r *Report, d string) string {
	switch d {
	case r.Template.Detection.Dialect:
		return "the chat template"
	case r.Template.ParserDialect:
		return "Ollama's parser " + r.Template.Parser
	}
	return "the model name"
}

// settings turns the best mode's recoveries into retry settings.
func settings(m *ModeReport, rec *Recommendation) {
	s := &m.Summary
	reflections, truncations, maxTokens, failedAfterReflection := 0, 0, 0, false
	byReflection, byTokens := 0, 0
	for _, r := range m.Results {
		if r.Succeeded() {
			reflections = max(reflections, r.Reflections)
			truncations = max(truncations, r.Truncations)
			maxTokens = max(maxTokens, r.MaxTokens)
			if r.Outcome == OutcomeRecovered && r.Reflections > 0 {
				byReflection++
			}
			if r.Outcome == OutcomeRecovered && r.Truncations > 0 {
				byTokens++
			}
		} else if r.Outcome == OutcomeFailed && r.Reflections > 0 {
			failedAfterReflection = true
		}
	}
	rec.MaxRetries = max(1, reflections)
	if failedAfterReflection {
		rec.MaxRetries = min(rec.MaxRetries+1, 5)
	}
	if s.Recovered > 0 {
		rec.Reasons = append(rec.Reasons, fmt.Sprintf("recovery: %d of %d prompts recovered (%s): %d by reflection, %d with a larger output budget",
			s.Recovered, s.Asked, attemptsText(s.RecoveredAt), byReflection, byTokens))
	}
	if byReflection > 0 || failedAfterReflection {
		rec.Reasons = append(rec.Reasons, fmt.Sprintf("max_retries %d: the most reflections a prompt needed", rec.MaxRetries))
	}
	if s.Failed > 0 {
		rec.Reasons = append(rec.Reasons, fmt.Sprintf("%d of %d prompts never produced the wanted calls", s.Failed+s.WrongCall, s.Asked))
	}
	if s.Repaired > 0 {
		rec.Reasons = append(rec.Reasons, fmt.Sprintf("repair: %d of %d calls needed it (%s); keep enable_auto_repair on",
			s.Repaired, s.Calls, kindsText(s.RepairsByKind)))
	}
	if s.CoercionFixes > 0 {
		rec.CoerceTypes = true
		rec.Reasons = append(rec.Reasons, fmt.Sprintf("coerce_types: it would have fixed %d call(s) that failed the schema only for types", s.CoercionFixes))
	}
	if truncations > 0 {
		rec.OnTruncation, rec.TruncationRetries, rec.MaxTokens = config.TruncationMoreTokens, truncations, maxTokens
		rec.Reasons = append(rec.Reasons, fmt.Sprintf("truncation: %d answer(s) stopped at the output limit; they fit in %d tokens — set num_predict (Ollama) or max_tokens to at least %d",
			s.Truncated, maxTokens, maxTokens))
	}
}

// compareOutcomes orders modes by their outcomes alone: more prompts
// right, more right at the first attempt, fewer attempts.
func compareOutcomes(a, b *ModeReport) int {
	x, y := &a.Summary, &b.Summary
	return cmp.Or(
		cmp.Compare(y.SuccessRate, x.SuccessRate),
		cmp.Compare(y.FirstTryRate, x.FirstTryRate),
		cmp.Compare(x.MeanAttempts, y.MeanAttempts),
	)
}

// compareModes orders modes best first: more prompts right, more right
// at the first attempt, fewer attempts, more calls well formed as
// written, fewer tokens.
func compareModes(a, b *ModeReport) int {
	x, y := &a.Summary, &b.Summary
	return cmp.Or(
		compareOutcomes(a, b),
		cmp.Compare(y.WellFormedRate, x.WellFormedRate),
		cmp.Compare(x.PromptTokens+x.CompletionTokens, y.PromptTokens+y.CompletionTokens),
	)
}

// modeScore describes how a mode did, in a few words.
func modeScore(m *ModeReport) string {
	s := &m.Summary
	return fmt.Sprintf("%d of %d prompts right (%d at the first attempt)", s.FirstTry+s.Recovered, s.Asked, s.FirstTry)
}

func summaryLine(rec *Recommendation) string {
	var parts []string
	parts = append(parts, "dialect: "+cmp.Or(rec.Dialect, "(detect)"))
	if len(rec.Fallback) > 0 {
		parts = append(parts, "fallback: "+strings.Join(rec.Fallback, ", "))
	}
	switch rec.NativeTools {
	case NativeUse:
		parts = append(parts, "native tools: yes")
	case NativeParseContent:
		parts = append(parts, "native tools: leak into content — parse content with "+rec.Dialect)
	case NativeOff:
		parts = append(parts, "native tools: off — present tools in the system prompt in "+rec.Dialect)
	case NativeUnsupported:
		parts = append(parts, "native tools: unsupported — present tools in the system prompt in "+rec.Dialect)
	default:
		parts = append(parts, "native tools: untested")
	}
	parts = append(parts, "repair: on")
	if rec.CoerceTypes {
		parts = append(parts, "coerce types: on")
	}
	parts = append(parts, fmt.Sprintf("retries: %d", rec.MaxRetries))
	if rec.OnTruncation != "" {
		parts = append(parts, fmt.Sprintf("on truncation: %s (max tokens ≥ %d)", rec.OnTruncation, rec.MaxTokens))
	}
	return strings.Join(parts, "; ")
}

// configYAML writes the recommendation as .agent/config.yml: the model's
// entry of the models mapping of the tool_call section of the provider
// that was probed (config.SectionFor(r.API), config.ModelsKey), so that
// call and serve apply it to that model and to no other. The snippet is a
// whole file; into a file that has the section already, the model's entry
// pastes under its models key as it is.
func configYAML(r *Report, rec *Recommendation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — from dialect-probe probe of %s (%s)\n", config.AgentPath, r.Model, r.API)
	if rec.PresentTools == "system_prompt" {
		fmt.Fprintf(&b, "# present the tools in the system prompt in %s, with an example call, not in the request's tools field\n", rec.Dialect)
	}
	if rec.MaxTokens > 0 {
		fmt.Fprintf(&b, "# output budget: num_predict / max_tokens >= %d\n", rec.MaxTokens)
	}
	path := strings.Split(config.SectionFor(cmp.Or(r.API, config.ProviderOllama)), ".")
	if r.Model != "" {
		path = append(path, config.ModelsKey, yamlKey(r.Model))
	}
	for i, key := range path {
		fmt.Fprintf(&b, "%s%s:\n", strings.Repeat("  ", i), key)
	}
	indent := strings.Repeat("  ", len(path))
	line := func(k string, v any) { fmt.Fprintf(&b, "%s%s: %v\n", indent, k, v) }
	line("dialect", yamlString(rec.Dialect))
	if len(rec.Fallback) > 0 {
		line("fallback", "["+strings.Join(rec.Fallback, ", ")+"]")
	}
	line("enable_auto_repair", rec.Repair)
	line("coerce_types", rec.CoerceTypes)
	line("max_retries", rec.MaxRetries)
	if rec.OnTruncation != "" {
		line("on_truncation", rec.OnTruncation)
		line("truncation_retries", rec.TruncationRetries)
	}
	return b.String()
}

// yamlKey quotes a model name as a YAML mapping key: a JSON string is a
// YAML double-quoted scalar, whatever the name holds (":", "/", "@").
func yamlKey(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

// yamlString quotes a dialect name for YAML: names are [a-z0-9_], but an
// empty one must be written "".
func yamlString(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

func attemptsText(at map[int]int) string {
	keys := make([]int, 0, len(at))
	for k := range at {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d at attempt %d", at[k], k)
	}
	return strings.Join(parts, ", ")
}
