package registry

import (
	"fmt"
	"iter"
	"regexp"
	"strings"
	"text/template/parse"

	"github.com/dialectkit/toolcall/dialects"
)

// Kinds of chat template (TemplateDetection.Kind).
const (
	// TemplateJinja is a Jinja template: a GGUF tokenizer.chat_template, a
	// Hugging Face tokenizer_config.json chat_template, llama.cpp's
	// --chat-template-file.
	TemplateJinja = "jinja"
	// TemplateGo is an Ollama TEMPLATE (Go text/template).
	TemplateGo = "go"
	// TemplateText is anything else: a fragment, or plain text.
	TemplateText = "text"
)

// Where a template match came from (TemplateMatch.Source).
const (
	// MatchRule is a template rule whose every string the template holds,
	// as llama.cpp's common_chat_templates_apply_jinja matches substrings.
	MatchRule = "rule"
	// MatchTag is the text an Ollama template writes before the calls of an
	// assistant message (inside {{ if .ToolCalls }}), which Ollama's own
	// generic parser takes as the call marker.
	MatchTag = "tag"
	// MatchMarker is a registered dialect's own first marker found in the
	// template, used only when no rule and no tag decided.
	MatchMarker = "marker"
)

// TemplateDetection is what a chat template tells about how its model
// calls tools: which dialects its markers name, strongest first, and why.
type TemplateDetection struct {
	// Dialect is the strongest dialect, or "" when the template names none.
	Dialect string `json:"dialect"`
	// Reason explains the choice in one line.
	Reason string `json:"reason"`
	// Kind is TemplateJinja, TemplateGo, TemplateText, or "" for an empty
	// template.
	Kind string `json:"kind"`
	// Tools reports that the template renders tool definitions; a template
	// without them gives the model no tools, whatever the request says.
	Tools bool `json:"tools"`
	// ToolCalls reports that the template renders an assistant's tool calls,
	// so a conversation with calls can be replayed through it.
	ToolCalls bool `json:"tool_calls"`
	// CallTag is, for a Go template, the text written before an assistant's
	// calls ("<tool_call>", "[TOOL_CALLS] [", "{" when there is none).
	CallTag string `json:"call_tag,omitempty"`
	// OpensReasoning reports that the template's generation prompt opens a
	// reasoning block the model's output continues, on every path
	// (TemplateReasoningStart): stream and parse its output with
	// ReasoningOpen.
	OpensReasoning bool `json:"opens_reasoning,omitempty"`
	// ReasoningDepends reports that whether it opens one depends on the
	// template's variables (thinking on or off), or on what a reading of
	// its source cannot resolve (TemplateReasoningStart): set neither
	// reasoning option, and the output's first closing tag decides. With
	// neither field set, the template opens no block: ReasoningClosed.
	ReasoningDepends bool `json:"reasoning_depends,omitempty"`
	// Matches are the dialects the template names, strongest first, with
	// the evidence for each.
	Matches []TemplateMatch `json:"matches"`
}

// TemplateMatch is one dialect a template names and the evidence.
type TemplateMatch struct {
	Dialect string `json:"dialect"`
	// Source is MatchRule, MatchTag or MatchMarker.
	Source string `json:"source"`
	// Markers are the strings of the template that decided.
	Markers []string `json:"markers"`
}

// Dialects returns the matched dialect names, strongest first.
func (d TemplateDetection) Dialects() []string {
	out := make([]string, len(d.Matches))
	for i, m := range d.Matches {
		out[i] = m.Dialect
	}
	return out
}

// DetectTemplate detects from the default registry.
func DetectTemplate(template string) TemplateDetection {
	return defaultRegistry.DetectTemplate(template)
}

// DetectTemplate reads a chat template (Jinja or Ollama Go) and names the
// dialects of its tool calls. Evidence, strongest first:
//
//  1. template rules (tables.go, AddTemplateRule): fixed marker
//     combinations, the most specific first, after llama.cpp;
//  2. for a Go template, the text written before an assistant's calls, as
//     Ollama's generic tool parser reads it, mapped through the same rules
//     ("{" is bare JSON);
//  3. when neither decided, the first marker of any registered dialect that
//     looks like a special token or tag, so that a dialect registered
//     later is found in templates no rule knows.
func (r *Registry) DetectTemplate(template string) TemplateDetection {
	return r.detectTemplate(template, true)
}

