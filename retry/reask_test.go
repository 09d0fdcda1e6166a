package retry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/longtest"
)

// requestBytes is the size of a request's messages as a client would send
// them.
func requestBytes(t *testing.T, m *fakeModel, i int) int {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	data, err := json.Marshal(m.reqs[i].Messages)
	if err != nil {
		t.Fatal(err)
	}
	return len(data)
}

// TestReaskIsBounded: a megabyte answer of repeated broken calls or bare
// markers makes re-asks of a bounded size (max_reflected_calls calls
// reflected, each with a bounded excerpt, the answer's text echoed up to
// max_reflected_content), not requests many times the answer's size.
func TestReaskIsBounded(t *testing.T) {
	// A megabyte in the long suites, 100 KB by default.
	size := longtest.Scaled(1 << 20)
	broken := hermes("get_weather", `{"city": 5}`)
	badName := hermes("get_wether", `{"city": "`+strings.Repeat("x", 2000)+`"}`)
	valid := hermes("get_weather", `{"city": "Paris"}`)
	answers := map[string]string{
		"broken calls":      strings.Repeat(broken+"\n", size/len(broken)),
		"long broken calls": strings.Repeat(badName+"\n", size/len(badName)),
		"repeated markers":  strings.Repeat("<tool_call>", size/11),
		"markers and prose": strings.Repeat("Let me call it. <tool_call>{\"name\": ", size/37),
		"valid and broken":  strings.Repeat(valid+"\n", size/len(valid)) + broken,
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			m := &fakeModel{steps: []step{text(answer), text(answer), text(answer), text(answer)}}
			loop, _ := newLoop(t, m, func(c *config.Config) { c.MaxRetries = 3 })
			_, _ = loop.Run(t.Context(), userTurn())
			if m.calls() < 2 {
				t.Skipf("no re-ask (%d requests)", m.calls())
			}
			first := requestBytes(t, m, 0)
			for i := 1; i < m.calls(); i++ {
				// Each re-ask adds at most: the echoed text (16 KiB), 8
				// reflections of a few KiB and 8 echoed calls, and one note.
				if grown := requestBytes(t, m, i) - first; grown > 64<<10*i {
					t.Errorf("request %d is %d bytes larger than the first, for a %d-byte answer", i+1, grown, len(answer))
				}
			}
		})
	}
}
