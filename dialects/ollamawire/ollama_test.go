package ollamawire

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/schema"
)

// weatherTools declares get_weather (city required, unit an enum, days an
// integer), now (no parameters) and "my tool" (a name with a space).
func weatherTools(t testing.TB) *schema.Set {
	t.Helper()
	tools, err := toolcall.ParseTools([]byte(`[
		{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","required":["city"],
			"properties":{"city":{"type":"string"},"unit":{"type":"string","enum":["celsius","fahrenheit"]},"days":{"type":"integer"}}}}},
		{"type":"function","function":{"name":"now"}},
		{"type":"function","function":{"name":"my tool","parameters":{"type":"object"}}}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// wantCall is a call expected in a result; an empty ID means "generated".
type wantCall struct {
	id, name, args string
	index          int
}

func resp(message string) string {
	return `{"model":"qwen3:8b","created_at":"2026-02-27T10:00:00Z","message":` + message + `,"done":true,"done_reason":"stop"}`
}

func chunk(message string) string {
	return `{"model":"qwen3:8b","created_at":"2026-02-27T10:00:00Z","message":` + message + `,"done":false}`
}

const doneLine = `{"model":"qwen3:8b","created_at":"2026-02-27T10:00:01Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":12,"eval_count":30}`

func TestParseJSON(t *testing.T) {
	tests := []struct {
		name      string
		input     string
		tools     bool
		noRepair  bool
		calls     []wantCall
		content   string
		reasoning string
		errs      []toolcall.Code
		repairs   []toolcall.RepairKind
	}{
		{
			name:  "single call",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_a1","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]}`),
			calls: []wantCall{{"call_a1", "get_weather", `{"city":"Paris"}`, 0}},
		},
		{
			name: "multiple calls",
			input: resp(`{"role":"assistant","content":"","tool_calls":[` +
				`{"id":"call_a1","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}},` +
				`{"id":"call_b2","function":{"index":1,"name":"get_weather","arguments":{"city":"Oslo","days":3}}},` +
				`{"id":"call_c3","function":{"index":2,"name":"now","arguments":{}}}]}`),
			tools: true,
			calls: []wantCall{
				{"call_a1", "get_weather", `{"city":"Paris"}`, 0},
				{"call_b2", "get_weather", `{"city":"Oslo","days":3}`, 1},
				{"call_c3", "now", `{}`, 2},
			},
		},
		{
			name:    "missing tool_calls",
			input:   resp(`{"role":"assistant","content":"It is sunny in Paris."}`),
			content: "It is sunny in Paris.",
		},
		{
			name:    "null tool_calls",
			input:   resp(`{"role":"assistant","content":"hi","tool_calls":null}`),
			content: "hi",
		},
		{
			name:  "empty name",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_a1","function":{"name":"","arguments":{}}}]}`),
			errs:  []toolcall.Code{toolcall.CodeMissingFunction},
		},
		{
			name:  "missing function",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_a1"}]}`),
			errs:  []toolcall.Code{toolcall.CodeMissingFunction},
		},
		{
			name:  "invalid name characters",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get weather!","arguments":{}}}]}`),
			errs:  []toolcall.Code{toolcall.CodeInvalidName},
		},
		{
			name:  "name too long",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"` + strings.Repeat("a", 65) + `","arguments":{}}}]}`),
			errs:  []toolcall.Code{toolcall.CodeNameTooLong},
		},
		{
			name:  "unknown tool with declared tools",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_time","arguments":{}}},{"id":"call_ok","function":{"name":"now","arguments":{}}}]}`),
			tools: true,
			calls: []wantCall{{"call_ok", "now", `{}`, 1}},
			errs:  []toolcall.Code{toolcall.CodeUnknownTool},
		},
		{
			name:  "declared name with a space is accepted",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_s","function":{"name":"my tool","arguments":{"x":1}}}]}`),
			tools: true,
			calls: []wantCall{{"call_s", "my tool", `{"x":1}`, 0}},
		},
		{
			name: "function.index orders calls within a response",
			input: resp(`{"role":"assistant","content":"","tool_calls":[` +
				`{"id":"call_2","function":{"index":2,"name":"c","arguments":{}}},` +
				`{"id":"call_0","function":{"index":0,"name":"a","arguments":{}}},` +
				`{"id":"call_1","function":{"index":1,"name":"b","arguments":{}}}]}`),
			calls: []wantCall{{"call_0", "a", `{}`, 0}, {"call_1", "b", `{}`, 1}, {"call_2", "c", `{}`, 2}},
		},
		{
			name: "without indexes calls keep arrival order",
			input: resp(`{"role":"assistant","content":"","tool_calls":[` +
				`{"id":"call_2","function":{"index":2,"name":"c","arguments":{}}},` +
				`{"id":"call_0","function":{"name":"a","arguments":{}}}]}`),
			calls: []wantCall{{"call_2", "c", `{}`, 0}, {"call_0", "a", `{}`, 1}},
		},
		{
			name: "chunks keep arrival order whatever their indexes",
			input: chunk(`{"role":"assistant","content":"","tool_calls":[{"id":"call_x","function":{"index":5,"name":"x","arguments":{}}}]}`) + "\n" +
				chunk(`{"role":"assistant","content":"","tool_calls":[{"id":"call_y","function":{"index":1,"name":"y","arguments":{}}}]}`) + "\n" +
				doneLine + "\n",
			calls: []wantCall{{"call_x", "x", `{}`, 0}, {"call_y", "y", `{}`, 1}},
		},
		{
			name:  "arguments as a JSON string",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_s","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\",\"days\":2}"}}]}`),
			tools: true,
			calls: []wantCall{{"call_s", "get_weather", `{"city":"Oslo","days":2}`, 0}},
		},
		{
			name:    "arguments double-encoded",
			input:   resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_d","function":{"name":"get_weather","arguments":"\"{\\\"city\\\":\\\"Oslo\\\"}\""}}]}`),
			tools:   true,
			calls:   []wantCall{{"call_d", "get_weather", `{"city":"Oslo"}`, 0}},
			repairs: []toolcall.RepairKind{toolcall.RepairDoubleEncoded},
		},
		{
			name:    "arguments an empty string",
			input:   resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_e","function":{"name":"now","arguments":""}}]}`),
			tools:   true,
			calls:   []wantCall{{"call_e", "now", `{}`, 0}},
			repairs: []toolcall.RepairKind{toolcall.RepairEmptyArguments},
		},
		{
			name:    "arguments null",
			input:   resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_n","function":{"name":"now","arguments":null}}]}`),
			calls:   []wantCall{{"call_n", "now", `{}`, 0}},
			repairs: []toolcall.RepairKind{toolcall.RepairEmptyArguments},
		},
		{
			name:    "arguments missing",
			input:   resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_m","function":{"name":"now"}}]}`),
			calls:   []wantCall{{"call_m", "now", `{}`, 0}},
			repairs: []toolcall.RepairKind{toolcall.RepairEmptyArguments},
		},
		{
			name:  "arguments named parameters",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_p","function":{"name":"get_weather","parameters":{"city":"Rome"}}}]}`),
			calls: []wantCall{{"call_p", "get_weather", `{"city":"Rome"}`, 0}},
		},
		{
			name:  "call without the function wrapper",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_w","type":"function","name":"get_weather","arguments":{"city":"Rome"}}]}`),
			calls: []wantCall{{"call_w", "get_weather", `{"city":"Rome"}`, 0}},
		},
		{
			name:  "arguments an array",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":["Paris"]}}]}`),
			errs:  []toolcall.Code{toolcall.CodeNotObject},
		},
		{
			name:    "malformed argument string repaired",
			input:   resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_r","function":{"name":"get_weather","arguments":"{\"city\": \"Paris\",}"}}]}`),
			tools:   true,
			calls:   []wantCall{{"call_r", "get_weather", `{"city":"Paris"}`, 0}},
			repairs: []toolcall.RepairKind{toolcall.RepairTrailingComma},
		},
		{
			name:     "malformed argument string with repair disabled",
			input:    resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":"{\"city\": \"Paris\",}"}},{"id":"call_ok","function":{"name":"now","arguments":{}}}]}`),
			noRepair: true,
			calls:    []wantCall{{"call_ok", "now", `{}`, 1}},
			errs:     []toolcall.Code{toolcall.CodeInvalidJSON},
		},
		{
			name:  "schema violation",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris","days":"three"}}},{"id":"call_ok","function":{"name":"get_weather","arguments":{"city":"Oslo"}}}]}`),
			tools: true,
			calls: []wantCall{{"call_ok", "get_weather", `{"city":"Oslo"}`, 1}},
			errs:  []toolcall.Code{toolcall.CodeSchema},
		},
		{
			name:  "key order is the model's",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_k","function":{"name":"f","arguments":{"z":1,"a":2,"m":{"y":1,"b":2}}}}]}`),
			calls: []wantCall{{"call_k", "f", `{"z":1,"a":2,"m":{"y":1,"b":2}}`, 0}},
		},
		{
			name:  "numbers kept as written",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_b","function":{"name":"f","arguments":{"big":12345678901234567890,"f":1.50}}}]}`),
			calls: []wantCall{{"call_b", "f", `{"big":12345678901234567890,"f":1.50}`, 0}},
		},
		{
			name: "NDJSON stream with calls over chunks, content and thinking",
			input: chunk(`{"role":"assistant","content":"","thinking":"The user wants "}`) + "\n" +
				chunk(`{"role":"assistant","content":"","thinking":"two cities."}`) + "\n" +
				chunk(`{"role":"assistant","content":"Checking "}`) + "\n" +
				chunk(`{"role":"assistant","content":"","tool_calls":[{"id":"call_p","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]}`) + "\n" +
				chunk(`{"role":"assistant","content":"both.\n"}`) + "\n" +
				chunk(`{"role":"assistant","content":"","tool_calls":[{"id":"call_o","function":{"index":1,"name":"get_weather","arguments":{"city":"Oslo"}}}]}`) + "\n" +
				doneLine + "\n",
			tools:     true,
			calls:     []wantCall{{"call_p", "get_weather", `{"city":"Paris"}`, 0}, {"call_o", "get_weather", `{"city":"Oslo"}`, 1}},
			content:   "Checking both.",
			reasoning: "The user wants two cities.",
		},
		{
			name: "in-stream error line after a call",
			input: chunk(`{"role":"assistant","content":"","tool_calls":[{"id":"call_p","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]}`) + "\n" +
				`{"error":"failed to parse JSON: unexpected end of JSON input"}` + "\n",
			calls: []wantCall{{"call_p", "get_weather", `{"city":"Paris"}`, 0}},
			errs:  []toolcall.Code{toolcall.CodeMalformedCall},
		},
		{
			name:  "server error body",
			input: `{"error":"model runner has unexpectedly stopped"}`,
			errs:  []toolcall.Code{toolcall.CodeTransport},
		},
		{
			name:  "capability error body",
			input: `{"error":"\"gemma:2b\" does not support tools"}`,
			errs:  []toolcall.Code{toolcall.CodeRequestRejected},
		},
		{
			name: "stream without done keeps its calls",
			input: chunk(`{"role":"assistant","content":"On it. "}`) + "\n" +
				chunk(`{"role":"assistant","content":"","tool_calls":[{"id":"call_p","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]}`) + "\n",
			calls:   []wantCall{{"call_p", "get_weather", `{"city":"Paris"}`, 0}},
			content: "On it.",
			errs:    []toolcall.Code{toolcall.CodeTruncated},
		},
		{
			name: "stream cut inside its last line",
			input: chunk(`{"role":"assistant","content":"","tool_calls":[{"id":"call_p","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]}`) + "\n" +
				`{"model":"qwen3:8b","message":{"role":"assistant","content":"trunc`,
			calls: []wantCall{{"call_p", "get_weather", `{"city":"Paris"}`, 0}},
			errs:  []toolcall.Code{toolcall.CodeTruncated},
		},
		{
			name:    "length limit",
			input:   `{"model":"qwen3:8b","message":{"role":"assistant","content":"The answer is"},"done":true,"done_reason":"length"}`,
			content: "The answer is",
			errs:    []toolcall.Code{toolcall.CodeTruncated},
		},
		{
			name: "a line that is not JSON between good lines",
			input: chunk(`{"role":"assistant","content":"a"}`) + "\n" +
				"this is not json\n" +
				chunk(`{"role":"assistant","content":"b"}`) + "\n" +
				doneLine + "\n",
			content: "ab",
			errs:    []toolcall.Code{toolcall.CodeInvalidInput},
		},
		{
			name: "a broken JSON line between good lines",
			input: chunk(`{"role":"assistant","content":"a"}`) + "\n" +
				`{"model":"qwen3:8b","message":{"role":"assistant","content":"x"},` + "\n" +
				chunk(`{"role":"assistant","content":"b"}`) + "\n" +
				doneLine + "\n",
			content: "ab",
			errs:    []toolcall.Code{toolcall.CodeInvalidInput},
		},
		{
			name: "pretty-printed response",
			input: "{\n  \"model\": \"qwen3:8b\",\n  \"message\": {\n    \"role\": \"assistant\",\n    \"content\": \"\",\n" +
				"    \"tool_calls\": [\n      {\n        \"id\": \"call_pp\",\n        \"function\": {\n          \"index\": 0,\n" +
				"          \"name\": \"get_weather\",\n          \"arguments\": {\n            \"city\": \"Paris\"\n          }\n        }\n      }\n    ]\n  },\n" +
				"  \"done\": true\n}\n",
			calls: []wantCall{{"call_pp", "get_weather", `{"city":"Paris"}`, 0}},
		},
		{
			name: "array of responses",
			input: "[" + chunk(`{"role":"assistant","content":"x"}`) + "," +
				chunk(`{"role":"assistant","content":"","tool_calls":[{"id":"call_a","function":{"name":"now","arguments":{}}}]}`) + "," + doneLine + "]",
			calls:   []wantCall{{"call_a", "now", `{}`, 0}},
			content: "x",
		},
		{
			name:    "bare assistant message",
			input:   `{"role":"assistant","content":"ok","tool_calls":[{"id":"call_m","function":{"name":"now","arguments":{}}}]}`,
			calls:   []wantCall{{"call_m", "now", `{}`, 0}},
			content: "ok",
		},
		{
			name:      "escapes in content are decoded",
			input:     resp(`{"role":"assistant","content":"line\u00e9\n\"q\"","thinking":"t\tx"}`),
			content:   "lineé\n\"q\"",
			reasoning: "t\tx",
		},
		{
			name:  "call that is not an object",
			input: resp(`{"role":"assistant","content":"","tool_calls":["get_weather",{"id":"call_ok","function":{"name":"now","arguments":{}}}]}`),
			calls: []wantCall{{"call_ok", "now", `{}`, 1}},
			errs:  []toolcall.Code{toolcall.CodeMalformedCall},
		},
		{
			name:  "name that is not a string",
			input: resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":42,"arguments":{}}}]}`),
			errs:  []toolcall.Code{toolcall.CodeMalformedCall},
		},
		{
			name:  "tool_calls that is not a list",
			input: resp(`{"role":"assistant","content":"","tool_calls":"get_weather"}`),
			errs:  []toolcall.Code{toolcall.CodeMalformedCall},
		},
		{
			name:  "empty input",
			input: " \n ",
			errs:  []toolcall.Code{toolcall.CodeInvalidInput},
		},
		{
			name:  "JSON that is not a response",
			input: `{"name":"get_weather","arguments":{"city":"Paris"}}`,
			errs:  []toolcall.Code{toolcall.CodeInvalidInput},
		},
		{
			name:  "plain text",
			input: "Sure! I will call the weather tool.",
			errs:  []toolcall.Code{toolcall.CodeInvalidInput},
		},
		{
			name:  "deep nesting",
			input: strings.Repeat("[", maxNesting+5),
			errs:  []toolcall.Code{toolcall.CodeTooDeep},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := &dialects.Options{DisableRepair: tt.noRepair}
			if tt.tools {
				opts.Tools = weatherTools(t)
			}
			res := ParseJSON([]byte(tt.input), opts)
			checkResult(t, res, tt.calls, tt.content, tt.reasoning, tt.errs)
			if res.Dialect != Name {
				t.Errorf("Dialect = %q, want %q", res.Dialect, Name)
			}
			var kinds []toolcall.RepairKind
			for _, r := range res.Repairs {
				kinds = append(kinds, r.Kind)
			}
			for _, k := range tt.repairs {
				if !slices.Contains(kinds, k) {
					t.Errorf("repairs = %v, want %s among them", kinds, k)
				}
			}
			if len(tt.repairs) == 0 && len(kinds) > 0 {
				t.Errorf("repairs = %v, want none", kinds)
			}
		})
	}
}