// detectTemplate is DetectTemplate; without full, a template that a rule
// already decided is not parsed, and Kind, Tools and CallTag stay unset:
// detection from output runs this on every parse.
func (r *Registry) detectTemplate(template string, full bool) TemplateDetection {
	det := TemplateDetection{Matches: []TemplateMatch{}}
	if strings.TrimSpace(template) == "" {
		det.Reason = "empty template"
		return det
	}
	seen := map[string]bool{}
	add := func(m TemplateMatch) {
		if seen[m.Dialect] {
			return
		}
		if _, ok := r.Lookup(m.Dialect); !ok {
			return
		}
		seen[m.Dialect] = true
		det.Matches = append(det.Matches, m)
	}
	for _, rule := range r.matchingRules(template) {
		add(TemplateMatch{Dialect: rule.Dialect, Source: MatchRule, Markers: rule.All})
	}
	var tree *parse.Tree
	if full || len(det.Matches) == 0 {
		det.Kind, tree = templateKind(template)
		det.Tools, det.ToolCalls = templateMentions(template, det.Kind, tree)
		open, closed := r.TemplateReasoningStart(template)
		det.OpensReasoning, det.ReasoningDepends = open, !open && !closed
	}
	if tree != nil {
		if tag, ok := callTag(tree); ok {
			det.CallTag = tag
			for _, name := range r.tagDialects(tag) {
				add(TemplateMatch{Dialect: name, Source: MatchTag, Markers: []string{tag}})
			}
		}
	}
	if len(det.Matches) == 0 {
		for _, m := range r.markerMatches(template) {
			add(m)
		}
	}
	if len(det.Matches) == 0 {
		det.Reason = "no tool-call marker in the template"
		if !det.Tools {
			det.Reason = "the template renders no tools"
		}
		return det
	}
	det.Dialect = det.Matches[0].Dialect
	det.Reason = det.Matches[0].explain()
	return det
}

