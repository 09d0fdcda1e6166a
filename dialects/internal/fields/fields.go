// Package fields holds the field aliases models use for a call's name,
// arguments and id, shared by the dialects that read JSON objects.
package fields

// Aliases, in the order they are tried. Read-only.
var (
	Name      = []string{"name", "tool_name", "function", "tool", "function_name"}
	Arguments = []string{"arguments", "parameters", "args", "tool_args", "input", "params"}
	ID        = []string{"id", "tool_call_id", "call_id"}
)