func checkResult(t *testing.T, res *toolcall.Result, calls []wantCall, content, reasoning string, errs []toolcall.Code) {
	t.Helper()
	if res.Calls == nil {
		t.Fatal("Calls is nil, want a non-nil slice")
	}
	if len(res.Calls) != len(calls) {
		t.Fatalf("got %d calls %+v, want %d; errors %v", len(res.Calls), res.Calls, len(calls), res.Errors)
	}
	for i, w := range calls {
		c := res.Calls[i]
		if c.Name != w.name || string(c.Arguments) != w.args || c.Index != w.index {
			t.Errorf("call %d = {%s %s index %d}, want {%s %s index %d}", i, c.Name, c.Arguments, c.Index, w.name, w.args, w.index)
		}
		if w.id != "" && c.ID != w.id {
			t.Errorf("call %d id = %q, want %q", i, c.ID, w.id)
		}
	}
	if res.Content != content {
		t.Errorf("Content = %q, want %q", res.Content, content)
	}
	if res.Reasoning != reasoning {
		t.Errorf("Reasoning = %q, want %q", res.Reasoning, reasoning)
	}
	var got []toolcall.Code
	for _, e := range res.Errors {
		got = append(got, e.Code)
	}
	if !slices.Equal(got, errs) {
		t.Errorf("error codes = %v, want %v (%v)", got, errs, res.Errors)
	}
}

