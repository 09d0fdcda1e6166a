package retry_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/retry"
)

func TestStatsCountOutcomes(t *testing.T) {
	stats := &retry.Stats{}
	run := func(configure func(*config.Config), steps ...step) {
		t.Helper()
		loop, _ := newLoop(t, &fakeModel{steps: steps}, configure)
		loop.Stats = stats
		_, _ = loop.Run(context.Background(), userTurn())
	}
	valid := text(hermes("get_weather", `{"city": "Paris"}`))
	repaired := text(hermes("get_weather", `{'city': 'Paris',}`))
	invalid := text(hermes("get_weather", `{"city": 1}`))
	unknown := text(hermes("get_wether", `{"city": "x"}`))
	run(nil, valid)
	run(nil, valid)
	run(nil, repaired)
	run(nil, invalid, valid)
	run(nil, invalid, unknown, valid)
	run(func(c *config.Config) { c.MaxRetries = 1 }, invalid, invalid)
	run(nil, failure(toolcall.Errorf(toolcall.CodeTransport, &client.TransportError{StatusCode: 503}, "x")), valid)

	s := stats.Snapshot()
	var singleQuotes int64
	for _, r := range registry.Parse(repaired.resp.Content, nil).Repairs {
		if r.Kind == toolcall.RepairSingleQuotes {
			singleQuotes++
		}
	}
	checks := []struct {
		name      string
		got, want int64
	}{
		{"runs", s.Runs, 7},
		{"succeeded", s.Succeeded, 6},
		{"failed", s.Failed, 1},
		{"parsed", s.Parsed, 3},
		{"repaired", s.Repaired, 1},
		{"recovered", s.Recovered, 2},
		{"recovered at 2", s.RecoveredAtAttempt[2], 1},
		{"recovered at 3", s.RecoveredAtAttempt[3], 1},
		{"failed TLP-006", s.FailedByCode[toolcall.CodeRetriesExhausted], 1},
		{"call errors TLP-004", s.CallErrorsByCode[toolcall.CodeSchema], 4},
		{"call errors TLP-005", s.CallErrorsByCode[toolcall.CodeUnknownTool], 1},
		{"single quotes", s.RepairsByKind[toolcall.RepairSingleQuotes], singleQuotes},
		{"attempts", s.Attempts, 11},
		{"reflections", s.Reflections, 4},
		{"transport retries", s.TransportRetries, 1},
		{"calls", s.Calls, 6},
		{"prompt tokens", s.PromptTokens, 1100},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if s.ModelTime <= 0 || s.ParseTime <= 0 || s.RunTime <= 0 || s.MaxRunTime <= 0 {
		t.Errorf("times = %v %v %v %v", s.ModelTime, s.ParseTime, s.RunTime, s.MaxRunTime)
	}
	// A snapshot is a copy.
	s.FailedByCode["x"] = 9
	if stats.Snapshot().FailedByCode["x"] != 0 {
		t.Error("Snapshot shares its maps")
	}
	stats.Reset()
	if s := stats.Snapshot(); s.Runs != 0 || len(s.RepairsByKind) != 0 {
		t.Errorf("after Reset: %+v", s)
	}
}

func TestStatsConcurrentUse(t *testing.T) {
	stats := &retry.Stats{}
	loop := &retry.Loop{Model: echoModel{}, Tools: toolSet(t), Stats: stats}
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, _ = loop.Run(context.Background(), userTurn())
		}()
		go func() {
			defer wg.Done()
			_ = stats.Snapshot()
		}()
	}
	wg.Wait()
	if s := stats.Snapshot(); s.Runs != 16 || s.Parsed != 16 {
		t.Errorf("runs %d parsed %d", s.Runs, s.Parsed)
	}
}

// Every time in the JSON the loop writes is in milliseconds, named *_ms,
// and reads back.
func TestJSONTimesAreMilliseconds(t *testing.T) {
	snap := retry.Snapshot{Runs: 1, RunTime: 1500 * time.Microsecond, ModelTime: time.Second, ParseTime: 250 * time.Microsecond, WaitTime: 2 * time.Millisecond, MaxRunTime: 1500 * time.Microsecond}
	data, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"run_time_ms":1.5`, `"model_time_ms":1000`, `"parse_time_ms":0.25`, `"wait_time_ms":2`, `"max_run_time_ms":1.5`, `"runs":1`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("snapshot JSON %s lacks %s", data, want)
		}
	}
	var back retry.Snapshot
	if err := json.Unmarshal(data, &back); err != nil || back.RunTime != snap.RunTime || back.ParseTime != snap.ParseTime || back.Runs != 1 {
		t.Errorf("read back %+v, %v", back, err)
	}
	out := retry.Outcome{Duration: 3 * time.Millisecond, Attempts: []retry.Attempt{{Number: 1, ModelTime: time.Millisecond, Wait: 500 * time.Microsecond}}}
	data, err = json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"duration_ms":3`, `"model_time_ms":1`, `"wait_ms":0.5`, `"parse_time_ms":0`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("outcome JSON %s lacks %s", data, want)
		}
	}
	if strings.Contains(string(data), `"duration":`) || strings.Contains(string(data), `"wait":`) {
		t.Errorf("outcome JSON %s still has nanosecond fields", data)
	}
	var outBack retry.Outcome
	if err := json.Unmarshal(data, &outBack); err != nil || outBack.Duration != out.Duration || outBack.Attempts[0].Wait != 500*time.Microsecond {
		t.Errorf("read back %+v, %v", outBack, err)
	}
}
