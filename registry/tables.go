package registry

import (
	"slices"
	"strings"
)

// ModelRule maps model names containing Pattern to a dialect. Matching
// ignores case and the separators "-_.: /", so "qwen3-coder" matches
// "Qwen3_Coder:30b". The longest matching pattern wins.
type ModelRule struct {
	Pattern string `json:"pattern"`
	Dialect string `json:"dialect"`
}

// TemplateRule maps a chat template that contains every string in All to a
// dialect. Rules are tried in order; every matching rule is evidence, the
// first the strongest.
type TemplateRule struct {
	All     []string `json:"all"`
	Dialect string   `json:"dialect"`
}

// AddModelRule adds a model-name rule.
func (r *Registry) AddModelRule(rule ModelRule) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.models = append(r.models, rule)
	r.changed()
}

// AddTemplateRule adds a template rule, tried before the existing ones.
func (r *Registry) AddTemplateRule(rule TemplateRule) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.templates = append([]TemplateRule{rule}, r.templates...)
	r.changed()
}

// ModelRules returns the model-name rules.
func (r *Registry) ModelRules() []ModelRule {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]ModelRule(nil), r.models...)
}

// TemplateRules returns the template rules in the order they are tried.
func (r *Registry) TemplateRules() []TemplateRule {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]TemplateRule(nil), r.templates...)
}

// DialectForModel returns the dialect the model table gives for a model
// name, and the pattern that matched, or "".
func (r *Registry) DialectForModel(model string) (dialect, pattern string) {
	return r.modelDialect(model)
}

// DialectsForTemplate returns the dialects whose template rules match, the
// strongest first.
func (r *Registry) DialectsForTemplate(template string) []string {
	return slices.Clone(r.templateDialects(template))
}

// modelDialect is the dialect the model rules give a model name, and the
// rule's pattern; it is worked out once per name.
func (r *Registry) modelDialect(model string) (string, string) {
	r.mu.RLock()
	m, ok := r.modelMemo[model]
	gen := r.gen
	r.mu.RUnlock()
	if ok {
		return m.dialect, m.pattern
	}
	m.dialect, m.pattern = r.matchModel(model)
	r.mu.Lock()
	if r.gen == gen {
		if r.modelMemo == nil || len(r.modelMemo) >= modelMemoSize {
			r.modelMemo = map[string]modelMatch{}
		}
		r.modelMemo[model] = m
	}
	r.mu.Unlock()
	return m.dialect, m.pattern
}

// modelMatch is the dialect a model name's rule gives, and the rule's
// pattern.
type modelMatch struct{ dialect, pattern string }

// modelMemoSize bounds the model names whose dialect is kept: past it the
// memo starts again.
const modelMemoSize = 1024

// changed empties what was worked out from the dialects and rules; the
// caller holds mu.
func (r *Registry) changed() {
	r.gen++
	r.modelMemo = nil
	r.templateMemo = nil
}

// matchModel finds the longest model rule whose pattern the model name
// holds and whose dialect is registered.
func (r *Registry) matchModel(model string) (string, string) {
	name := normalizeModel(model)
	best, bestPattern := "", ""
	for _, rule := range r.ModelRules() {
		p := normalizeModel(rule.Pattern)
		if p == "" || !strings.Contains(name, p) || len(p) <= len(normalizeModel(bestPattern)) {
			continue
		}
		if _, ok := r.Lookup(rule.Dialect); ok {
			best, bestPattern = rule.Dialect, rule.Pattern
		}
	}
	return best, bestPattern
}

func normalizeModel(s string) string {
	s = strings.ToLower(s)
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("-_.: /", r) {
			return -1
		}
		return r
	}, s)
}