func TestGeneratedID(t *testing.T) {
	in := resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"now","arguments":{}}},{"function":{"name":"now","arguments":{}}}]}`)
	res := ParseJSON([]byte(in), nil)
	if len(res.Calls) != 2 {
		t.Fatalf("calls = %+v, errors %v", res.Calls, res.Errors)
	}
	for _, c := range res.Calls {
		if !strings.HasPrefix(c.ID, "call_") || len(c.ID) != len("call_")+8 {
			t.Errorf("generated id %q, want call_ and 8 characters", c.ID)
		}
	}
	if res.Calls[0].ID == res.Calls[1].ID {
		t.Errorf("generated ids are equal: %q", res.Calls[0].ID)
	}
}

func TestUnknownToolListsKnownNames(t *testing.T) {
	in := resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_time","arguments":{}}}]}`)
	res := ParseJSON([]byte(in), &dialects.Options{Tools: weatherTools(t)})
	if len(res.Errors) != 1 {
		t.Fatalf("errors = %v", res.Errors)
	}
	e := res.Errors[0]
	if !errors.Is(e, toolcall.ErrUnknownTool) || !slices.Equal(e.Known, []string{"get_weather", "my tool", "now"}) {
		t.Errorf("error = %v, known %v", e, e.Known)
	}
	if e.CallIndex != 0 || e.Tool != "get_time" {
		t.Errorf("CallIndex %d Tool %q, want 0 and get_time", e.CallIndex, e.Tool)
	}
}