func (m TemplateMatch) explain() string {
	quoted := make([]string, len(m.Markers))
	for i, s := range m.Markers {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	switch m.Source {
	case MatchTag:
		return "the template writes " + strings.Join(quoted, " ") + " before an assistant's tool calls"
	case MatchMarker:
		return "the template holds " + strings.Join(quoted, " ") + ", a marker of " + m.Dialect
	}
	return "template rule: " + strings.Join(quoted, " + ")
}

// matchingRules returns the template rules whose every string the
// template holds, in the order they are tried.
func (r *Registry) matchingRules(template string) []TemplateRule {
	var out []TemplateRule
	for _, rule := range r.TemplateRules() {
		all := len(rule.All) > 0
		for _, s := range rule.All {
			if !strings.Contains(template, s) {
				all = false
				break
			}
		}
		if all {
			out = append(out, rule)
		}
	}
	return out
}

// tagDialects maps the text an Ollama template writes before the calls to
// dialects: "{" and "[" (no tag) are bare JSON, which Ollama's generic
// parser reads; a tag holding a registered dialect's first marker names
// that dialect. (A rule matching the tag matches the whole template first.)
func (r *Registry) tagDialects(tag string) []string {
	switch tag {
	case "", "{", "[":
		return []string{"json"}
	}
	var out []string
	for _, m := range r.markerMatches(tag) {
		out = append(out, m.Dialect)
	}
	return out
}

// markerMatches finds registered dialects whose first marker the template
// holds. Only a first marker that looks like a special token or a tag
// counts: later markers are often generic ("<|end|>", "Action:"), and a
// JSON key in a template is the template's own code.
func (r *Registry) markerMatches(template string) []TemplateMatch {
	var out []TemplateMatch
	for _, d := range r.Dialects() {
		m, ok := d.(dialects.Marked)
		if !ok {
			continue
		}
		mk := m.Markers()
		if len(mk) == 0 || !tagLike(mk[0]) || !strings.Contains(template, mk[0]) {
			continue
		}
		out = append(out, TemplateMatch{Dialect: d.Name(), Source: MatchMarker, Markers: []string{mk[0]}})
	}
	return out
}

// tagLike reports whether a marker looks like a special token or a tag
// ("<tool_call>", "[TOOL_CALLS]", "<|python_tag|>", ">>>"), long enough
// not to turn up by chance.
func tagLike(s string) bool {
	return len(s) >= 3 && strings.ContainsAny(s, "<>[]|｜") && !strings.ContainsAny(s, `"'`)
}

// templateKind tells a Jinja template from an Ollama Go template. Jinja
// has statement blocks ({% … %}); a Go template parses with text/template
// and refers to the fields of Ollama's template data (.Messages, .Prompt,
// .Tools, …). The parsed tree of a Go template is returned.
func templateKind(template string) (string, *parse.Tree) {
	if strings.Contains(template, "{%") {
		return TemplateJinja, nil
	}
	if !strings.Contains(template, "{{") {
		return TemplateText, nil
	}
	tree := parse.New("chat")
	tree.Mode = parse.SkipFuncCheck | parse.ParseComments
	if _, err := tree.Parse(template, "", "", map[string]*parse.Tree{}); err != nil || tree.Root == nil {
		// Jinja without statements ({{ messages[0]['content'] }}) does not
		// parse as a Go template.
		if jinjaExpression.MatchString(template) {
			return TemplateJinja, nil
		}
		return TemplateText, nil
	}
	if walkFields(tree.Root, func([]string) bool { return true }) {
		return TemplateGo, tree
	}
	if jinjaExpression.MatchString(template) {
		return TemplateJinja, nil
	}
	return TemplateText, nil
}

// jinjaExpression matches Jinja's subscripts, filters and its usual names,
// which a Go template never has inside {{ }}.
var jinjaExpression = regexp.MustCompile(`\{\{-?[^}]*(\[['"]|\|\s*\w|\bmessages\b|\bbos_token\b|\beos_token\b|\badd_generation_prompt\b)`)

// templateMentions reports whether the template renders tool definitions
// and assistant tool calls.
func templateMentions(template, kind string, tree *parse.Tree) (tools, calls bool) {
	switch {
	case tree != nil:
		tools = walkFields(tree.Root, func(f []string) bool { return hasField(f, "Tools") })
		calls = walkFields(tree.Root, func(f []string) bool { return hasField(f, "ToolCalls") })
	case kind == TemplateJinja:
		for block := range jinjaBlocks(template) {
			tools = tools || hasWord(block, "tools")
			calls = calls || strings.Contains(block, "tool_calls")
		}
	default:
		tools = strings.Contains(template, ".Tools") || strings.Contains(template, "tools")
		calls = strings.Contains(template, ".ToolCalls") || strings.Contains(template, "tool_calls")
	}
	return tools, calls
}

// jinjaBlocks yields the text inside each {% … %} and {{ … }} of a Jinja
// template: the code, where variables are named, as opposed to the text.
func jinjaBlocks(template string) iter.Seq[string] {
	return func(yield func(string) bool) {
		rest := template
		for {
			i := strings.IndexByte(rest, '{')
			if i < 0 || i+1 >= len(rest) {
				return
			}
			var end string
			switch rest[i+1] {
			case '%':
				end = "%}"
			case '{':
				end = "}}"
			default:
				rest = rest[i+1:]
				continue
			}
			body := rest[i+2:]
			j := strings.Index(body, end)
			if j < 0 {
				return
			}
			if !yield(body[:j]) {
				return
			}
			rest = body[j+2:]
		}
	}
}

// hasWord reports whether s holds word as a whole identifier.
func hasWord(s, word string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], word)
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(word)
		if (start == 0 || !identByte(s[start-1])) && (end == len(s) || !identByte(s[end])) {
			return true
		}
		off = end
	}
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func hasField(idents []string, name string) bool {
	for _, s := range idents {
		if s == name {
			return true
		}
	}
	return false
}

// walkFields reports whether any field reference under n (.A.B, $.A,
// $x.A) satisfies match.
func walkFields(n parse.Node, match func(idents []string) bool) bool {
	found := false
	var visit func(parse.Node)
	visit = func(n parse.Node) {
		if found || n == nil {
			return
		}
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				visit(c)
			}
		case *parse.ActionNode:
			visit(n.Pipe)
		case *parse.IfNode:
			visitBranch(visit, &n.BranchNode)
		case *parse.RangeNode:
			visitBranch(visit, &n.BranchNode)
		case *parse.WithNode:
			visitBranch(visit, &n.BranchNode)
		case *parse.TemplateNode:
			visit(n.Pipe)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				visit(c)
			}
		case *parse.CommandNode:
			for _, a := range n.Args {
				visit(a)
			}
		case *parse.FieldNode:
			found = match(n.Ident)
		case *parse.VariableNode:
			found = len(n.Ident) > 1 && match(n.Ident[1:])
		case *parse.ChainNode:
			found = match(n.Field)
			visit(n.Node)
		}
	}
	visit(n)
	return found
}

func visitBranch(visit func(parse.Node), b *parse.BranchNode) {
	visit(b.Pipe)
	if b.List != nil {
		visit(b.List)
	}
	if b.ElseList != nil {
		visit(b.ElseList)
	}
}