// templateDialects is DialectsForTemplate worked out once per template: a
// model's template is evidence in every detection of its output. The
// slice is shared: callers only read it.
func (r *Registry) templateDialects(template string) []string {
	r.mu.RLock()
	ds, ok := r.templateMemo[template]
	gen := r.gen
	r.mu.RUnlock()
	if ok {
		return ds
	}
	ds = r.detectTemplate(template, false).Dialects()
	if len(template) > maxMemoTemplate {
		return ds
	}
	r.mu.Lock()
	if r.gen == gen {
		if r.templateMemo == nil || len(r.templateMemo) >= templateMemoSize {
			r.templateMemo = map[string][]string{}
		}
		r.templateMemo[template] = ds
	}
	r.mu.Unlock()
	return ds
}

// templateMemoSize bounds the templates whose dialects are kept, and
// maxMemoTemplate the size of one kept.
const (
	templateMemoSize = 64
	maxMemoTemplate  = 256 << 10
)

// defaultModelRules maps model families to dialects, after the peers'
// model tables (smg's model globs, Ollama's parser names).
var defaultModelRules = []ModelRule{
	{"qwen3-coder", "qwen3_coder"}, {"qwen3.5", "qwen3_coder"}, {"qwen3.6", "qwen3_coder"},
	{"qwen3", "hermes"}, {"qwen2.5", "hermes"}, {"qwq", "hermes"}, {"hermes", "hermes"},
	{"granite4", "hermes"}, {"ernie", "hermes"},
	{"mistral", "mistral"}, {"mixtral", "mistral"}, {"ministral", "mistral"}, {"devstral", "mistral"},
	{"magistral", "mistral"}, {"codestral", "mistral"},
	{"llama3.1", "llama3_json"}, {"llama3.2", "llama3_json"}, {"llama3.3", "llama3_json"},
	{"llama-3", "llama3_json"}, {"llama4", "llama4_pythonic"},
	{"deepseek-r1", "deepseek_v3"}, {"deepseek-v3", "deepseek_v3"}, {"cogito", "deepseek_v3"},
	{"deepseek-v3.1", "deepseek_v31"}, {"deepseek-v3.2", "deepseek_v32"}, {"deepseek-v4", "deepseek_v4"},
	{"kimi-k2", "kimi_k2"}, {"kimi-k3", "kimi_k3"},
	{"glm-4.5", "glm45"}, {"glm-4.6", "glm45"}, {"glm-4.7", "glm45"}, {"glm-5", "glm45"}, {"glm4", "glm45"},
	{"gpt-oss", "harmony"},
	{"granite3", "granite"}, {"granite-3", "granite"}, {"granite-20b-functioncalling", "granite_20b_fc"},
	{"lfm2", "lfm2"}, {"olmo-3", "olmo3"}, {"olmo3", "olmo3"},
	{"gemma4", "gemma4"}, {"gemma-4", "gemma4"}, {"functiongemma", "functiongemma"},
	{"command-r7b", "cohere"}, {"command-r", "cohere"}, {"command-a", "cohere"},
	{"phi4-mini", "functools"}, {"firefunction", "functools"},
	{"minimax-m1", "minimax_m1"}, {"minimax-m2", "minimax_m2"}, {"minimax-m3", "minimax_m3"},
	{"seed-oss", "seed_oss"}, {"jamba", "tool_calls_array"}, {"hunyuan", "tool_calls_array"},
	{"apriel", "tool_calls_array"}, {"nemotron-nano-v2", "nemotron_v2"}, {"xlam", "xlam"},
	{"apertus", "apertus"}, {"internlm2", "internlm2"}, {"intern-s1", "internlm2"},
	{"gigachat", "gigachat3"}, {"longcat", "longcat"}, {"functionary-v3.1", "functionary_v3_1"},
	{"functionary", "functionary_v3_2"}, {"minicpm5", "minicpm5"}, {"step3", "step3"},
	{"mirothinker", "mirothinker"}, {"glimmer", "glimmer"}, {"sarashina", "sarashina"},
	{"hy-v3", "hy_v3"}, {"inkling", "inkling"},
}

