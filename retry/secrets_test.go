package retry_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/config"
)

// credentialShapes are secrets in the shapes the redactor knows.
var credentialShapes = []string{
	"sk-proj0123456789abcdefABCDEF",
	"ghp_0123456789abcdefghijABCDEFGHIJ",
	"xoxb-0123456789-abcdefghij",
	"AKIAABCDEFGHIJKLMNOP",
	"AIzaSyA0123456789abcdefghijklmnopqrstuv",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlMTIzNDU2",
}

// TestNoCredentialsInLogsAboveDebug: a model that puts a credential in a
// tool name or in an argument key gets its call reflected, and no record
// above DEBUG carries the credential (tool_name=, validation_errors=,
// tool_names=), whatever its shape.
func TestNoCredentialsInLogsAboveDebug(t *testing.T) {
	for _, secret := range credentialShapes {
		t.Run(secret[:6], func(t *testing.T) {
			m := &fakeModel{steps: []step{
				text(hermes(secret, `{"city": "Paris"}`)),
				text(hermes("get_weather", `{"city": "Paris", "`+secret+`": 1}`)),
				text(hermes("get_weather", `{"city": "Paris"}`)),
			}}
			h := newCapture()
			loop, _ := newLoop(t, m, func(c *config.Config) { c.LogArgumentValues = true })
			loop.Logger = slog.New(h)
			if _, err := loop.Run(context.Background(), userTurn()); err != nil {
				t.Fatalf("run: %v", err)
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			for _, r := range *h.recs {
				if r.level > slog.LevelDebug && strings.Contains(r.text(), secret) {
					t.Errorf("%s record carries the credential: %s", r.level, r.text())
				}
			}
		})
	}
}
