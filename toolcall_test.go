package toolcall_test

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
)

func TestErrorNeverPrintsRaw(t *testing.T) {
	e := toolcall.NewError(toolcall.CodeSchema, "/password: expected string, got number")
	e.Tool, e.CallIndex, e.Offset, e.Attempt, e.CorrelationID = "login", 2, 17, 3, "abc123"
	e.Raw = `{"password": "hunter2"}`
	got := e.Error()
	want := `TLP-004: /password: expected string, got number [tool "login", call 2, offset 17, attempt 3, correlation abc123]`
	if got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if strings.Contains(got, "hunter2") {
		t.Error("Error() leaks the raw arguments")
	}
}

func TestErrorIsAndAs(t *testing.T) {
	cause := errors.New("boom")
	var err error = fmt.Errorf("parsing: %w", toolcall.Errorf(toolcall.CodeRepairFailed, cause, "could not repair"))
	if !errors.Is(err, toolcall.ErrRepairFailed) {
		t.Error("errors.Is does not match the sentinel of the same code")
	}
	if errors.Is(err, toolcall.ErrSchema) {
		t.Error("errors.Is matches a sentinel of another code")
	}
	if !errors.Is(err, cause) {
		t.Error("errors.Is does not reach the wrapped cause")
	}
	var te *toolcall.Error
	if !errors.As(err, &te) || te.Code != toolcall.CodeRepairFailed {
		t.Errorf("errors.As = %v", te)
	}
	if got := toolcall.NewError(toolcall.CodeTooDeep, "").Error(); got != "TLP-013: nesting deeper than the limit" {
		t.Errorf("empty message falls back to the summary, got %q", got)
	}
}

func TestResultErr(t *testing.T) {
	r := &toolcall.Result{}
	if !r.OK() || r.Err() != nil {
		t.Fatal("an empty result is OK")
	}
	r.Errors = []*toolcall.Error{toolcall.NewError(toolcall.CodeSchema, "x"), toolcall.NewError(toolcall.CodeUnknownTool, "y")}
	if r.OK() {
		t.Fatal("a result with errors is not OK")
	}
	if !errors.Is(r.Err(), toolcall.ErrUnknownTool) || !errors.Is(r.Err(), toolcall.ErrSchema) {
		t.Errorf("Err() = %v hides one of the errors", r.Err())
	}
}

func TestCodesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("docs/errors.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[toolcall.Code]bool{}
	for _, c := range toolcall.Codes() {
		if seen[c] {
			t.Errorf("code %s listed twice", c)
		}
		seen[c] = true
		if c.Summary() == "" {
			t.Errorf("code %s has no summary", c)
		}
		if !strings.Contains(string(doc), "## "+string(c)+"\n") {
			t.Errorf("docs/errors.md has no section for %s", c)
		}
	}
	for _, m := range regexp.MustCompile(`## (TLP-\d{3})\n`).FindAllStringSubmatch(string(doc), -1) {
		if !seen[toolcall.Code(m[1])] {
			t.Errorf("docs/errors.md documents %s, which is not a code", m[1])
		}
	}
}

func TestParseTools(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // name|parameters
		code     toolcall.Code
	}{
		{"openai", `[{"type":"function","function":{"name":"get_weather","description":"d","parameters":{"type":"object", "properties":{}}}}]`,
			[]string{`get_weather|{"type":"object","properties":{}}`}, ""},
		{"bare", `{"name":"noop"}`, []string{"noop|"}, ""},
		{"anthropic", `[{"name":"a","input_schema":{"type":"object"}}]`, []string{`a|{"type":"object"}`}, ""},
		{"null", `null`, nil, ""},
		{"no name", `[{"type":"function","function":{"parameters":{}}}]`, nil, toolcall.CodeInvalidTool},
		{"parameters not object", `{"name":"x","parameters":[1]}`, nil, toolcall.CodeInvalidTool},
		{"not json", `[{`, nil, toolcall.CodeInvalidTool},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := toolcall.ParseTools([]byte(tt.in))
			if tt.code != "" {
				var te *toolcall.Error
				if !errors.As(err, &te) || te.Code != tt.code {
					t.Fatalf("err = %v, want code %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tl := range tools {
				got = append(got, tl.Name+"|"+string(tl.Parameters))
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNewCallID(t *testing.T) {
	re := regexp.MustCompile(`^call_[a-z0-9]{8}$`)
	a, b := toolcall.NewCallID(), toolcall.NewCallID()
	if !re.MatchString(a) || a == b {
		t.Errorf("ids %q %q", a, b)
	}
	// Ids never repeat.
	seen := map[string]bool{}
	for range 2000 {
		id := toolcall.NewCallID()
		if !re.MatchString(id) || seen[id] {
			t.Fatalf("id %q malformed or repeated", id)
		}
		seen[id] = true
	}
	// An id is made for every call a model wrote without one: it costs
	// one allocation, the id itself. (The race detector's build counts
	// differently; allocation bounds are checked without it.)
	if fuzzcheck.Race {
		return
	}
	if n := testing.AllocsPerRun(100, func() { _ = toolcall.NewCallID() }); n > 1 {
		t.Errorf("NewCallID allocates %v times", n)
	}
}

func ExampleError() {
	e := toolcall.NewError(toolcall.CodeUnknownTool, `no declared tool is named "get_wether"`)
	e.CallIndex = 0
	e.Known = []string{"get_time", "get_weather"}
	var err error = e
	fmt.Println(err)
	fmt.Println(errors.Is(err, toolcall.ErrUnknownTool), e.Known)
	// Output:
	// TLP-005: no declared tool is named "get_wether" [call 0]
	// true [get_time get_weather]
}

// TestParseToolsSaysWhatIsWrong: a definition that does not decode says
// which tool, which field, and what the field is instead of what it must
// be.
func TestParseToolsSaysWhatIsWrong(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"name": 3}`, `TLP-017: tool definition: "name" is a number, not a string`},
		{`[{"name": "a"}, {"type": "function", "function": {"name": 3}}]`, `TLP-017: tool 1: tool definition: "function.name" is a number, not a string`},
		{`{"type": "function", "function": "get_weather"}`, `TLP-017: tool definition: "function" is a string, not a JSON object`},
		{`{"name": "a", "description": ["x"]}`, `TLP-017: tool definition: "description" is an array, not a string`},
		{`{"name": "a", "description": true}`, `TLP-017: tool definition: "description" is a boolean, not a string`},
		{`[1]`, `TLP-017: tool 0: tool definition is a number, not a JSON object`},
		{`"get_weather"`, `TLP-017: tool definition is a string, not a JSON object`},
		{`{"type": "function", "function": {"description": "x"}}`, `TLP-017: tool definition has no name ("function.name" is missing or empty)`},
		{`{"description": "x"}`, `TLP-017: tool definition has no name`},
		{`{"name":`, `TLP-017: tool definition is not valid JSON: unexpected end of JSON input`},
	}
	for _, tt := range tests {
		_, err := toolcall.ParseTools([]byte(tt.in))
		if !errors.Is(err, toolcall.ErrInvalidTool) || err.Error() != tt.want {
			t.Errorf("ParseTools(%s) = %v, want %s", tt.in, err, tt.want)
		}
	}
}
