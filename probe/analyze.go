package probe

import (
	"encoding/json"
	"slices"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/retry"
	"github.com/dialectkit/toolcall/schema"
)

// Where the calls of an answer were (Answer.Where).
const (
	// WhereToolCalls: the server returned the calls in its tool_calls field.
	WhereToolCalls = "tool_calls"
	// WhereContent: the calls were written into the text of the answer
	// (with native tools, they leaked).
	WhereContent = "content"
	// WhereNone: the answer called no tool.
	WhereNone = "none"
	// WhereTruncated: the answer stopped at the output limit.
	WhereTruncated = "truncated"
	// WhereNoAnswer: no answer came (the request failed).
	WhereNoAnswer = "no_answer"
)

// Answer is what the first answer to a prompt looked like, before any
// recovery: where its calls were, in which dialect, and how well formed.
type Answer struct {
	// Where is WhereToolCalls, WhereContent, WhereNone, WhereTruncated or
	// WhereNoAnswer.
	Where string `json:"where"`
	// Dialect is the dialect of the calls: "native" for tool_calls, the
	// detected dialect for text ("" when the text held no call).
	Dialect string `json:"dialect,omitempty"`
	// Confidence is how sure detection was, from 0 to 1: the winner's
	// share of the scores of candidates that read the text differently.
	Confidence float64 `json:"confidence,omitempty"`
	// AlsoReadAs are dialects that read the same calls out of the text.
	AlsoReadAs []string `json:"also_read_as,omitempty"`
	// Calls counts the calls found, valid or not.
	Calls int `json:"calls"`
	// WellFormed counts the calls whose arguments parsed as written (JSON,
	// or the dialect's own argument syntax), with no repair.
	WellFormed int `json:"well_formed"`
	// Repaired counts the calls that parsed after repair, and Repairs the
	// repairs by kind.
	Repaired int                         `json:"repaired"`
	Repairs  map[toolcall.RepairKind]int `json:"repairs,omitempty"`
	// SchemaValid counts the calls that named a declared tool and whose
	// arguments (repaired if need be) matched its schema.
	SchemaValid int `json:"schema_valid"`
	// CoercionFixes counts the calls that failed the schema only for types
	// that coerce_types would have converted.
	CoercionFixes int `json:"coercion_fixes,omitempty"`
	// Errors are the codes of the calls that failed.
	Errors []toolcall.Code `json:"errors,omitempty"`
	// Match compares the valid calls with what the prompt expects.
	Match Match `json:"match"`
	// Text is the answer's text, kept only with Options.KeepText.
	Text string `json:"text,omitempty"`
}

// syntaxRepair reports whether a repair changed the syntax of arguments,
// as opposed to their types (coercion) or the tool's name.
func syntaxRepair(k toolcall.RepairKind) bool {
	return k != toolcall.RepairCoercion && k != toolcall.RepairNameNormalized
}

// analyzer reads answers the way the probe reports them.
type analyzer struct {
	reg   *registry.Registry
	tools *schema.Set
	cfg   *config.Config
	// template and model are the evidence native answers are read with.
	template, model string
}

// answer describes resp, the first answer to p. presented is the dialect
// the tools were presented in ("" with native tools): an answer that reads
// as calls in it followed it, whatever else detection would prefer. With
// native tools, the template and the model name are evidence too, as they
// are to the retry loop.
func (a *analyzer) answer(resp *client.Response, p *Prompt, presented string, keepText bool) Answer {
	ans := Answer{Where: WhereNone}
	if keepText {
		ans.Text = resp.Content
	}
	if len(resp.NativeCalls) > 0 {
		ans.Where, ans.Dialect, ans.Confidence = WhereToolCalls, retry.NativeDialect, 1
		parse := func(opts *dialects.Options) *toolcall.Result {
			ext := &dialects.Extraction{Calls: slices.Clone(resp.NativeCalls), Content: resp.Content}
			return dialects.Finish(retry.NativeDialect, ext, opts)
		}
		a.measure(&ans, parse, p)
		return ans
	}
	detect := &registry.Options{}
	detect.SetDialectOptions(*a.options(a.tools))
	if presented == "" {
		detect.Template, detect.Model = a.template, a.model
	}
	det := a.reg.Detect(resp.Content, detect)
	if resp.Truncated() {
		ans.Where, ans.Dialect = WhereTruncated, det.Dialect
		return ans
	}
	dialect := det.Dialect
	parseAs := func(d string) func(*dialects.Options) *toolcall.Result {
		return func(opts *dialects.Options) *toolcall.Result {
			o := &registry.Options{Dialect: d}
			o.SetDialectOptions(*opts)
			return a.reg.Parse(resp.Content, o)
		}
	}
	if presented != "" && dialect != presented {
		if res := parseAs(presented)(a.options(nil)); len(res.Calls) > 0 {
			dialect = presented
		}
	}
	if dialect == "" {
		return ans
	}
	named := parseAs(dialect)
	if res := named(a.options(nil)); len(res.Calls)+len(res.Errors) == 0 {
		return ans // a marker without a call: prose that mentions one
	}
	ans.Where, ans.Dialect = WhereContent, dialect
	detect.Tools = nil
	ans.Confidence, ans.AlsoReadAs = a.confidence(resp.Content, a.reg.Detect(resp.Content, detect), dialect)
	a.measure(&ans, named, p)
	return ans
}

