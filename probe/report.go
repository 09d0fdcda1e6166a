package probe

import (
	"cmp"
	"errors"
	"slices"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/redact"
	"github.com/dialectkit/toolcall/registry"
)

// Report is the outcome of a probe: what the server and the template say,
// how the model answered each prompt in each mode, and what to configure.
type Report struct {
	Model string `json:"model"`
	API   string `json:"api"`
	Host  string `json:"host"`
	// Simulated names the built-in simulation that answered, if any.
	Simulated string `json:"simulated,omitempty"`
	// Server is what the server said about the model.
	Server ModelInfo `json:"server"`
	// Template is the evidence of the chat template.
	Template TemplateEvidence `json:"template"`
	// ModelTable is the dialect the model-name table gives, and the
	// pattern that matched.
	ModelTable RuleMatch `json:"model_table"`
	// Prompts describe the battery.
	Prompts []PromptInfo `json:"prompts"`
	// Modes are the ways the model was asked: native tools first, then
	// tools presented in the system prompt in each candidate dialect.
	Modes []ModeReport `json:"modes"`
	// Recommendation is what to configure.
	Recommendation Recommendation `json:"recommendation"`
	// Requests counts the chat requests sent; DurationMS is the probe's
	// time.
	Requests   int     `json:"requests"`
	DurationMS float64 `json:"duration_ms"`
}

// TemplateEvidence is what the chat template, and Ollama's parser name,
// say about the dialect.
type TemplateEvidence struct {
	// Source is where the template came from ("ollama /api/show",
	// "llama.cpp /props", "file"), or "" when there is none.
	Source string `json:"source,omitempty"`
	// Bytes is the template's size.
	Bytes int `json:"bytes"`
	// Detection is the template detection.
	Detection registry.TemplateDetection `json:"detection"`
	// Parser is Ollama's built-in parser, and ParserDialect the dialect it
	// reads.
	Parser        string `json:"parser,omitempty"`
	ParserDialect string `json:"parser_dialect,omitempty"`
}

// RuleMatch is a dialect a table gave, and the pattern that matched.
type RuleMatch struct {
	Dialect string `json:"dialect,omitempty"`
	Pattern string `json:"pattern,omitempty"`
}

// PromptInfo describes one prompt of the battery.
type PromptInfo struct {
	ID     string   `json:"id"`
	Kind   string   `json:"kind,omitempty"`
	Expect []string `json:"expect"`
}

// Modes of asking (ModeReport.Mode).
const (
	// ModeNative sends the tools in the request's tools field.
	ModeNative = "native"
	// ModePrompted presents the tools in the system prompt, in a dialect.
	ModePrompted = "prompted"
)

// ModeReport is one way of asking: every prompt's result and a summary.
type ModeReport struct {
	// Mode is ModeNative or ModePrompted.
	Mode string `json:"mode"`
	// Dialect is the dialect the tools were presented and parsed in
	// (prompted mode).
	Dialect string `json:"dialect,omitempty"`
	// Unsupported says why native tools were not tried or were refused.
	Unsupported string `json:"unsupported,omitempty"`
	// Results are per prompt, in battery order.
	Results []PromptResult `json:"results"`
	// Summary sums the results.
	Summary Summary `json:"summary"`
}

// Name is "native" or the dialect of a prompted mode.
func (m *ModeReport) Name() string {
	if m.Mode == ModeNative {
		return ModeNative
	}
	return m.Dialect
}

// Outcomes of a prompt (PromptResult.Outcome).
const (
	// OutcomeOK: the first answer was right, nothing repaired.
	OutcomeOK = "ok"
	// OutcomeRepaired: the first answer was right after repair.
	OutcomeRepaired = "repaired"
	// OutcomeRecovered: a later attempt was right (reflection, more tokens).
	OutcomeRecovered = "recovered"
	// OutcomeFailed: no attempt was right within the budgets.
	OutcomeFailed = "failed"
	// OutcomeWrongCall: valid calls, but not the tools the prompt wants.
	OutcomeWrongCall = "wrong_call"
	// OutcomeUnwanted: a tool was called where no call was wanted.
	OutcomeUnwanted = "unwanted_call"
	// OutcomeUnsupported: native tools were refused or not offered.
	OutcomeUnsupported = "unsupported"
)

