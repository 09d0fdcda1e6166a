package dialects_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/internal/callobject"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/schema"
)

func tools(t testing.TB) *schema.Set {
	t.Helper()
	s, err := schema.NewSet(
		toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`)},
		toolcall.Tool{Name: "Read-File.v2", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
		toolcall.Tool{Name: "run", Parameters: json.RawMessage(`{"type":"object","properties":{"input":{"type":"object"}}}`)},
	)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFinishCall(t *testing.T) {
	long := strings.Repeat("x", 65)
	tests := []struct {
		name     string
		rc       dialects.RawCall
		tools    bool
		noRepair bool
		wantName string
		wantArgs string
		code     toolcall.Code
		repair   toolcall.RepairKind
	}{
		{name: "plain", rc: dialects.RawCall{Name: "f", Arguments: `{"a": 1, "b": [1, 2]}`}, wantName: "f", wantArgs: `{"a":1,"b":[1,2]}`},
		{name: "key order kept", rc: dialects.RawCall{Name: "f", Arguments: `{"z":1,"a":2}`}, wantName: "f", wantArgs: `{"z":1,"a":2}`},
		{name: "empty arguments", rc: dialects.RawCall{Name: "f"}, wantName: "f", wantArgs: `{}`, repair: toolcall.RepairEmptyArguments},
		{name: "null arguments", rc: dialects.RawCall{Name: "f", Arguments: "null"}, wantName: "f", wantArgs: `{}`, repair: toolcall.RepairEmptyArguments},
		{name: "json string", rc: dialects.RawCall{Name: "f", Arguments: `"{\"a\": 1}"`}, wantName: "f", wantArgs: `{"a":1}`, repair: toolcall.RepairDoubleEncoded},
		{name: "double encoded twice", rc: dialects.RawCall{Name: "f", Arguments: `"\"{\\\"a\\\": 1}\""`}, wantName: "f", wantArgs: `{"a":1}`, repair: toolcall.RepairDoubleEncoded},
		{name: "empty json string", rc: dialects.RawCall{Name: "f", Arguments: `""`}, wantName: "f", wantArgs: `{}`, repair: toolcall.RepairEmptyArguments},
		{name: "array", rc: dialects.RawCall{Name: "f", Arguments: `[1]`}, code: toolcall.CodeNotObject},
		{name: "number", rc: dialects.RawCall{Name: "f", Arguments: `5`}, code: toolcall.CodeNotObject},
		{name: "plain string", rc: dialects.RawCall{Name: "f", Arguments: `"hello"`}, code: toolcall.CodeNotObject},
		{name: "repair off", rc: dialects.RawCall{Name: "f", Arguments: `{'a': 1}`}, noRepair: true, code: toolcall.CodeInvalidJSON},
		{name: "repaired", rc: dialects.RawCall{Name: "f", Arguments: `{'a': True}`}, wantName: "f", wantArgs: `{"a":true}`, repair: toolcall.RepairSingleQuotes},
		{name: "empty name", rc: dialects.RawCall{Name: " ", Arguments: `{}`}, code: toolcall.CodeMissingFunction},
		{name: "bad characters", rc: dialects.RawCall{Name: "get weather", Arguments: `{}`}, code: toolcall.CodeInvalidName},
		{name: "too long", rc: dialects.RawCall{Name: long, Arguments: `{}`}, code: toolcall.CodeNameTooLong},
		{name: "unknown tool", rc: dialects.RawCall{Name: "get_wether", Arguments: `{}`}, tools: true, code: toolcall.CodeUnknownTool},
		{name: "declared name with odd characters", rc: dialects.RawCall{Name: "Read-File.v2", Arguments: `{"path":"a"}`}, tools: true, wantName: "Read-File.v2", wantArgs: `{"path":"a"}`},
		{name: "case folded", rc: dialects.RawCall{Name: "GET_WEATHER", Arguments: `{"city":"Oslo"}`}, tools: true, wantName: "get_weather", wantArgs: `{"city":"Oslo"}`, repair: toolcall.RepairNameNormalized},
		{name: "schema violation", rc: dialects.RawCall{Name: "get_weather", Arguments: `{"days": 2}`}, tools: true, code: toolcall.CodeSchema},
		{name: "extraction error kept", rc: dialects.RawCall{Name: "f", Err: toolcall.NewError(toolcall.CodeMalformedCall, "broken")}, code: toolcall.CodeMalformedCall},
		{name: "too large", rc: dialects.RawCall{Name: "f", Arguments: `{"a":"` + strings.Repeat("x", 2<<20) + `"}`}, code: toolcall.CodeTooLarge},
		{name: "wrapper key unwrapped", rc: dialects.RawCall{Name: "get_weather", Arguments: `{"arguments": {"city": "Oslo", "days": 2}}`}, tools: true, wantName: "get_weather", wantArgs: `{"city":"Oslo","days":2}`, repair: toolcall.RepairWrappedArguments},
		{name: "wrapper holding a JSON string", rc: dialects.RawCall{Name: "get_weather", Arguments: `{"input": "{\"city\": \"Oslo\"}"}`}, tools: true, wantName: "get_weather", wantArgs: `{"city":"Oslo"}`, repair: toolcall.RepairWrappedArguments},
		{name: "wrapper holding a Python dict", rc: dialects.RawCall{Name: "get_weather", Params: []dialects.Param{{Key: "parameters", Value: `{'city': 'Oslo', 'days': 3}`}}}, tools: true, wantName: "get_weather", wantArgs: `{"city":"Oslo","days":3}`, repair: toolcall.RepairWrappedArguments},
		{name: "properties wrapper", rc: dialects.RawCall{Name: "get_weather", Arguments: `{"properties": {"city": "Oslo"}}`}, tools: true, wantName: "get_weather", wantArgs: `{"city":"Oslo"}`, repair: toolcall.RepairWrappedArguments},
		{name: "wrapper beside another key is not unwrapped", rc: dialects.RawCall{Name: "get_weather", Arguments: `{"input": {"city": "Oslo"}, "city": "Oslo"}`}, tools: true, wantName: "get_weather", wantArgs: `{"input":{"city":"Oslo"},"city":"Oslo"}`},
		{name: "wrapper holding text is not unwrapped", rc: dialects.RawCall{Name: "get_weather", Arguments: `{"input": "Oslo"}`}, tools: true, code: toolcall.CodeSchema},
		{name: "a declared wrapper name is a parameter", rc: dialects.RawCall{Name: "run", Arguments: `{"input": {"city": "Oslo"}}`}, tools: true, wantName: "run", wantArgs: `{"input":{"city":"Oslo"}}`},
		{name: "no tools: nothing declared to check, nothing unwrapped", rc: dialects.RawCall{Name: "f", Arguments: `{"arguments": {"a": 1}}`}, wantName: "f", wantArgs: `{"arguments":{"a":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := &dialects.Options{DisableRepair: tt.noRepair}
			if tt.tools {
				opts.Tools = tools(t)
			}
			call, repairs, err := dialects.FinishCall(&tt.rc, 3, opts)
			if tt.code != "" {
				if err == nil || coded.As(err).Code != tt.code {
					t.Fatalf("err = %v, want %s", err, tt.code)
				}
				if coded.As(err).CallIndex != 3 {
					t.Errorf("CallIndex = %d, want 3", coded.As(err).CallIndex)
				}
				if tt.code == toolcall.CodeUnknownTool && len(coded.As(err).Known) != 3 {
					t.Errorf("Known = %v", coded.As(err).Known)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if call.Name != tt.wantName || string(call.Arguments) != tt.wantArgs || call.Index != 3 {
				t.Errorf("call = %+v %s, want %s %s", call, call.Arguments, tt.wantName, tt.wantArgs)
			}
			if !strings.HasPrefix(call.ID, "call_") {
				t.Errorf("generated id %q", call.ID)
			}
			if tt.repair != "" {
				found := false
				for _, r := range repairs {
					found = found || r.Kind == tt.repair
					if r.CallIndex != 3 {
						t.Errorf("repair %v not tied to the call", r)
					}
				}
				if !found {
					t.Errorf("repairs %v lack %s", repairs, tt.repair)
				}
			}
		})
	}
}

func TestFinishKeepsSiblings(t *testing.T) {
	ext := &dialects.Extraction{Content: "c", Reasoning: "r", Calls: []dialects.RawCall{
		{Name: "a", Arguments: `{}`, ID: "id-a"},
		{Name: "", Arguments: `{}`},
		{Name: "c", Arguments: `{"x":1}`},
	}}
	res := dialects.Finish("test", ext, nil)
	if len(res.Calls) != 2 || res.Calls[0].ID != "id-a" || res.Calls[1].Index != 2 {
		t.Fatalf("calls = %+v", res.Calls)
	}
	if len(res.Errors) != 1 || res.Errors[0].CallIndex != 1 || res.Errors[0].Code != toolcall.CodeMissingFunction {
		t.Fatalf("errors = %v", res.Errors)
	}
	if res.Dialect != "test" || res.Content != "c" || res.Reasoning != "r" || res.OK() {
		t.Errorf("result = %+v", res)
	}
}

func TestReadCallObject(t *testing.T) {
	tests := []struct {
		in           string
		ok           bool
		name, args   string
		id           string
		repairedHere bool
	}{
		{`{"name": "f", "arguments": {"a": 1}}`, true, "f", `{"a": 1}`, "", false},
		{`{"tool_name": "f", "parameters": {}}`, true, "f", `{}`, "", false},
		{`{"function": "f", "args": {"a": 1}, "id": "c1"}`, true, "f", `{"a": 1}`, "c1", false},
		{`{"type": "function", "id": "c2", "function": {"name": "f", "arguments": "{\"a\":1}"}}`, true, "f", `"{\"a\":1}"`, "c2", false},
		{`{'name': 'f', 'arguments': {'a': 1}}`, true, "f", `{"a":1}`, "", true},
		{`{"city": "Paris"}`, false, "", "", "", false},
		{`[1, 2]`, false, "", "", "", false},
	}
	for _, tt := range tests {
		rc, ok := callobject.Read(tt.in, 7, nil)
		if ok != tt.ok {
			t.Errorf("Read(%s) ok = %v", tt.in, ok)
			continue
		}
		if !ok {
			continue
		}
		if rc.Name != tt.name || rc.Arguments != tt.args || rc.ID != tt.id || rc.Offset != 7 {
			t.Errorf("Read(%s) = %+v", tt.in, rc)
		}
		if tt.repairedHere != (len(rc.Repairs) > 0) {
			t.Errorf("Read(%s) repairs = %v", tt.in, rc.Repairs)
		}
	}
}

func ExampleFinish() {
	ext := &dialects.Extraction{Content: "Checking.", Calls: []dialects.RawCall{
		{ID: "call_1", Name: "get_weather", Arguments: `{"city": "Paris",}`},
		{ID: "call_2", Name: "", Arguments: `{}`},
	}}
	res := dialects.Finish("example", ext, nil)
	for _, c := range res.Calls {
		fmt.Println(c.ID, c.Name, string(c.Arguments))
	}
	for _, e := range res.Errors {
		fmt.Println(e.Code, e.CallIndex)
	}
	// Output:
	// call_1 get_weather {"city":"Paris"}
	// TLP-001 1
}