func TestSchemaViolationPath(t *testing.T) {
	in := resp(`{"role":"assistant","content":"","tool_calls":[{"id":"call_v","function":{"name":"get_weather","arguments":{"city":"Paris","days":"three"}}}]}`)
	res := ParseJSON([]byte(in), &dialects.Options{Tools: weatherTools(t)})
	if len(res.Errors) != 1 {
		t.Fatalf("errors = %v", res.Errors)
	}
	e := res.Errors[0]
	if !errors.Is(e, toolcall.ErrSchema) || e.Path != "/days" || e.CallID != "call_v" || e.Tool != "get_weather" {
		t.Errorf("error = %v, path %q, call id %q", e, e.Path, e.CallID)
	}
}

func TestMalformedBeyondRepair(t *testing.T) {
	in := resp(`{"role":"assistant","content":"","tool_calls":[` +
		`{"id":"call_ok","function":{"name":"get_weather","arguments":{"city":"Paris"}}},` +
		`{"id":"call_bad","function":{"name":"get_weather","arguments":"}}}s3cr3t-value{{{:::"}},` +
		`{"id":"call_ok2","function":{"name":"now","arguments":{}}}]}`)
	res := ParseJSON([]byte(in), &dialects.Options{Tools: weatherTools(t)})
	if len(res.Calls) != 2 || res.Calls[0].ID != "call_ok" || res.Calls[1].ID != "call_ok2" || res.Calls[1].Index != 2 {
		t.Fatalf("calls = %+v", res.Calls)
	}
	if len(res.Errors) != 1 {
		t.Fatalf("errors = %v", res.Errors)
	}
	e := res.Errors[0]
	if e.CallIndex != 1 || e.CallID != "call_bad" {
		t.Errorf("error %v: CallIndex %d CallID %q, want 1 and call_bad", e, e.CallIndex, e.CallID)
	}
	switch e.Code {
	case toolcall.CodeInvalidJSON, toolcall.CodeRepairFailed, toolcall.CodeNotObject, toolcall.CodeSchema:
	default:
		t.Errorf("code %s, want a JSON, repair, object or schema error", e.Code)
	}
	if strings.Contains(e.Error(), "s3cr3t") {
		t.Errorf("error message holds the argument value: %v", e)
	}
}

