// Command dialect-probe tells how a model calls tools, and parses or repairs
// captured model output from the shell.
//
//	dialect-probe parse [FILE]      extract tool calls from model output
//	dialect-probe repair [FILE]     turn almost-JSON into JSON
//	dialect-probe dialects          list the dialects it knows
//	dialect-probe probe             find out how a model calls tools
//	dialect-probe detect FILE       name the dialect of a chat template
//	dialect-probe serve --upstream URL  run a proxy that fixes tool calls
//
// parse --jsonl and repair --jsonl are stable machine interfaces: one JSON
// object per input line in, one per line out, same order, same id, and a
// coded error (never a crash) for a line that is not valid input.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/spf13/cobra"
)

// exitError carries a process exit code through cobra.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit code: 0 success, 1
// when the input parsed with errors, 2 for usage or I/O errors.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

// runContext is run with a context: cancelling it stops a command that
// runs until stopped (serve) as a signal would.
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintln(stderr, "dialect-probe:", err)
	return 2
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "dialect-probe",
		Short: "Find out how a model calls tools; parse and repair what it wrote",
		Long: `dialect-probe turns whatever a local language model wrote into valid tool calls.

It knows the tool-call dialects of open model families (Hermes <tool_call> tags,
pythonic [f(a=1)], fenced JSON, Mistral [TOOL_CALLS], Ollama's native tool_calls,
and more: see "dialect-probe dialects"), detects which one a model wrote, repairs
almost-JSON arguments, and validates them against the tools' JSON Schemas.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
	}
	root.SetVersionTemplate("dialect-probe {{.Version}}\n")
	// -v is --verbose in every command that logs; the version is -V, so
	// that one letter never means two things.
	root.Flags().BoolP("version", "V", false, "print the version, the revision it was built from, and the Go version")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newParseCmd(), newRepairCmd(), newDialectsCmd(), newCallCmd(), newProbeCmd(), newDetectCmd(), newStatsCmd(), newDebugCmd(), newConfigCmd(), newServeCmd())
	return root
}

// input opens the file named by args[0], or standard input. Reading a
// terminal, it says so on standard error: a command that seems to hang is
// waiting for the model output to be typed or pasted.
func input(cmd *cobra.Command, args []string) (io.ReadCloser, error) {
	if len(args) == 0 || args[0] == "-" {
		in := cmd.InOrStdin()
		if isTerminal(in) {
			fmt.Fprintf(cmd.ErrOrStderr(), "dialect-probe %s: reading standard input (end it with %s, or give a FILE)\n", cmd.Name(), eofKey())
		}
		return io.NopCloser(in), nil
	}
	return os.Open(args[0])
}

// isTerminal reports whether r is a terminal: a character device that is
// not the null device. A variable, so that tests can stand in for one.
var isTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(st, null)
}

// eofKey names the key that ends terminal input.
func eofKey() string {
	if runtime.GOOS == "windows" {
		return "Ctrl-Z, Enter"
	}
	return "Ctrl-D"
}