// options are the parse options of the run's configuration, with tools
// (validation) or without (syntax only).
func (a *analyzer) options(tools *schema.Set) *dialects.Options {
	opts := a.cfg.DialectOptions(tools)
	opts.DisableRepair = false
	return &opts
}

// measure parses the answer three ways: without tools (is the syntax
// well formed, what was repaired), with the tools (which calls are
// schema-valid), and with coercion (which schema errors coerce_types
// would fix).
func (a *analyzer) measure(ans *Answer, parse func(*dialects.Options) *toolcall.Result, p *Prompt) {
	syntax := parse(a.options(nil))
	ans.Calls = len(syntax.Calls) + callErrors(syntax.Errors)
	repairedCalls := map[int]bool{}
	for _, r := range syntax.Repairs {
		if !syntaxRepair(r.Kind) {
			continue
		}
		repairedCalls[r.CallIndex] = true
		if ans.Repairs == nil {
			ans.Repairs = map[toolcall.RepairKind]int{}
		}
		ans.Repairs[r.Kind]++
	}
	for _, c := range syntax.Calls {
		if repairedCalls[c.Index] {
			ans.Repaired++
		} else {
			ans.WellFormed++
		}
	}
	valid := parse(a.options(a.tools))
	ans.SchemaValid = len(valid.Calls)
	for _, e := range valid.Errors {
		ans.Errors = append(ans.Errors, e.Code)
	}
	if hasCode(valid.Errors, toolcall.CodeSchema) {
		opts := a.options(a.tools)
		opts.Validation.Coerce = true
		coerced := parse(opts)
		ans.CoercionFixes = max(0, len(coerced.Calls)-len(valid.Calls))
	}
	ans.Match = p.MatchCalls(valid.Calls)
}

// confidence is the chosen dialect's share of the scores of the
// candidates that read other calls out of the text, detected without the
// tools (a call that fails its schema is still written in the dialect);
// candidates that read the same calls (hermes and glm45 both read
// <tool_call>{…}) agree, and candidates that read no call (a marker they
// could not parse) do not compete.
func (a *analyzer) confidence(text string, det registry.Detection, chosen string) (float64, []string) {
	top := 0.0
	for _, c := range det.Candidates {
		if c.Dialect == chosen {
			top = c.Score
		}
	}
	if top <= 0 {
		// Detection preferred a reading without calls: the chosen dialect
		// won only as the dialect presented.
		return 0.5, nil
	}
	total := top
	var same []string
	reading := func(d string) *toolcall.Result {
		o := &registry.Options{Dialect: d}
		o.SetDialectOptions(*a.options(nil))
		return a.reg.Parse(text, o)
	}
	best := reading(chosen)
	for _, c := range det.Candidates {
		if c.Dialect == chosen || c.Score <= 0 || c.Calls == 0 {
			continue
		}
		other := reading(c.Dialect)
		if sameCalls(best.Calls, other.Calls) && len(best.Errors) == len(other.Errors) {
			same = append(same, c.Dialect)
			continue
		}
		total += c.Score
	}
	return round2(top / total), same
}

func sameCalls(a, b []toolcall.Call) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !jsonEqual(a[i].Arguments, b[i].Arguments) {
			return false
		}
	}
	return true
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// callErrors counts the errors that belong to a call.
func callErrors(errs []*toolcall.Error) int {
	n := 0
	for _, e := range errs {
		if e.CallIndex >= 0 {
			n++
		}
	}
	return n
}

func hasCode(errs []*toolcall.Error, code toolcall.Code) bool {
	for _, e := range errs {
		if e.Code == code {
			return true
		}
	}
	return false
}

func round2(f float64) float64 {
	return float64(int(f*100+0.5)) / 100
}

// nameList returns the names of calls, sorted.
func nameList(calls []toolcall.Call) []string {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = c.Name
	}
	slices.Sort(names)
	return names
}