// Argument values and server messages (which quote model output) must never
// reach Error().
func TestErrorsHoldNoValues(t *testing.T) {
	const secret = "s3cr3t-value"
	inputs := []string{
		resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"` + secret + `","days":"` + secret + `"}}}]}`),
		`{"error":"error parsing tool call: raw='{\"city\":\"` + secret + `\"', err=invalid character"}`,
		`{"error":"` + secret + `"}`,
		resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":"{\"city\":` + secret + `"}}]}`),
		"not json " + secret,
	}
	for _, in := range inputs {
		res := ParseJSON([]byte(in), &dialects.Options{Tools: weatherTools(t), DisableRepair: true})
		if len(res.Errors) == 0 {
			t.Errorf("%s: no error", in)
		}
		for _, e := range res.Errors {
			if strings.Contains(e.Error(), secret) {
				t.Errorf("error message holds a value: %v", e)
			}
		}
	}
}

func TestServerErrorKeepsMessage(t *testing.T) {
	const msg = "error parsing tool call: raw='{\"city\":'"
	s := Decode([]byte(chunk(`{"role":"assistant","content":"a"}`) + "\n" + `{"error":"error parsing tool call: raw='{\"city\":'"}` + "\n"))
	if s.ServerError != msg {
		t.Errorf("ServerError = %q, want %q", s.ServerError, msg)
	}
	if len(s.Errors) != 1 || s.Errors[0].Raw != msg || !errors.Is(s.Errors[0], toolcall.ErrMalformedCall) {
		t.Errorf("errors = %v", s.Errors)
	}
	if s.Truncated() {
		t.Error("a stream ended by a server error is reported as truncated too")
	}
	// OpenAI-shaped error objects from proxies.
	s = Decode([]byte(`{"error":{"message":"upstream timeout","type":"server_error"}}`))
	if s.ServerError != "upstream timeout" || !errors.Is(s.Err(), toolcall.ErrTransport) {
		t.Errorf("ServerError %q, err %v", s.ServerError, s.Err())
	}
}

