package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/spf13/pflag"
)

// logFlags are the logging flags of the commands that run the retry loop.
type logFlags struct {
	verbose bool
	file    string
	format  string
}

func (l *logFlags) register(fl *pflag.FlagSet, verboseHelp string) {
	fl.BoolVarP(&l.verbose, "verbose", "v", false, verboseHelp)
	fl.StringVar(&l.file, "log-file", "", "append the loop's records to FILE as JSON lines (slog's JSON handler, DEBUG and up)")
	fl.StringVar(&l.format, "log-format", "text", "format of the records --verbose writes to standard error: text (logfmt) or json")
}

// logger builds the logger the flags ask for: records to standard error
// with --verbose, in --log-format; records appended to --log-file as JSON
// lines. It returns nil when neither is asked for, and a function that
// closes the file.
func (l *logFlags) logger(stderr io.Writer) (*slog.Logger, func(), error) {
	if l.format != "text" && l.format != "json" {
		return nil, nil, fmt.Errorf("--log-format must be text or json, not %q", l.format)
	}
	var handlers []slog.Handler
	opts := &slog.HandlerOptions{Level: slog.LevelDebug}
	if l.verbose {
		if l.format == "json" {
			handlers = append(handlers, slog.NewJSONHandler(stderr, opts))
		} else {
			handlers = append(handlers, slog.NewTextHandler(stderr, opts))
		}
	}
	closer := func() {}
	if l.file != "" {
		f, err := os.OpenFile(l.file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("--log-file: %w", err)
		}
		closer = func() { f.Close() }
		handlers = append(handlers, slog.NewJSONHandler(f, opts))
	}
	switch len(handlers) {
	case 0:
		return nil, closer, nil
	case 1:
		return slog.New(handlers[0]), closer, nil
	}
	return slog.New(fanout(handlers)), closer, nil
}

// fanout sends every record to each of its handlers.
type fanout []slog.Handler

func (f fanout) Enabled(ctx context.Context, level slog.Level) bool {
	for _, h := range f {
		if h.Enabled(ctx, level) {
			return true
		}
	}
	return false
}

func (f fanout) Handle(ctx context.Context, r slog.Record) error {
	var errs []error
	for _, h := range f {
		if h.Enabled(ctx, r.Level) {
			errs = append(errs, h.Handle(ctx, r.Clone()))
		}
	}
	return errors.Join(errs...)
}

func (f fanout) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := make(fanout, len(f))
	for i, h := range f {
		out[i] = h.WithAttrs(attrs)
	}
	return out
}

func (f fanout) WithGroup(name string) slog.Handler {
	out := make(fanout, len(f))
	for i, h := range f {
		out[i] = h.WithGroup(name)
	}
	return out
}
