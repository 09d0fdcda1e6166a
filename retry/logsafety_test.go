package retry_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/redact"
	"github.com/dialectkit/toolcall/retry"
	"github.com/dialectkit/toolcall/schema"
)

// The secrets below appear only in what the model wrote and in what the
// server answered. None of them may reach a log record whole or in part,
// at any level; the plain values may appear at DEBUG only, and only with
// log_argument_values.
var (
	safetyPassword = "correct-horse-battery-staple-42"
	safetyAPIKey   = "sk-proj-Qm9yZ2V0TWVOb3RLZXkxMjM0NTY3"
	safetyBearer   = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNlY3JldA"
	safetyGitHub   = "ghp_R2l0SHViVG9rZW5Ob3RSZWFsMTIzNDU2"
	safetyAWS      = "AKIAIOSFODNN7SAFETY1"
	safetySecrets  = []string{safetyPassword, safetyAPIKey, safetyBearer, safetyGitHub, safetyAWS}

	safetyPlain = []string{"alice-in-wonderland", "Ouagadougou", "/var/data/report.csv", "fortnightish"}
)

func safetyTools(t *testing.T) *schema.Set {
	t.Helper()
	set, err := schema.NewSet(
		toolcall.Tool{Name: "login", Parameters: json.RawMessage(`{"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string"}},"required":["user","password"]}`)},
		toolcall.Tool{Name: "http_get", Parameters: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"},"headers":{"type":"object"}},"required":["url"]}`)},
		toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`)},
		toolcall.Tool{Name: "read_file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
	)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// straddling returns arguments, as compact JSON, whose password value is
// cut in two by Excerpt(args, limit): the part after the cut shows without
// its key. A redactor run on the excerpt cannot recognise it; run on the
// whole text, it can.
func straddling(t *testing.T, limit int) string {
	t.Helper()
	for pad := 0; pad < 4*limit; pad += 7 {
		args := `{"path":"` + strings.Repeat("a", limit) + `","password":"` + safetyPassword + `","note":"` + strings.Repeat("z", pad) + `"}`
		ex := retry.Excerpt(args, limit)
		if !strings.Contains(ex, safetyPassword) && strings.Contains(ex, safetyPassword[len(safetyPassword)/2:]) {
			return args
		}
	}
	t.Fatalf("no padding puts the excerpt's cut inside the password (limit %d)", limit)
	return ""
}

// safetyScript makes a run go through every path that handles the model's
// text: a valid call, a repaired call, a call that breaks its schema and is
// reflected, an unknown tool, calls in three dialects, a server error that
// quotes the request, a request the server rejects, long arguments whose
// excerpts cut a secret in two, and a final valid answer.
func safetyScript(t *testing.T) []step {
	first := hermes("login", `{"user": "alice-in-wonderland", "password": "`+safetyPassword+`"}`) +
		hermes("http_get", `{"url": "https://api.example.com/v1?key=`+safetyAPIKey+`", "headers": {"Authorization": "Bearer `+safetyBearer+`",}}`) +
		hermes("get_weather", `{"city": "Ouagadougou", "days": "fortnightish", "token": "`+safetyGitHub+`"}`) +
		hermes("read_file", straddling(t, 4096)) +
		hermes("read_file", straddling(t, retry.MaxExcerpt)) +
		hermes("upload", `{"path": "/var/data/report.csv", "aws_key": "`+safetyAWS+`"}`)
	overloaded := toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: 503,
		Message: `overloaded while decoding {"password": "` + safetyPassword + `", "user": "alice-in-wonderland"}`}, "server error")
	rejected := toolcall.Errorf(toolcall.CodeRequestRejected, &client.TransportError{StatusCode: 400,
		Message: `invalid tool call arguments: {"headers": {"Authorization": "Bearer ` + safetyBearer + `"}, "api_key": "` + safetyAPIKey + `"}`}, "request rejected")
	pythonic := `[login(user="alice-in-wonderland", password="` + safetyPassword + `"), get_weather(city="Ouagadougou", days="fortnightish")]`
	tagged := "<tool_call>\n<function=login>\n<parameter=user>\nalice-in-wonderland\n</parameter>\n<parameter=password>\n" + safetyPassword + "\n</parameter>\n</function>\n</tool_call>"
	final := hermes("login", `{"user": "alice-in-wonderland", "password": "`+safetyPassword+`"}`) +
		hermes("get_weather", `{"city": "Ouagadougou", "days": 14}`)
	native := native(dialects.RawCall{Name: "http_get", Arguments: `{"url": "https://x.example/?token=` + safetyGitHub + `", "headers": {"X-Api-Key": "` + safetyAPIKey + `"}`})
	return []step{text(first), failure(overloaded), text(pythonic), failure(rejected), native, text(tagged), text(final)}
}

// TestLogSafety captures every record of runs that parse, repair, retry
// and reject calls holding secrets, with and without log_argument_values,
// and with the run ending in success and in exhaustion. No record, at any
// level, holds any part of a secret; no record above DEBUG holds an
// argument value; and with log_argument_values, DEBUG shows the plain
// values and marks the secrets as redacted.
func TestLogSafety(t *testing.T) {
	for _, values := range []bool{false, true} {
		for _, retries := range []int{10, 1} { // enough to succeed, and not
			t.Run(fmt.Sprintf("values=%v/retries=%d", values, retries), func(t *testing.T) {
				h := newCapture()
				m := &fakeModel{steps: safetyScript(t)}
				loop, _ := newLoop(t, m, func(c *config.Config) {
					c.LogArgumentValues = values
					c.MaxRetries = retries
					c.ModelHTTPRetries = 2
					c.TransportRetries = 2
				})
				loop.Tools = safetyTools(t)
				loop.Logger = slog.New(h)
				out, err := loop.Run(context.Background(), userTurn())
				if retries == 10 && err != nil {
					t.Fatalf("run failed: %v", err)
				}
				if retries == 1 && !errors.Is(err, toolcall.ErrRetriesExhausted) {
					t.Fatalf("err = %v, want TLP-006", err)
				}
				recs := h.records()
				checkRecords(t, recs, values, err == nil)
				// The errors a caller may log are as safe as the records.
				var texts []string
				if err != nil {
					texts = append(texts, err.Error())
				}
				for _, a := range out.Attempts {
					for _, e := range a.Errors {
						texts = append(texts, e.Error())
					}
				}
				for _, s := range texts {
					if leak := leakedPart(s, append(append([]string(nil), safetySecrets...), safetyPlain...)); leak != "" {
						t.Errorf("error text shows %q: %s", leak, s)
					}
				}
			})
		}
	}
}

// checkRecords applies the log-safety rules to captured records.
func checkRecords(t *testing.T, recs []record, values, complete bool) {
	t.Helper()
	if len(recs) == 0 {
		t.Fatal("no records")
	}
	seen := map[string]bool{}
	sawValue, sawRedacted := false, false
	for _, r := range recs {
		text := r.text()
		seen[r.msg] = true
		if leak := leakedPart(text, safetySecrets); leak != "" {
			t.Errorf("%v %q record shows %q of a secret: %s", r.level, r.msg, leak, text)
		}
		for _, v := range safetyPlain {
			if strings.Contains(text, v) {
				if r.level > slog.LevelDebug || !values {
					t.Errorf("%v %q record shows the argument value %q", r.level, r.msg, v)
				}
				sawValue = true
			}
		}
		sawRedacted = sawRedacted || strings.Contains(text, redact.Redacted)
	}
	// A complete run went through every path that logs: otherwise the
	// test proves less than it says.
	want := []string{"tool call retry", "model request failed, retrying"}
	if !complete {
		want = []string{"tool call retries exhausted"}
	}
	if values && complete {
		want = append(want, "tool call arguments", "tool call output", "tool call re-ask", "model server message")
	}
	for _, msg := range want {
		if !seen[msg] {
			t.Errorf("no %q record: the script missed a path", msg)
		}
	}
	if values && (!sawValue || !sawRedacted) {
		t.Errorf("with log_argument_values, DEBUG shows plain values (%v) and redacts secrets (%v)", sawValue, sawRedacted)
	}
}

// leakedPart returns the first 8-byte piece of any of the strings that
// text contains, or "".
func leakedPart(text string, secrets []string) string {
	const window = 8
	for _, s := range secrets {
		for i := 0; i+window <= len(s); i++ {
			if piece := s[i : i+window]; strings.Contains(text, piece) {
				return piece
			}
		}
	}
	return ""
}
