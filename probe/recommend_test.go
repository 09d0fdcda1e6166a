package probe

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/config"
)

// modeWith is a mode whose results have the given outcomes.
func modeWith(mode, dialect string, outcomes ...string) ModeReport {
	m := ModeReport{Mode: mode, Dialect: dialect}
	for i, o := range outcomes {
		r := PromptResult{Prompt: string(rune('a' + i)), Outcome: o, Attempts: 1,
			Answer: Answer{Where: WhereContent, Dialect: dialect, Calls: 1, WellFormed: 1, SchemaValid: 1}}
		if mode == ModeNative {
			r.Answer.Where, r.Answer.Dialect = WhereToolCalls, "native"
		}
		if o == OutcomeRecovered {
			r.Attempts, r.RecoveredAt, r.Reflections = 3, 3, 2
		}
		if o == OutcomeFailed {
			r.Attempts, r.Reflections = 4, 3
		}
		m.Results = append(m.Results, r)
	}
	m.Summary = summarize(m.Results)
	return m
}

func TestRecommend(t *testing.T) {
	tests := []struct {
		name     string
		report   Report
		native   string
		dialect  string
		fallback string
		retries  int
		summary  string
	}{
		{
			name: "a prompted dialect beats native tools",
			report: Report{Modes: []ModeReport{
				modeWith(ModeNative, "", OutcomeFailed, OutcomeFailed, OutcomeOK),
				modeWith(ModePrompted, "json", OutcomeOK, OutcomeRecovered, OutcomeOK),
				modeWith(ModePrompted, "hermes", OutcomeOK, OutcomeOK, OutcomeFailed),
			}},
			native: NativeOff, dialect: "json", fallback: "hermes", retries: 2,
			summary: "dialect: json; fallback: hermes; native tools: off — present tools in the system prompt in json; repair: on; retries: 2",
		},
		{
			name: "native tools win a tie, the template names the dialect",
			report: Report{Template: TemplateEvidence{}, ModelTable: RuleMatch{Dialect: "mistral", Pattern: "mistral"}, Modes: []ModeReport{
				modeWith(ModeNative, "", OutcomeOK, OutcomeOK),
				modeWith(ModePrompted, "mistral", OutcomeOK, OutcomeOK),
			}},
			native: NativeUse, dialect: "mistral", fallback: "json", retries: 1,
			summary: "dialect: mistral; fallback: json; native tools: yes; repair: on; retries: 1",
		},
		{
			name:   "nothing works",
			report: Report{Modes: []ModeReport{modeWith(ModePrompted, "json", OutcomeFailed)}},
			native: NativeUntested, retries: 1,
			summary: "no way of asking produced the wanted calls: this model cannot be relied on for tool calls",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.report.Model, tt.report.API = "m", APIOllama
			rec := recommend(&tt.report)
			if rec.NativeTools != tt.native || rec.Dialect != tt.dialect || rec.MaxRetries != tt.retries || rec.Summary != tt.summary {
				t.Errorf("got %s / %s / %d / %q", rec.NativeTools, rec.Dialect, rec.MaxRetries, rec.Summary)
			}
			if got := strings.Join(rec.Fallback, ","); got != tt.fallback {
				t.Errorf("fallback %q, want %q", got, tt.fallback)
			}
			ms, err := config.ParseModels([]byte(rec.Config), "")
			var cfg config.Config
			if err == nil {
				cfg, _, _ = ms.For("m")
			}
			if err != nil || cfg.Dialect != tt.dialect || cfg.MaxRetries != tt.retries || strings.Join(cfg.Fallback, ",") != tt.fallback {
				t.Errorf("config %+v, %v:\n%s", cfg, err, rec.Config)
			}
		})
	}
}

// TestConfigUnderProbedProvider: the recommended configuration is written
// under the provider that was probed, and reads back from there.
func TestConfigUnderProbedProvider(t *testing.T) {
	for api, section := range map[string]string{
		APIOllama: "model:\n  providers:\n    ollama:\n      tool_call:\n",
		APIOpenAI: "model:\n  providers:\n    openai:\n      tool_call:\n",
		"":        "model:\n  providers:\n    ollama:\n      tool_call:\n",
	} {
		r := Report{Model: "m", API: api, Modes: []ModeReport{modeWith(ModePrompted, "hermes", OutcomeOK)}}
		rec := recommend(&r)
		if !strings.Contains(rec.Config, section) {
			t.Errorf("probe of %q: config not under its provider:\n%s", api, rec.Config)
		}
		ms, err := config.ParseModels([]byte(rec.Config), api)
		var cfg config.Config
		if err == nil {
			cfg, _, _ = ms.For("m")
		}
		if err != nil || cfg.Dialect != "hermes" {
			t.Errorf("probe of %q: config reads back as %+v, %v", api, cfg, err)
		}
	}
}