// PromptResult is one prompt asked in one mode.
type PromptResult struct {
	Prompt string `json:"prompt"`
	// Answer describes the first answer.
	Answer Answer `json:"answer"`
	// Outcome is OutcomeOK, OutcomeRepaired, OutcomeRecovered,
	// OutcomeFailed, OutcomeWrongCall, OutcomeUnwanted or
	// OutcomeUnsupported.
	Outcome string `json:"outcome"`
	// Attempts counts the model turns; RecoveredAt is the attempt that
	// succeeded when it was not the first.
	Attempts    int `json:"attempts"`
	RecoveredAt int `json:"recovered_at,omitempty"`
	// Reflections, Truncations and Rejections count the attempts made
	// after failed calls, after answers cut off for length, and after
	// requests the server refused.
	Reflections int `json:"reflections,omitempty"`
	Truncations int `json:"truncations,omitempty"`
	Rejections  int `json:"rejections,omitempty"`
	// MaxTokens is the output budget of the last attempt, when the loop
	// raised it after a truncation.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Final are the names of the valid calls the run ended with, and
	// FinalMatch how they compare with the expectation.
	Final      []string `json:"final"`
	FinalMatch Match    `json:"final_match"`
	// Error is why the run failed.
	Error *ErrorInfo `json:"error,omitempty"`
	// LatencyMS is the first answer's time in the model; TotalMS the whole
	// run's.
	LatencyMS float64 `json:"latency_ms"`
	TotalMS   float64 `json:"total_ms"`
	// PromptTokens and CompletionTokens sum every attempt.
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Succeeded reports whether the prompt ended right: the wanted calls, or
// no call when none was wanted.
func (r *PromptResult) Succeeded() bool {
	switch r.Outcome {
	case OutcomeOK, OutcomeRepaired, OutcomeRecovered:
		return true
	}
	return false
}

// ErrorInfo is an error in the report: its code and its message, which
// never holds argument values, and whose credential shapes (a tool name
// the model wrote, a server's message) are redacted.
type ErrorInfo struct {
	Code    toolcall.Code `json:"code"`
	Message string        `json:"message"`
}

func errorInfo(err error) *ErrorInfo {
	var e *toolcall.Error
	if errors.As(err, &e) {
		return &ErrorInfo{Code: e.Code, Message: redact.Text(cmp.Or(e.Message, e.Code.Summary()))}
	}
	return &ErrorInfo{Code: toolcall.CodeTransport, Message: redact.Text(err.Error())}
}

// Summary sums a mode's results.
type Summary struct {
	// Prompts counts the prompts; Asked those that reached the model.
	Prompts int `json:"prompts"`
	Asked   int `json:"asked"`
	// Where the first answers' calls were.
	InToolCalls int `json:"in_tool_calls"`
	InContent   int `json:"in_content"`
	NoCall      int `json:"no_call"`
	Truncated   int `json:"truncated"`
	// LeakRate is, with native tools, the share of answers with calls that
	// wrote them into the text.
	LeakRate float64 `json:"leak_rate"`
	// Dialects are the dialects the first answers' calls were in, the most
	// frequent first.
	Dialects []DialectSeen `json:"dialects"`
	// Calls counts the calls of first answers; WellFormed, Repaired and
	// SchemaValid as in Answer, with their rates over Calls.
	Calls           int                         `json:"calls"`
	WellFormed      int                         `json:"well_formed"`
	Repaired        int                         `json:"repaired"`
	SchemaValid     int                         `json:"schema_valid"`
	WellFormedRate  float64                     `json:"well_formed_rate"`
	RepairRate      float64                     `json:"repair_rate"`
	SchemaValidRate float64                     `json:"schema_valid_rate"`
	RepairsByKind   map[toolcall.RepairKind]int `json:"repairs_by_kind"`
	CoercionFixes   int                         `json:"coercion_fixes"`
	// Outcomes count the prompts by outcome.
	FirstTry  int `json:"first_try"`
	Recovered int `json:"recovered"`
	Failed    int `json:"failed"`
	WrongCall int `json:"wrong_call"`
	Unwanted  int `json:"unwanted_call"`
	// RecoveredAt counts recovered prompts by the attempt that succeeded.
	RecoveredAt map[int]int `json:"recovered_at"`
	// SuccessRate is the share of asked prompts that ended right, and
	// FirstTryRate of those right at the first attempt.
	SuccessRate  float64 `json:"success_rate"`
	FirstTryRate float64 `json:"first_try_rate"`
	// MeanAttempts is the mean attempts per asked prompt.
	MeanAttempts float64 `json:"mean_attempts"`
	// Latency of first answers, and the tokens of every attempt.
	MeanLatencyMS    float64 `json:"mean_latency_ms"`
	MaxLatencyMS     float64 `json:"max_latency_ms"`
	TotalMS          float64 `json:"total_ms"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	// Reflections and Truncations count the attempts made after failed
	// calls and after answers cut off.
	Reflections int `json:"reflections"`
	Truncations int `json:"truncations"`
}

// DialectSeen is a dialect the first answers were in.
type DialectSeen struct {
	Dialect string `json:"dialect"`
	// Answers counts the answers in it, of Of answers with calls.
	Answers int `json:"answers"`
	Of      int `json:"of"`
	// Confidence is the mean detection confidence over those answers.
	Confidence float64 `json:"confidence"`
}

// summarize sums the results of a mode.
func summarize(results []PromptResult) Summary {
	s := Summary{Prompts: len(results), RepairsByKind: map[toolcall.RepairKind]int{}, RecoveredAt: map[int]int{}, Dialects: []DialectSeen{}}
	seen := map[string]*DialectSeen{}
	var confidence = map[string]float64{}
	withCalls := 0
	for _, r := range results {
		if r.Outcome == OutcomeUnsupported {
			continue
		}
		s.Asked++
		a := r.Answer
		switch a.Where {
		case WhereToolCalls:
			s.InToolCalls++
		case WhereContent:
			s.InContent++
		case WhereNone:
			s.NoCall++
		case WhereTruncated:
			s.Truncated++
		}
		if a.Where == WhereToolCalls || a.Where == WhereContent {
			withCalls++
			d := seen[a.Dialect]
			if d == nil {
				d = &DialectSeen{Dialect: a.Dialect}
				seen[a.Dialect] = d
			}
			d.Answers++
			confidence[a.Dialect] += a.Confidence
		}
		s.Calls += a.Calls
		s.WellFormed += a.WellFormed
		s.Repaired += a.Repaired
		s.SchemaValid += a.SchemaValid
		s.CoercionFixes += a.CoercionFixes
		for k, n := range a.Repairs {
			s.RepairsByKind[k] += n
		}
		switch r.Outcome {
		case OutcomeOK, OutcomeRepaired:
			s.FirstTry++
		case OutcomeRecovered:
			s.Recovered++
			s.RecoveredAt[r.RecoveredAt]++
		case OutcomeFailed:
			s.Failed++
		case OutcomeWrongCall:
			s.WrongCall++
		case OutcomeUnwanted:
			s.Unwanted++
		}
		s.MeanAttempts += float64(r.Attempts)
		s.MeanLatencyMS += r.LatencyMS
		s.MaxLatencyMS = max(s.MaxLatencyMS, r.LatencyMS)
		s.TotalMS += r.TotalMS
		s.PromptTokens += r.PromptTokens
		s.CompletionTokens += r.CompletionTokens
		s.Reflections += r.Reflections
		s.Truncations += r.Truncations
	}
	for _, d := range seen {
		d.Of = withCalls
		d.Confidence = round2(confidence[d.Dialect] / float64(d.Answers))
		s.Dialects = append(s.Dialects, *d)
	}
	slices.SortFunc(s.Dialects, func(a, b DialectSeen) int {
		return cmp.Or(cmp.Compare(b.Answers, a.Answers), cmp.Compare(a.Dialect, b.Dialect))
	})
	if s.InToolCalls+s.InContent > 0 {
		s.LeakRate = round2(float64(s.InContent) / float64(s.InToolCalls+s.InContent))
	}
	if s.Calls > 0 {
		s.WellFormedRate = round2(float64(s.WellFormed) / float64(s.Calls))
		s.RepairRate = round2(float64(s.Repaired) / float64(s.Calls))
		s.SchemaValidRate = round2(float64(s.SchemaValid) / float64(s.Calls))
	}
	if s.Asked > 0 {
		n := float64(s.Asked)
		s.SuccessRate = round2(float64(s.FirstTry+s.Recovered) / n)
		s.FirstTryRate = round2(float64(s.FirstTry) / n)
		s.MeanAttempts = round2(s.MeanAttempts / n)
		s.MeanLatencyMS = roundMS(s.MeanLatencyMS / n)
	}
	return s
}

// millis is a duration in milliseconds, to the microsecond.
func millis(d time.Duration) float64 { return roundMS(float64(d.Microseconds()) / 1000) }

func roundMS(ms float64) float64 { return float64(int64(ms*1000+0.5)) / 1000 }