func TestDecodeStatus(t *testing.T) {
	in := chunk(`{"role":"assistant","content":"hi"}`) + "\n" +
		`{"model":"qwen3:8b","created_at":"2026-02-27T10:00:01Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop",` +
		`"total_duration":5000000000,"load_duration":1000000,"prompt_eval_count":26,"prompt_eval_duration":2000000,"eval_count":298,"eval_duration":4000000000}` + "\n"
	s := Decode([]byte(in))
	want := Status{Model: "qwen3:8b", Done: true, DoneReason: "stop", PromptEvalCount: 26, EvalCount: 298,
		TotalDuration: 5e9, LoadDuration: 1e6, PromptEvalDuration: 2e6, EvalDuration: 4e9}
	if s.Status != want {
		t.Errorf("Status = %+v, want %+v", s.Status, want)
	}
	if s.Responses != 2 || !s.Marked || s.Content != "hi" || s.Err() != nil || s.Truncated() {
		t.Errorf("stream = %+v", s)
	}
}

func TestTooManyUnreadableLines(t *testing.T) {
	var b strings.Builder
	for range 1000 {
		b.WriteString("garbage line\n")
	}
	s := Decode([]byte(b.String()))
	if len(s.Errors) != maxInputErrors+1 {
		t.Fatalf("%d errors, want %d", len(s.Errors), maxInputErrors+1)
	}
	for _, e := range s.Errors {
		if e.Code != toolcall.CodeInvalidInput || e.Offset < 0 {
			t.Errorf("error %v", e)
		}
	}
}