// callTag finds the text an Ollama template writes before an assistant's
// calls, as Ollama's tools/template.go parseTag does: the first text in the
// {{ if .ToolCalls }} branch, cut before any "{" (the call itself). Blank
// text is skipped; a branch without text, or whose text starts with the
// call, gives "{". It reports false when the template has no such branch.
func callTag(tree *parse.Tree) (string, bool) {
	branch := findToolCallsIf(tree.Root)
	if branch == nil {
		return "", false
	}
	text := firstText(branch.List)
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if i := strings.Index(text, "{"); i >= 0 {
		text = text[:i]
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return "{", true
	}
	return text, true
}

// findToolCallsIf returns the first {{ if … .ToolCalls … }} node.
func findToolCallsIf(n parse.Node) *parse.IfNode {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return nil
		}
		for _, c := range n.Nodes {
			if f := findToolCallsIf(c); f != nil {
				return f
			}
		}
	case *parse.IfNode:
		if walkFields(n.Pipe, func(f []string) bool { return hasField(f, "ToolCalls") }) {
			return n
		}
		return findInBranch(&n.BranchNode)
	case *parse.RangeNode:
		return findInBranch(&n.BranchNode)
	case *parse.WithNode:
		return findInBranch(&n.BranchNode)
	}
	return nil
}

func findInBranch(b *parse.BranchNode) *parse.IfNode {
	if b.List != nil {
		if f := findToolCallsIf(b.List); f != nil {
			return f
		}
	}
	if b.ElseList != nil {
		return findToolCallsIf(b.ElseList)
	}
	return nil
}

// firstText returns the first text under n that is not blank, depth first.
func firstText(n parse.Node) string {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return ""
		}
		for _, c := range n.Nodes {
			if t := firstText(c); t != "" {
				return t
			}
		}
	case *parse.TextNode:
		if strings.TrimSpace(string(n.Text)) != "" {
			return string(n.Text)
		}
	case *parse.IfNode:
		return firstTextBranch(&n.BranchNode)
	case *parse.RangeNode:
		return firstTextBranch(&n.BranchNode)
	case *parse.WithNode:
		return firstTextBranch(&n.BranchNode)
	}
	return ""
}

func firstTextBranch(b *parse.BranchNode) string {
	if t := firstText(b.List); t != "" {
		return t
	}
	if b.ElseList != nil {
		return firstText(b.ElseList)
	}
	return ""
}

// OllamaParserRule maps the name of one of Ollama's built-in tool parsers
// (the PARSER of a Modelfile, "parser" in /api/show) to a dialect. Models
// packaged with a built-in parser often have a bare template ({{ .Prompt }}):
// the parser name is then the only evidence.
type OllamaParserRule struct {
	Parser  string `json:"parser"`
	Dialect string `json:"dialect"`
}

// ollamaParsers are Ollama's built-in parsers (model/parsers/parsers.go)
// and the dialects they read.
var ollamaParsers = []OllamaParserRule{
	{"qwen3-coder", "qwen3_coder"}, {"qwen3.5", "qwen3_coder"}, {"ornith", "qwen3_coder"},
	{"nemotron-3-nano", "qwen3_coder"}, {"nemotron-3.5-nano", "qwen3_coder"},
	{"qwen3-vl-instruct", "hermes"}, {"qwen3-vl-thinking", "hermes"},
	{"qwen3-thinking", "hermes"}, {"qwen3", "hermes"},
	{"ministral", "mistral"}, {"harmony", "harmony"},
	{"cogito", "deepseek_v3"}, {"deepseek3", "deepseek_v31"},
	{"olmo3-think", "olmo3"}, {"olmo3", "olmo3"},
	{"functiongemma", "functiongemma"}, {"gemma4", "gemma4"},
	{"glm-4.7", "glm45"}, {"laguna", "glm45"}, {"poolside-v1", "glm45"},
	{"lfm2-thinking", "lfm2"}, {"lfm2", "lfm2"},
	{"cohere", "cohere"}, {"glimmer", "glimmer"},
}

// OllamaParsers returns the built-in table of Ollama parser names.
func OllamaParsers() []OllamaParserRule { return append([]OllamaParserRule(nil), ollamaParsers...) }

// DialectForOllamaParser returns the dialect read by the Ollama built-in
// parser of that name ("qwen3-coder" → qwen3_coder), or "". Case is
// ignored; an unknown parser names no dialect.
func (r *Registry) DialectForOllamaParser(parser string) string {
	p := strings.ToLower(strings.TrimSpace(parser))
	for _, rule := range ollamaParsers {
		if rule.Parser == p {
			if _, ok := r.Lookup(rule.Dialect); ok {
				return rule.Dialect
			}
		}
	}
	return ""
}
