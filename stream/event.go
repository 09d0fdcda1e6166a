package stream

import (
	"github.com/dialectkit/toolcall"
)

// Kind says what an Event reports.
type Kind uint8

// The kinds of event a Parser emits. Content and reasoning arrive as
// deltas whose concatenation is the final content and reasoning; every
// call announced with CallStart ends with exactly one Call or CallError of
// the same index, and Done comes last.
const (
	// Content is a piece of the answer text (Event.Text).
	Content Kind = iota + 1
	// Reasoning is a piece of the reasoning text (Event.Text).
	Reasoning
	// Detected reports the dialect the stream is read as (Event.Dialect),
	// and why (Event.Text), when no dialect was named, or, at Close, the
	// fallback dialect that gives the result (Options.Fallback).
	Detected
	// CallStart reports that call Event.Index has begun, with its tool name
	// (Event.Name).
	CallStart
	// CallArguments is more of call Event.Index's argument text as written
	// so far (Event.Text), for display. It is raw model text, neither
	// repaired nor validated: use the Call event's arguments.
	CallArguments
	// Call reports call Event.Index complete, repaired and validated
	// (Event.Call).
	Call
	// CallError reports that call Event.Index failed (Event.Err).
	CallError
	// Done ends the stream with the final result (Event.Result), the one a
	// one-shot parse of the whole text gives.
	Done
)

var kindNames = [...]string{"", "content", "reasoning", "detected", "call_start", "call_arguments", "call", "call_error", "done"}

// String names the kind as the command-line tool prints it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Event is one thing a Parser found.
type Event struct {
	Kind Kind
	// Text is the delta of Content, Reasoning and CallArguments events, and
	// the reason of a Detected event.
	Text string
	// Index is the call's position among the output's calls (failed ones
	// included), for CallStart, CallArguments, Call and CallError.
	Index int
	// Name is the tool name of a CallStart.
	Name string
	// Call is the finished call of a Call event.
	Call *toolcall.Call
	// Err is the error of a CallError event, a *toolcall.Error (errors.As).
	Err error
	// Dialect names the dialect, for Detected and Done.
	Dialect string
	// Result is the final result, for Done.
	Result *toolcall.Result
}
