package retry

import (
	"bytes"
	"encoding/json"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
	"github.com/dialectkit/toolcall/schema"
)

// NativeDialect is the dialect name of calls the server returned in its
// tool_calls field (client.Response.NativeCalls).
const NativeDialect = render.Native

// CallFormatter is implemented by a dialect that can write a call in its own
// wire syntax. The re-ask shows the model a correct call in the format it
// was trained on; a dialect implementing this interface is asked first, and
// the render package covers every built-in dialect. The method uses only
// standard types, so a dialect package implements it without importing
// this one.
type CallFormatter interface {
	// FormatCall writes one call to name with args, a compact JSON object.
	FormatCall(name string, args json.RawMessage) string
}

// FormatCall writes a call in the named dialect's syntax: with the dialect's
// own CallFormatter when reg holds one, else as package render writes that
// dialect, else as the JSON object {"name": …, "arguments": {…}}, which is
// also the form for native calls. reg may be nil.
func FormatCall(reg *registry.Registry, dialect, name string, args json.RawMessage) string {
	return formatCall(reg, dialect, name, args, "")
}

// formatCall is FormatCall with a sample of the model's output, which picks
// the variant of a dialect the model used (Mistral's JSON array or its
// v11 NAME[ARGS]{…}).
func formatCall(reg *registry.Registry, dialect, name string, args json.RawMessage, sample string) string {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	if reg != nil {
		if d, ok := reg.Lookup(dialect); ok {
			if f, ok := d.(CallFormatter); ok {
				return f.FormatCall(name, args)
			}
		}
	}
	r, ok := render.ForOutput(dialect, sample)
	if !ok {
		r, _ = render.For(render.Native)
	}
	return r.Calls([]toolcall.Call{{Name: name, Arguments: args}})
}

// ExampleArguments returns example arguments for tool, a compact JSON
// object: every required property, and the extra top-level properties
// named in include when the schema declares them, each with a placeholder
// of the declared type. It is render.ExampleArguments; see there.
func ExampleArguments(tool *schema.Tool, include ...string) json.RawMessage {
	return render.ExampleArguments(tool, include...)
}
