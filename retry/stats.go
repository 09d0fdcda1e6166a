package retry

import (
	"encoding/json"
	"errors"
	"maps"
	"sync"
	"time"

	"github.com/dialectkit/toolcall"
)

// Stats collects counts and times over many runs. It is safe for
// concurrent use; the zero value is ready. Share one between loops to
// aggregate them.
type Stats struct {
	mu sync.Mutex
	s  Snapshot
}

// Snapshot is a copy of the statistics at one moment.
type Snapshot struct {
	// Runs counts runs; Succeeded + Failed == Runs.
	Runs      int64 `json:"runs"`
	Succeeded int64 `json:"succeeded"`
	Failed    int64 `json:"failed"`
	// Parsed counts runs valid at the first attempt with nothing repaired,
	// Repaired those valid at the first attempt after repair, Recovered
	// those that needed more attempts.
	Parsed    int64 `json:"parsed"`
	Repaired  int64 `json:"repaired"`
	Recovered int64 `json:"recovered"`
	// RecoveredAtAttempt counts recovered runs by the attempt that
	// succeeded (2 for the first retry).
	RecoveredAtAttempt map[int]int64 `json:"recovered_at_attempt"`
	// FailedByCode counts failed runs by error code (TLP-006, TLP-022, …).
	FailedByCode map[toolcall.Code]int64 `json:"failed_by_code"`
	// CallErrorsByCode counts failed calls of every attempt by code.
	CallErrorsByCode map[toolcall.Code]int64 `json:"call_errors_by_code"`
	// RepairsByKind counts repairs applied in every attempt, by kind.
	RepairsByKind map[toolcall.RepairKind]int64 `json:"repairs_by_kind"`
	// Calls counts the valid calls returned.
	Calls int64 `json:"calls"`
	// Attempts counts model turns; Reflections the re-asks sent
	// (one per failed call); Truncations and Rejections the answers cut
	// off and the requests refused; TransportRetries the requests
	// repeated after a transport failure.
	Attempts         int64 `json:"attempts"`
	Reflections      int64 `json:"reflections"`
	Truncations      int64 `json:"truncations"`
	Rejections       int64 `json:"rejections"`
	TransportRetries int64 `json:"transport_retries"`
	// PromptTokens and CompletionTokens sum the server's counts.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	// Times summed over runs; MaxRunTime is the longest run. In JSON they
	// are milliseconds: run_time_ms, model_time_ms, parse_time_ms,
	// wait_time_ms, max_run_time_ms.
	RunTime    time.Duration `json:"-"`
	ModelTime  time.Duration `json:"-"`
	ParseTime  time.Duration `json:"-"`
	WaitTime   time.Duration `json:"-"`
	MaxRunTime time.Duration `json:"-"`
}

// snapshotTimes are a Snapshot's times in JSON, milliseconds.
type snapshotTimes struct {
	RunTime    float64 `json:"run_time_ms"`
	ModelTime  float64 `json:"model_time_ms"`
	ParseTime  float64 `json:"parse_time_ms"`
	WaitTime   float64 `json:"wait_time_ms"`
	MaxRunTime float64 `json:"max_run_time_ms"`
}

// MarshalJSON writes the snapshot with its times in milliseconds
// (run_time_ms, …), like every JSON the module writes.
func (s Snapshot) MarshalJSON() ([]byte, error) {
	type plain Snapshot
	return json.Marshal(struct {
		plain
		snapshotTimes
	}{plain(s), snapshotTimes{ms(s.RunTime), ms(s.ModelTime), ms(s.ParseTime), ms(s.WaitTime), ms(s.MaxRunTime)}})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *Snapshot) UnmarshalJSON(data []byte) error {
	type plain Snapshot
	var v struct {
		plain
		snapshotTimes
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*s = Snapshot(v.plain)
	s.RunTime, s.ModelTime, s.ParseTime = fromMS(v.snapshotTimes.RunTime), fromMS(v.snapshotTimes.ModelTime), fromMS(v.snapshotTimes.ParseTime)
	s.WaitTime, s.MaxRunTime = fromMS(v.snapshotTimes.WaitTime), fromMS(v.snapshotTimes.MaxRunTime)
	return nil
}

// fromMS converts milliseconds to a Duration.
func fromMS(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

// Snapshot returns a copy of the statistics.
func (s *Stats) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.s
	out.RecoveredAtAttempt = maps.Clone(s.s.RecoveredAtAttempt)
	out.FailedByCode = maps.Clone(s.s.FailedByCode)
	out.CallErrorsByCode = maps.Clone(s.s.CallErrorsByCode)
	out.RepairsByKind = maps.Clone(s.s.RepairsByKind)
	if out.RecoveredAtAttempt == nil {
		out.RecoveredAtAttempt = map[int]int64{}
	}
	if out.FailedByCode == nil {
		out.FailedByCode = map[toolcall.Code]int64{}
	}
	if out.CallErrorsByCode == nil {
		out.CallErrorsByCode = map[toolcall.Code]int64{}
	}
	if out.RepairsByKind == nil {
		out.RepairsByKind = map[toolcall.RepairKind]int64{}
	}
	return out
}

// Reset clears the statistics.
func (s *Stats) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.s = Snapshot{}
}

// record adds one run. out is nil when the run stopped before asking the
// model (circuit open).
func (s *Stats) record(out *Outcome, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &s.s
	if st.RecoveredAtAttempt == nil {
		st.RecoveredAtAttempt = map[int]int64{}
		st.FailedByCode = map[toolcall.Code]int64{}
		st.CallErrorsByCode = map[toolcall.Code]int64{}
		st.RepairsByKind = map[toolcall.RepairKind]int64{}
	}
	st.Runs++
	if out != nil {
		for i := range out.Attempts {
			a := &out.Attempts[i]
			st.Attempts++
			st.Reflections += int64(len(a.Reflections))
			st.TransportRetries += int64(a.TransportRetries)
			st.ModelTime += a.ModelTime
			st.ParseTime += a.ParseTime
			st.WaitTime += a.Wait
			st.PromptTokens += int64(a.PromptTokens)
			st.CompletionTokens += int64(a.CompletionTokens)
			switch {
			case a.Truncated:
				st.Truncations++
			case a.Rejected:
				st.Rejections++
			default:
				for _, e := range a.Errors {
					if e.CallIndex >= 0 {
						st.CallErrorsByCode[e.Code]++
					}
				}
			}
			for _, r := range a.Repairs {
				st.RepairsByKind[r.Kind]++
			}
		}
		st.RunTime += out.Duration
		st.MaxRunTime = max(st.MaxRunTime, out.Duration)
	}
	if err != nil {
		st.Failed++
		var e *toolcall.Error
		code := toolcall.Code("")
		if errors.As(err, &e) {
			code = e.Code
		}
		st.FailedByCode[code]++
		return
	}
	st.Succeeded++
	st.Calls += int64(len(out.Result.Calls))
	switch n := len(out.Attempts); {
	case n > 1:
		st.Recovered++
		st.RecoveredAtAttempt[n]++
	case len(out.Result.Repairs) > 0:
		st.Repaired++
	default:
		st.Parsed++
	}
}