func TestBinaryAndHugeInput(t *testing.T) {
	bin := make([]byte, 1<<16)
	for i := range bin {
		bin[i] = byte(i * 7)
	}
	for name, in := range map[string][]byte{
		"binary":        bin,
		"open brackets": []byte(strings.Repeat("{", 1<<20)),
		"open strings":  []byte(`{"message":{"content":"` + strings.Repeat(`\"`, 1<<18)),
		"nul bytes":     []byte("{\x00}"),
		"huge garbage":  []byte(strings.Repeat("x", 8<<20)),
	} {
		res := ParseJSON(in, nil)
		if len(res.Errors) == 0 || res.Calls == nil {
			t.Errorf("%s: want a coded error, got %+v", name, res)
		}
	}
	// A long but valid stream is read whole.
	var b strings.Builder
	for range 50000 {
		b.WriteString(chunk(`{"role":"assistant","content":"token "}`))
		b.WriteByte('\n')
	}
	b.WriteString(doneLine)
	res := ParseJSON([]byte(b.String()), nil)
	if !res.OK() || len(res.Content) != 50000*len("token ")-1 { // less the space that ends it (textlayer.Edges)
		t.Errorf("long stream: %d bytes of content, errors %v", len(res.Content), res.Errors)
	}
}

func TestExtractThroughDialect(t *testing.T) {
	in := chunk(`{"role":"assistant","content":"","tool_calls":[{"id":"call_p","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]}`) + "\n"
	var d dialects.Dialect = Dialect{}
	if d.Name() != "ollama" {
		t.Errorf("Name = %q", d.Name())
	}
	ext := d.Extract(in, nil)
	if !ext.Marked || len(ext.Calls) != 1 || len(ext.Errors) != 1 || ext.Errors[0].Code != toolcall.CodeTruncated {
		t.Fatalf("extraction = %+v", ext)
	}
	res := dialects.Parse(d, in, nil)
	if len(res.Calls) != 1 || res.Calls[0].ID != "call_p" || len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeTruncated {
		t.Errorf("result = %+v", res)
	}
	// ParseJSON reports the same stream error, not tied to a call.
	direct := ParseJSON([]byte(in), nil)
	if len(direct.Errors) != 1 || direct.Errors[0].CallIndex != -1 {
		t.Errorf("ParseJSON errors = %v", direct.Errors)
	}
	if ext := d.Extract("I think it is sunny.", nil); ext.Marked || len(ext.Calls) != 0 || len(ext.Errors) != 1 {
		t.Errorf("plain text: %+v", ext)
	}
	m := Dialect{}.Markers()
	if len(m) == 0 || !strings.Contains(in, m[0]) {
		t.Errorf("markers %q do not mark a response", m)
	}
}

func TestOffsets(t *testing.T) {
	line0 := chunk(`{"role":"assistant","content":"a"}`) + "\n"
	in := line0 + `{"model":"x","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"","arguments":{}}}]},"done":true}`
	res := ParseJSON([]byte(in), nil)
	if len(res.Errors) != 1 {
		t.Fatalf("errors = %v", res.Errors)
	}
	want := strings.Index(in, `{"function"`)
	if res.Errors[0].Offset != want {
		t.Errorf("offset %d, want %d", res.Errors[0].Offset, want)
	}
	bad := line0 + "oops\n" + doneLine
	s := Decode([]byte(bad))
	if len(s.Errors) != 1 || s.Errors[0].Offset != len(line0) || !strings.Contains(s.Errors[0].Message, "line 2") {
		t.Errorf("errors = %v", s.Errors)
	}
}

func TestConcurrentUse(t *testing.T) {
	opts := &dialects.Options{Tools: weatherTools(t)}
	data := []byte(resp(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}},{"function":{"name":"now","arguments":""}}]}`))
	var d Dialect
	done := make(chan *toolcall.Result)
	for range 8 {
		go func() {
			for range 20 {
				dialects.Parse(d, string(data), opts)
			}
			done <- ParseJSON(data, opts)
		}()
	}
	for range 8 {
		if res := <-done; len(res.Calls) != 2 || !res.OK() {
			t.Errorf("result = %+v", res)
		}
	}
}
