package retry_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/redact"
	"github.com/dialectkit/toolcall/retry"
)

// record is one captured log record, its attributes flattened to text.
type record struct {
	level slog.Level
	msg   string
	attrs map[string]string
}

func (r record) text() string {
	var b strings.Builder
	b.WriteString(r.msg)
	for k, v := range r.attrs {
		b.WriteString(" " + k + "=" + v)
	}
	return b.String()
}

// captureHandler keeps every record at every level.
type captureHandler struct {
	mu     *sync.Mutex
	recs   *[]record
	attrs  []slog.Attr
	groups string
}

func newCapture() *captureHandler { return &captureHandler{mu: &sync.Mutex{}, recs: &[]record{}} }

func (h *captureHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *captureHandler) Handle(_ context.Context, r slog.Record) error {
	rec := record{level: r.Level, msg: r.Message, attrs: map[string]string{}}
	var add func(prefix string, a slog.Attr)
	add = func(prefix string, a slog.Attr) {
		v := a.Value.Resolve()
		if v.Kind() == slog.KindGroup {
			for _, g := range v.Group() {
				add(prefix+a.Key+".", g)
			}
			return
		}
		rec.attrs[prefix+a.Key] = v.String()
	}
	for _, a := range h.attrs {
		add(h.groups, a)
	}
	r.Attrs(func(a slog.Attr) bool { add(h.groups, a); return true })
	h.mu.Lock()
	*h.recs = append(*h.recs, rec)
	h.mu.Unlock()
	return nil
}

func (h *captureHandler) WithAttrs(as []slog.Attr) slog.Handler {
	cp := *h
	cp.attrs = append(append([]slog.Attr(nil), h.attrs...), as...)
	return &cp
}

func (h *captureHandler) WithGroup(name string) slog.Handler {
	cp := *h
	cp.groups += name + "."
	return &cp
}

func (h *captureHandler) records() []record {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]record(nil), *h.recs...)
}

// The values below appear only in arguments the model wrote.
const (
	secretPassword = "hunter2-Pa55"
	secretKey      = "sk-proj-abcdefghijklmnop12345"
	plainUser      = "alice.liddell"
	plainCity      = "Timbuktu"
	plainDays      = "threeish"
)

func loggingScript() []step {
	first := hermes("login", `{"user": "`+plainUser+`", "password": "`+secretPassword+`"}`) +
		hermes("get_weather", `{"city": "`+plainCity+`", "days": "`+plainDays+`", "api_key": "`+secretKey+`"}`) +
		hermes("get_time", `{"timezone": {{{{`+plainCity+`}}}}`)
	second := hermes("get_weather", `{"city": "`+plainCity+`", "days": 3}`) + hermes("get_time", `{"timezone": "UTC"}`)
	overloaded := toolcall.Errorf(toolcall.CodeTransport,
		&client.TransportError{StatusCode: 503, Message: `overloaded while decoding {"password": "` + secretPassword + `", "city": "` + plainCity + `"}`}, "server error")
	return []step{text(first), failure(overloaded), text(second)}
}

func TestLogsNeverShowValuesAboveDebug(t *testing.T) {
	for _, values := range []bool{false, true} {
		t.Run(fmt.Sprintf("log_argument_values=%v", values), func(t *testing.T) {
			h := newCapture()
			m := &fakeModel{steps: loggingScript()}
			loop, _ := newLoop(t, m, func(c *config.Config) { c.LogArgumentValues = values })
			loop.Logger = slog.New(h)
			out, err := loop.Run(context.Background(), userTurn())
			if err != nil {
				t.Fatal(err)
			}
			recs := h.records()
			if len(recs) == 0 {
				t.Fatal("no records")
			}
			plain := []string{plainUser, plainCity, plainDays}
			secrets := []string{secretPassword, secretKey}
			sawValueAtDebug, sawRedacted := false, false
			for _, r := range recs {
				text := r.text()
				for _, s := range secrets {
					if strings.Contains(text, s) {
						t.Errorf("%v record leaks a secret: %s", r.level, text)
					}
				}
				for _, v := range plain {
					if !strings.Contains(text, v) {
						continue
					}
					if r.level > slog.LevelDebug || !values {
						t.Errorf("%v record shows an argument value (%s): %s", r.level, v, text)
					}
					sawValueAtDebug = true
				}
				sawRedacted = sawRedacted || strings.Contains(text, redact.Redacted)
				if r.attrs[retry.KeyCorrelationID] != out.CorrelationID {
					t.Errorf("record without the correlation id: %s", text)
				}
			}
			if values && (!sawValueAtDebug || !sawRedacted) {
				t.Errorf("with log_argument_values, DEBUG shows values (%v) and redacts secrets (%v)", sawValueAtDebug, sawRedacted)
			}
			checkLevels(t, recs, out)
		})
	}
}

