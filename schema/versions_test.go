package schema_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/schema"
)

// Version 1 takes {city}; version 2 renamed it to {location} and requires
// it; 2.1 adds an optional unit.
const (
	weatherV1  = `{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}`
	weatherV2  = `{"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}`
	weatherV21 = `{"type": "object", "properties": {"location": {"type": "string"}, "unit": {"type": "string"}}, "required": ["location"], "x-version": "2.1.0"}`
)

func versionedSet(t *testing.T) *schema.Set {
	t.Helper()
	var s schema.Set
	for _, tool := range []toolcall.Tool{
		{Name: "get_weather", Version: "2.0.0", Parameters: json.RawMessage(weatherV2)},
		{Name: "get_weather", Version: "1.4.2", Parameters: json.RawMessage(weatherV1)},
		{Name: "get_weather", Parameters: json.RawMessage(weatherV21)}, // x-version
		{Name: "get_time", Parameters: json.RawMessage(`{"type": "object", "properties": {}}`)},
	} {
		if err := s.Add(tool); err != nil {
			t.Fatal(err)
		}
	}
	return &s
}

func TestVersionsKept(t *testing.T) {
	s := versionedSet(t)
	if got := s.Versions("get_weather"); !slices.Equal(got, []string{"1.4.2", "2.0.0", "2.1.0"}) {
		t.Errorf("Versions = %v", got)
	}
	if got := s.Versions("get_time"); got == nil || len(got) != 0 {
		t.Errorf("Versions of an unversioned tool = %#v", got)
	}
	if s.Len() != 2 {
		t.Errorf("Len = %d", s.Len())
	}
	if tool, _ := s.Lookup("get_weather"); tool.Version != "2.1.0" {
		t.Errorf("Lookup gives version %s, want the newest", tool.Version)
	}
	if tool, ok := s.LookupVersion("get_weather", "1.4.2"); !ok || !strings.Contains(string(tool.Parameters), "city") {
		t.Errorf("LookupVersion 1.4.2 = %v", ok)
	}
	// A version added again replaces that version only.
	if err := s.Add(toolcall.Tool{Name: "get_weather", Version: "1.4.2", Parameters: json.RawMessage(weatherV1)}); err != nil {
		t.Fatal(err)
	}
	if got := s.Versions("get_weather"); len(got) != 3 {
		t.Errorf("after re-adding: %v", got)
	}
	// A tool without a version replaces every version.
	if err := s.Add(toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(weatherV1)}); err != nil {
		t.Fatal(err)
	}
	if got := s.Versions("get_weather"); len(got) != 0 {
		t.Errorf("after an unversioned add: %v", got)
	}
	// Not a version.
	if err := s.Add(toolcall.Tool{Name: "x", Version: "latest"}); !errors.Is(err, toolcall.ErrInvalidTool) {
		t.Errorf("version \"latest\": %v", err)
	}
}

func TestValidateVersions(t *testing.T) {
	s := versionedSet(t)
	city, location := json.RawMessage(`{"city": "Paris"}`), json.RawMessage(`{"location": "Paris", "unit": "C"}`)
	pin := func(v string, transition ...string) schema.Options {
		return schema.Options{Versions: &schema.VersionOptions{Pins: map[string]string{"get_weather": v}, Transition: transition}}
	}
	tests := []struct {
		name      string
		args      json.RawMessage
		opts      schema.Options
		code      toolcall.Code
		migration bool
	}{
		{name: "newest by default", args: location},
		{name: "old arguments fail the newest", args: city, code: toolcall.CodeSchema},
		{name: "pinned to major 1", args: city, opts: pin("1")},
		{name: "pinned to 1.0.0 picks the newest 1.x", args: city, opts: pin("1.0.0")},
		{name: "pinned to 1, new arguments fail", args: location, opts: pin("1"), code: toolcall.CodeSchema},
		{name: "pinned to 2", args: location, opts: pin("v2")},
		{name: "major mismatch", args: location, opts: pin("3.0.0"), code: toolcall.CodeVersionMismatch},
		{name: "pin that is not a version", args: location, opts: pin("next"), code: toolcall.CodeInvalidInput},
		{name: "transition accepts the previous major", args: city, opts: pin("2", "get_weather"), migration: true},
		{name: "transition for every tool", args: city, opts: schema.Options{Versions: &schema.VersionOptions{Transition: []string{"*"}}}, migration: true},
		{name: "transition for another tool", args: city, opts: pin("2", "get_time"), code: toolcall.CodeSchema},
		{name: "transition, invalid under both", args: json.RawMessage(`{"town": "Paris"}`), opts: pin("2", "*"), code: toolcall.CodeSchema},
		{name: "transition from the oldest major has nothing before it", args: location, opts: pin("1", "*"), code: toolcall.CodeSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, repairs, verr := s.Validate("get_weather", tt.args, tt.opts)
			err := coded.As(verr)
			if tt.code != "" {
				if err == nil || err.Code != tt.code {
					t.Fatalf("err = %v, want %s", err, tt.code)
				}
				if tt.code == toolcall.CodeVersionMismatch && (!strings.Contains(err.Message, "3.0.0") || !strings.Contains(err.Message, "2.1.0")) {
					t.Errorf("mismatch message does not name both versions: %s", err.Message)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			got := slices.ContainsFunc(repairs, func(r toolcall.Repair) bool { return r.Kind == toolcall.RepairSchemaMigration })
			if got != tt.migration {
				t.Errorf("migration repair %v, want %v: %v", got, tt.migration, repairs)
			}
			if got && !strings.Contains(repairs[len(repairs)-1].Detail, "1.4.2") {
				t.Errorf("migration detail %q does not name the version", repairs[len(repairs)-1].Detail)
			}
		})
	}
	// An unversioned tool ignores a pin.
	opts := schema.Options{Versions: &schema.VersionOptions{Pins: map[string]string{"get_time": "5"}}}
	if _, _, err := s.Validate("get_time", json.RawMessage(`{}`), opts); err != nil {
		t.Errorf("unversioned tool with a pin: %v", err)
	}
}

func TestParseToolVersion(t *testing.T) {
	tests := []struct{ def, want string }{
		{`{"type": "function", "function": {"name": "f", "version": "1.2.0", "parameters": {"type": "object"}}}`, "1.2.0"},
		{`{"type": "function", "version": "3", "function": {"name": "f"}}`, "3"},
		{`{"name": "f", "version": 2, "parameters": {"type": "object"}}`, "2"},
		{`{"name": "f", "parameters": {"type": "object", "x-version": "0.9.1"}}`, "0.9.1"},
		{`{"name": "f", "version": "1.0.0", "parameters": {"type": "object", "x-version": "0.9.1"}}`, "1.0.0"},
		{`{"name": "f"}`, ""},
	}
	for _, tt := range tests {
		tool, err := toolcall.ParseTool([]byte(tt.def))
		if err != nil || tool.Version != tt.want {
			t.Errorf("%s: version %q, %v; want %q", tt.def, tool.Version, err, tt.want)
		}
	}
}
