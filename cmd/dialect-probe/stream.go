package main

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/stream"
)

// eventRecord is one line of parse --stream.
type eventRecord struct {
	Event   string       `json:"event"`
	Text    string       `json:"text,omitempty"`
	Index   *int         `json:"index,omitempty"`
	Name    string       `json:"name,omitempty"`
	Dialect string       `json:"dialect,omitempty"`
	Reason  string       `json:"reason,omitempty"`
	Call    *callRecord  `json:"call,omitempty"`
	Error   *errorRecord `json:"error,omitempty"`
	Result  *parseOutput `json:"result,omitempty"`
}

// runStream reads model output as it arrives and prints each event as soon
// as the parser settles it. It exits 1 when the final result has errors,
// like parse.
func runStream(cmd *cobra.Command, in io.Reader, opts *registry.Options) error {
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetEscapeHTML(false)
	p := registry.Default().Stream(opts)
	ok := true
	for ev, err := range stream.Read(cmd.Context(), p, in) {
		if err != nil {
			return err
		}
		rec := toEventRecord(ev)
		if ev.Kind == stream.Done {
			ok = ev.Result.OK()
		}
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	if !ok {
		return exitError{1}
	}
	return nil
}

func toEventRecord(ev stream.Event) eventRecord {
	rec := eventRecord{Event: ev.Kind.String()}
	switch ev.Kind {
	case stream.Content, stream.Reasoning:
		rec.Text = ev.Text
	case stream.Detected:
		rec.Dialect, rec.Reason = ev.Dialect, ev.Text
	case stream.CallStart:
		rec.Index, rec.Name = &ev.Index, ev.Name
	case stream.CallArguments:
		rec.Index, rec.Text = &ev.Index, ev.Text
	case stream.Call:
		rec.Index = &ev.Index
		rec.Call = &callRecord{ID: ev.Call.ID, Name: ev.Call.Name, Server: ev.Call.Server, Arguments: ev.Call.Arguments}
	case stream.CallError:
		rec.Index = &ev.Index
		var te *toolcall.Error
		if !errors.As(ev.Err, &te) {
			te = toolcall.Errorf(toolcall.CodeStream, ev.Err, "the call failed")
		}
		e := toErrorRecord(te)
		rec.Error = &e
	case stream.Done:
		out := toParseOutput(ev.Result)
		rec.Dialect, rec.Result = ev.Dialect, &out
	}
	return rec
}
