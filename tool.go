package toolcall

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Tool is a declared tool: its name, what it does, and the JSON Schema of its
// parameters.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is the JSON Schema of the arguments object, as given. It is
	// nil for a tool without parameters.
	Parameters json.RawMessage `json:"parameters,omitempty"`
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
func ParseTool(data []byte) (Tool, error) {
	var probe struct {
		Type        string          `json:"type"`
		Function    json.RawMessage `json:"function"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
		InputSchema json.RawMessage `json:"input_schema"`
		Version     json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return Tool{}, toolError(err, "tool definition is not a JSON object")
	}
	if len(probe.Function) > 0 && !bytes.Equal(probe.Function, []byte("null")) {
		t, err := ParseTool(probe.Function)
		if err != nil {
			return Tool{}, err
		}
		if t.Version == "" {
			t.Version = versionText(probe.Version)
		}
		return t, nil
	}
	t := Tool{Name: probe.Name, Description: probe.Description, Parameters: probe.Parameters, Version: versionText(probe.Version)}
	if len(t.Parameters) == 0 || bytes.Equal(t.Parameters, []byte("null")) {
		t.Parameters = probe.InputSchema
	}
	if len(t.Parameters) == 0 || bytes.Equal(t.Parameters, []byte("null")) {
		t.Parameters = nil
	}
	if t.Name == "" {
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
