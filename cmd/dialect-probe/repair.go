package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/lenient"
)

type repairFlags struct {
	json     bool
	jsonl    bool
	maxSize  int
	maxDepth int
	timeout  time.Duration
	maxLine  int
}

func newRepairCmd() *cobra.Command {
	var f repairFlags
	cmd := &cobra.Command{
		Use:   "repair [FILE]",
		Short: "Turn almost-JSON into strict JSON",
		Long: `repair reads almost-JSON (from FILE, or standard input) and prints strict JSON:
valid JSON byte for byte (an object that repeats a key keeps the last value,
a duplicate_key repair), otherwise repaired (trailing commas, single quotes,
unquoted keys, Python literals, missing closing brackets, truncated strings,
unescaped quotes, comments, code fences, prose around the value, ...), with
the list of repairs it made.

With --json, the result is
  {"output": "<strict JSON text>" | null,
   "repairs": [{"kind", "offset", "call_index", "detail"?, "risky"?}],
   "errors": [{"code", "message"}]}
repairs and errors in the shape parse --json gives them.

With --jsonl, every input line is {"id": "...", "input": "<almost-JSON>"} and
every output line is
  {"id": "...", "output": "<strict JSON text>" | null, "error": "<code>: <message>" | null,
   "repairs": ["trailing_comma", ...],
   "repair_details": [{"kind", "offset", "call_index", ...}], "errors": [{"code", "message"}]}
in the same order, with the same id: "error" and "repairs" as they always
were, and beside them the same as objects, in parse's shape.

Exit status: 0 when the input is JSON or was repaired into JSON; 1 when it
could not be repaired (its coded error is printed on standard error); 2 for
usage and I/O errors. With --jsonl the status is 0 unless reading or writing
failed: errors are reported per line.`,
		Example: `  echo "{'path': 'a.txt',}" | dialect-probe repair
  dialect-probe repair --jsonl < broken.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runRepair(cmd, args, &f) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print the result as JSON")
	fl.BoolVar(&f.jsonl, "jsonl", false, "read and write JSON lines (see above)")
	fl.IntVar(&f.maxSize, "max-size", lenient.DefaultMaxSize, "largest input accepted, in bytes")
	fl.IntVar(&f.maxDepth, "max-depth", lenient.DefaultMaxDepth, "deepest nesting accepted")
	fl.DurationVar(&f.timeout, "timeout", lenient.DefaultTimeout, "time budget of one repair")
	fl.IntVar(&f.maxLine, "max-line", defaultMaxLine, "longest --jsonl input line accepted, in bytes")
	return cmd
}

// repairOutput is one --jsonl output line. Error and Repairs keep the
// contract's shape (a "<code>: <message>" string, the repair kinds);
// Errors and RepairDetails give the same as objects, in the shape parse
// gives them.
type repairOutput struct {
	ID            json.RawMessage   `json:"id,omitempty"`
	Output        *string           `json:"output"`
	Error         *string           `json:"error"`
	Repairs       []string          `json:"repairs"`
	RepairDetails []toolcall.Repair `json:"repair_details"`
	Errors        []errorRecord     `json:"errors"`
}

// repairJSON is the --json result: repairs and errors as objects, as
// parse --json gives them.
type repairJSON struct {
	Output  *string           `json:"output"`
	Repairs []toolcall.Repair `json:"repairs"`
	Errors  []errorRecord     `json:"errors"`
}

func runRepair(cmd *cobra.Command, args []string, f *repairFlags) error {
	opts := &lenient.Options{MaxSize: f.maxSize, MaxDepth: f.maxDepth, Timeout: f.timeout}
	in, err := input(cmd, args)
	if err != nil {
		return err
	}
	defer in.Close()
	if f.jsonl {
		return eachLine(in, cmd.OutOrStdout(), f.maxLine,
			func(line []byte) any { return repairLine(line, opts) },
			func(id json.RawMessage, e *toolcall.Error) any { return failedRepair(id, e) })
	}
	// Read one byte past the limit so that an oversized input is reported
	// as such rather than cut.
	data, err := io.ReadAll(io.LimitReader(in, int64(f.maxSize)+1))
	if err != nil {
		return err
	}
	out := toRepairOutput(lenient.Repair(data, opts))
	w := cmd.OutOrStdout()
	switch {
	case f.json:
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(repairJSON{Output: out.Output, Repairs: out.RepairDetails, Errors: out.Errors}); err != nil {
			return err
		}
	case out.Output != nil && len(out.Repairs) == 0:
		// Valid input, byte for byte: its own line ending or none.
		if _, err := io.WriteString(w, *out.Output); err != nil {
			return err
		}
	case out.Output != nil:
		fmt.Fprintln(w, *out.Output)
		for _, r := range out.RepairDetails {
			fmt.Fprintln(cmd.ErrOrStderr(), "repaired:", r)
		}
	default:
		fmt.Fprintln(cmd.ErrOrStderr(), *out.Error)
	}
	if out.Error != nil {
		return exitError{1}
	}
	return nil
}

func repairLine(line []byte, opts *lenient.Options) repairOutput {
	var in struct {
		ID    json.RawMessage `json:"id"`
		Input *string         `json:"input"`
	}
	if err := json.Unmarshal(line, &in); err != nil {
		return failedRepair(lineID(line), toolcall.Errorf(toolcall.CodeInvalidInput, err, "line is not a JSON object: "+err.Error()))
	}
	if in.Input == nil {
		return failedRepair(in.ID, toolcall.NewError(toolcall.CodeInvalidInput, `line has no "input" string`))
	}
	out := toRepairOutput(lenient.Repair([]byte(*in.Input), opts))
	out.ID = in.ID
	return out
}

func failedRepair(id json.RawMessage, e *toolcall.Error) repairOutput {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	msg := e.Error()
	return repairOutput{ID: id, Error: &msg, Repairs: []string{}, RepairDetails: []toolcall.Repair{}, Errors: []errorRecord{toErrorRecord(e)}}
}

func toRepairOutput(r lenient.Result) repairOutput {
	out := repairOutput{Repairs: make([]string, 0, len(r.Repairs)), RepairDetails: r.Repairs, Errors: []errorRecord{}}
	if out.RepairDetails == nil {
		out.RepairDetails = []toolcall.Repair{}
	}
	for _, rep := range r.Repairs {
		out.Repairs = append(out.Repairs, string(rep.Kind))
	}
	if r.Err != nil {
		msg := r.Err.Error()
		out.Error = &msg
		var e *toolcall.Error
		if !errors.As(r.Err, &e) {
			e = toolcall.Errorf(toolcall.CodeRepairFailed, r.Err, r.Err.Error())
		}
		out.Errors = append(out.Errors, toErrorRecord(e))
		return out
	}
	s := string(r.Output)
	out.Output = &s
	return out
}