// defaultTemplateRules detect a dialect from chat-template markers, in the
// spirit of llama.cpp's common_chat_templates rules: the most specific
// combinations first.
var defaultTemplateRules = []TemplateRule{
	{[]string{"<｜DSML｜tool_calls>"}, "deepseek_v4"},
	{[]string{"<｜DSML｜function_calls>"}, "deepseek_v32"},
	// DeepSeek-V3.1's template has thinking prefixes (llama.cpp's test);
	// R1 and V3 write the arguments in a ```json fence after the name.
	{[]string{"message['prefix'] is defined and message['prefix'] and thinking"}, "deepseek_v31"},
	{[]string{"<｜tool▁calls▁begin｜>", "function<｜tool▁sep｜>"}, "deepseek_v3"},
	{[]string{"<｜tool▁calls▁begin｜>", "```json"}, "deepseek_v3"},
	{[]string{"<｜tool▁calls▁begin｜>"}, "deepseek_v31"},
	{[]string{"<｜tool_calls_begin｜>", "steptml:"}, "step3"},
	{[]string{"<tool_call>", "<function=", "<parameter="}, "qwen3_coder"},
	{[]string{"<seed:tool_call>"}, "seed_oss"},
	{[]string{"<arg_key>", "<tool_sep>"}, "hy_v3"},
	{[]string{"<arg_key>"}, "glm45"},
	{[]string{"<minimax:tool_call>"}, "minimax_m2"},
	{[]string{"]<]minimax[>["}, "minimax_m3"},
	{[]string{"<|tool_call|>"}, "granite"},
	{[]string{"<longcat_tool_call>"}, "longcat"},
	{[]string{"<tool_call>"}, "hermes"},
	{[]string{"<|channel|>", "<|constrain|>"}, "harmony"},
	{[]string{"<|channel|>"}, "harmony"},
	{[]string{">>>all"}, "functionary_v3_2"},
	{[]string{"<function=", "<|python_tag|>"}, "functionary_v3_1"},
	{[]string{" functools["}, "functools"},
	{[]string{"functools["}, "functools"},
	{[]string{"[TOOL_CALLS]"}, "mistral"},
	{[]string{"<|tool_calls_section_begin|>"}, "kimi_k2"},
	{[]string{"<|START_ACTION|>"}, "cohere"},
	{[]string{"<|tool_call_start|>"}, "lfm2"},
	{[]string{"<function_calls>"}, "olmo3"},
	{[]string{"<|tool_call>"}, "gemma4"},
	{[]string{"<start_function_call>"}, "functiongemma"},
	{[]string{"<|tools_prefix|>"}, "apertus"},
	{[]string{"<TOOLCALL>"}, "nemotron_v2"},
	{[]string{"<tool_calls>"}, "tool_calls_array"},
	{[]string{"<|action_start|>"}, "internlm2"},
	{[]string{"<|function_call|>"}, "gigachat3"},
	{[]string{"<use_mcp_tool>"}, "mirothinker"},
	{[]string{"<|python_start|>"}, "llama4_pythonic"},
	{[]string{"<|start_header_id|>ipython<|end_header_id|>", "<|python_tag|>"}, "llama3_json"},
	{[]string{"<|python_tag|>"}, "llama3_json"},
	// Ollama's Llama 3.1-3.3 templates write JSON calls and answer tools as
	// ipython, without <|python_tag|>.
	{[]string{"<|start_header_id|>ipython<|end_header_id|>"}, "llama3_json"},
	{[]string{"<function_call>"}, "granite_20b_fc"},
	{[]string{"<|tool_calls|>"}, "sarashina"},
	{[]string{"<|open|>"}, "kimi_k3"},
	{[]string{"<|content_invoke_tool_json|>"}, "inkling"},
	{[]string{"<atem:function_calls>"}, "glimmer"},
}
