package toolcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Tool is a declared tool: its name, what it does, and the JSON Schema of its
// parameters.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is the JSON Schema of the arguments object, as given. It is
	// nil for a tool without parameters.
	Parameters json.RawMessage `json:"parameters,omitempty"`
	// Strict is OpenAI's "strict": true on the function: the arguments
	// must match the schema exactly, so validation rejects properties the
	// schema does not declare even without additionalProperties: false
	// (schema strict mode, for this tool).
	Strict bool `json:"strict,omitempty"`
	// Version is the tool's version ("1.2.0"), from a "version" beside its
	// name or "x-version" in its schema; empty when it has none. A
	// schema.Set keeps every registered version of a tool.
	Version string `json:"version,omitempty"`
}

// ParseTool reads one tool definition in any of the shapes agents use:
//
//	{"type": "function", "function": {"name": …, "description": …, "parameters": {…}}}   (OpenAI, Ollama)
//	{"name": …, "description": …, "parameters": {…}}                                     (bare)
//	{"name": …, "description": …, "input_schema": {…}}                                   (Anthropic-style)
//
// The result of json.Marshal on an ollama api.Tool is the first shape.
// A definition that is not one says what is wrong and where: the field
// and the type it has (`tool definition: "function.name" is a number, not
// a string`).
func ParseTool(data []byte) (Tool, error) { return parseTool(data, "") }

// parseTool is ParseTool for the definition at path inside the one given
// ("" for the whole, "function." for the OpenAI shape's function).
func parseTool(data []byte, path string) (Tool, error) {
	var probe struct {
		Type        string          `json:"type"`
		Function    json.RawMessage `json:"function"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
		InputSchema json.RawMessage `json:"input_schema"`
		Version     json.RawMessage `json:"version"`
		Strict      bool            `json:"strict"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return Tool{}, toolDefinitionError(err, data, path)
	}
	if len(probe.Function) > 0 && !bytes.Equal(probe.Function, []byte("null")) {
		t, err := parseTool(probe.Function, path+"function.")
		if err != nil {
			return Tool{}, err
		}
		if t.Version == "" {
			t.Version = versionText(probe.Version)
		}
		t.Strict = t.Strict || probe.Strict
		return t, nil
	}
	t := Tool{Name: probe.Name, Description: probe.Description, Parameters: probe.Parameters, Version: versionText(probe.Version), Strict: probe.Strict}
	if len(t.Parameters) == 0 || bytes.Equal(t.Parameters, []byte("null")) {
		t.Parameters = probe.InputSchema
	}
	if len(t.Parameters) == 0 || bytes.Equal(t.Parameters, []byte("null")) {
		t.Parameters = nil
	}
	if t.Name == "" {
		if path != "" {
			return Tool{}, toolError(nil, fmt.Sprintf("tool definition has no name (%q is missing or empty)", path+"name"))
		}
		return Tool{}, toolError(nil, "tool definition has no name")
	}
	if t.Parameters != nil {
		var buf bytes.Buffer
		if err := json.Compact(&buf, t.Parameters); err != nil {
			return Tool{}, toolError(err, fmt.Sprintf("parameters of tool %q are not valid JSON", t.Name))
		}
		if buf.Len() == 0 || buf.Bytes()[0] != '{' {
			return Tool{}, toolError(nil, fmt.Sprintf("parameters of tool %q are not a JSON object", t.Name))
		}
		t.Parameters = buf.Bytes()
		if t.Version == "" {
			t.Version = SchemaVersion(t.Parameters)
		}
	}
	return t, nil
}

// ParseTools reads a JSON array of tool definitions, or a single definition,
// in any shape ParseTool accepts.
func ParseTools(data []byte) ([]Tool, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || bytes.Equal(data, []byte("null")) {
		return nil, nil
	}
	if data[0] != '[' {
		t, err := ParseTool(data)
		if err != nil {
			return nil, err
		}
		return []Tool{t}, nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, toolError(err, "tool list is not a JSON array")
	}
	tools := make([]Tool, 0, len(raw))
	for i, r := range raw {
		t, err := ParseTool(r)
		if err != nil {
			var te *Error
			if ok := asError(err, &te); ok {
				te.Message = fmt.Sprintf("tool %d: %s", i, te.Message)
			}
			return nil, err
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// MarshalOpenAI renders the tool in the OpenAI/Ollama request shape.
func (t Tool) MarshalOpenAI() ([]byte, error) {
	params := t.Parameters
	if params == nil {
		params = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return json.Marshal(map[string]any{
		"type": "function",
		"function": struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			Parameters  json.RawMessage `json:"parameters"`
		}{t.Name, t.Description, params},
	})
}

// toolDefinitionError says why a definition did not decode: a field of
// the wrong type (named with its path and both types), or a value that
// is not a JSON object at all (saying what it is instead).
func toolDefinitionError(err error, data []byte, path string) *Error {
	where := "tool definition"
	if path != "" {
		where = fmt.Sprintf("tool definition: %q", strings.TrimSuffix(path, "."))
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return toolError(err, fmt.Sprintf("tool definition: %q is %s, not %s", path+typeErr.Field, jsonKind(typeErr.Value), goKind(typeErr.Type)))
	}
	if !json.Valid(data) {
		return toolError(err, where+" is not valid JSON: "+err.Error())
	}
	return toolError(err, fmt.Sprintf("%s is %s, not a JSON object", where, jsonKind(kindOf(data))))
}

// kindOf names the kind of a valid JSON value as encoding/json does in an
// UnmarshalTypeError: "string", "number", "bool", "array", "object", "null".
func kindOf(data []byte) string {
	switch b := bytes.TrimSpace(data); {
	case len(b) == 0:
		return "null"
	case b[0] == '"':
		return "string"
	case b[0] == '[':
		return "array"
	case b[0] == '{':
		return "object"
	case b[0] == 't' || b[0] == 'f':
		return "bool"
	case b[0] == 'n':
		return "null"
	}
	return "number"
}

// jsonKind names a JSON kind with its article, for a message.
func jsonKind(kind string) string {
	switch {
	case kind == "bool":
		return "a boolean"
	case kind == "null":
		return "null"
	case strings.HasPrefix(kind, "number"):
		return "a number"
	case kind == "array" || kind == "object":
		return "an " + kind
	}
	return "a " + kind
}

// goKind names the JSON kind a Go type is decoded from.
func goKind(t reflect.Type) string {
	if t == nil {
		return "that"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Struct, reflect.Map:
		return "a JSON object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Bool:
		return "a boolean"
	}
	return "a number"
}

func toolError(cause error, msg string) *Error {
	return Errorf(CodeInvalidTool, cause, msg)
}

func asError(err error, target **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*target = e
	}
	return ok
}

// versionText reads a version written as a JSON string or number.
func versionText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return string(raw)
}

// SchemaVersion returns the "x-version" of a tool's parameter schema, or ""
// when it has none.
func SchemaVersion(params json.RawMessage) string {
	if len(params) == 0 {
		return ""
	}
	var probe struct {
		Version json.RawMessage `json:"x-version"`
	}
	if json.Unmarshal(params, &probe) != nil {
		return ""
	}
	return versionText(probe.Version)
}