// checkLevels checks the records the spec asks for: repairs at DEBUG, each
// retry at INFO with its number, the outcome at INFO.
func checkLevels(t *testing.T, recs []record, out *retry.Outcome) {
	t.Helper()
	var retries, outcomes, transport int
	for _, r := range recs {
		switch r.msg {
		case "tool call retry":
			retries++
			if r.level != slog.LevelInfo || r.attrs[retry.KeyRetryCount] != "1" || r.attrs[retry.KeyParseResult] != retry.ParseRetry ||
				r.attrs[retry.KeyToolName] == "" || r.attrs[retry.KeyToolCallID] == "" || r.attrs[retry.KeyErrorCode] == "" {
				t.Errorf("retry record: %v %v", r.level, r.attrs)
			}
		case "tool calls parsed":
			outcomes++
			if r.level != slog.LevelInfo || r.attrs[retry.KeyParseResult] != retry.ParseRetry ||
				r.attrs[retry.KeyTotalTokens] != fmt.Sprint(out.TotalTokens()) || r.attrs[retry.KeyRetryCount] != "1" {
				t.Errorf("outcome record: %v %v", r.level, r.attrs)
			}
		case "model request failed, retrying":
			transport++
			if r.level != slog.LevelInfo || r.attrs["http_status"] != "503" {
				t.Errorf("transport record: %v %v", r.level, r.attrs)
			}
		case "tool call repaired":
			if r.level != slog.LevelDebug {
				t.Errorf("repair record at %v", r.level)
			}
		}
	}
	if retries != 2 || outcomes != 1 || transport != 1 {
		t.Errorf("%d retry records (want one per failed call: 2), %d outcome, %d transport", retries, outcomes, transport)
	}
}

func TestExhaustionLogsAtWarn(t *testing.T) {
	h := newCapture()
	bad := text(hermes("get_weather", `{"city": 1}`))
	m := &fakeModel{steps: []step{bad, bad}}
	loop, _ := newLoop(t, m, func(c *config.Config) { c.MaxRetries = 1 })
	loop.Logger = slog.New(h)
	if _, err := loop.Run(context.Background(), userTurn()); err == nil {
		t.Fatal("no error")
	}
	var warn *record
	for _, r := range h.records() {
		if r.level == slog.LevelWarn {
			warn = &r
		}
	}
	if warn == nil || warn.msg != "tool call retries exhausted" || warn.attrs[retry.KeyErrorCode] != "TLP-006" ||
		warn.attrs[retry.KeyParseResult] != retry.ParseFail || warn.attrs["last_error"] != "TLP-004 (get_weather)" {
		t.Errorf("warn record = %+v", warn)
	}
}

func TestRepairsAreLoggedAtDebug(t *testing.T) {
	h := newCapture()
	m := &fakeModel{steps: []step{text(hermes("get_weather", `{'city': 'Paris',}`))}}
	loop, _ := newLoop(t, m, nil)
	loop.Logger = slog.New(h)
	out, err := loop.Run(context.Background(), userTurn())
	if err != nil {
		t.Fatal(err)
	}
	var repaired, final *record
	for _, r := range h.records() {
		switch r.msg {
		case "tool call repaired":
			repaired = &r
		case "tool calls parsed":
			final = &r
		}
	}
	if repaired == nil || repaired.level != slog.LevelDebug || !strings.Contains(repaired.attrs[retry.KeyRepairApplied], "single_quotes") ||
		repaired.attrs[retry.KeyToolCallID] != out.Result.Calls[0].ID || repaired.attrs[retry.KeyParseTimeMS] == "" {
		t.Errorf("repair record = %+v", repaired)
	}
	if final == nil || final.attrs[retry.KeyParseResult] != retry.ParseRepaired {
		t.Errorf("outcome record = %+v", final)
	}
	// Details off: no repair records.
	h = newCapture()
	m = &fakeModel{steps: []step{text(hermes("get_weather", `{'city': 'Paris',}`))}}
	loop, _ = newLoop(t, m, func(c *config.Config) { c.LogRepairDetails = false })
	loop.Logger = slog.New(h)
	if _, err := loop.Run(context.Background(), userTurn()); err != nil {
		t.Fatal(err)
	}
	for _, r := range h.records() {
		if r.msg == "tool call repaired" {
			t.Error("repair record with log_repair_details off")
		}
	}
}

func TestLoggingOffCostsNothing(t *testing.T) {
	// A nil Logger and a handler that drops everything both work.
	m := &fakeModel{steps: []step{text(hermes("get_weather", `{"city": 1}`)), text(hermes("get_weather", `{"city": "x"}`))}}
	loop, _ := newLoop(t, m, nil)
	loop.Logger = slog.New(slog.DiscardHandler)
	if _, err := loop.Run(context.Background(), userTurn()); err != nil {
		t.Fatal(err)
	}
}

func TestTruncationAndRejectionAreLoggedAtInfo(t *testing.T) {
	h := newCapture()
	rejected := toolcall.Errorf(toolcall.CodeRequestRejected, &client.TransportError{StatusCode: 400, Message: `bad {"password": "` + secretPassword + `"}`}, "rejected")
	m := &fakeModel{steps: []step{failure(rejected), truncated(`<tool_call>{"name": "login", "arguments": {"password": "`+secretPassword, 50), text(hermes("get_weather", `{"city": "Paris"}`))}}
	loop, _ := newLoop(t, m, func(c *config.Config) { c.LogArgumentValues = true })
	loop.Logger = slog.New(h)
	req := userTurn()
	req.MaxTokens = 50
	if _, err := loop.Run(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	var reasons []string
	for _, r := range h.records() {
		if strings.Contains(r.text(), secretPassword) {
			t.Errorf("secret in %v record: %s", r.level, r.text())
		}
		if r.msg == "tool call retry" {
			if r.level != slog.LevelInfo {
				t.Errorf("retry record at %v", r.level)
			}
			reasons = append(reasons, r.attrs["reason"]+":"+r.attrs[retry.KeyErrorCode]+":"+r.attrs["max_tokens"])
		}
	}
	if got := strings.Join(reasons, " "); got != "rejected:TLP-020: truncation:TLP-014:100" {
		t.Errorf("retry records = %s", got)
	}
}
