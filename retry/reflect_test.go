package retry_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/retry"
)

func TestRenderReflection(t *testing.T) {
	data := retry.ReflectionData{"tool_name": "get_weather", "error_code": "TLP-004", "field_path": "/days", "malformed_json": `{"x": "{error_code}"}`}
	tests := []struct{ template, want string }{
		{"{error_code} in {tool_name}", "TLP-004 in get_weather"},
		{"A\nMissing: {missing_fields}\nB", "A\nB"},                                 // an all-empty line is left out
		{"Field {field_path} expected {expected}\nok", "Field /days expected \nok"}, // a partly filled line stays
		{`{"json": "{not_a_placeholder}"} {tool_name}`, `{"json": "{not_a_placeholder}"} get_weather`},
		{"You wrote {malformed_json}", `You wrote {"x": "{error_code}"}`}, // values are not re-expanded
		{"{tool_name", "{tool_name"},
		{"}{tool_name}{", "}get_weather{"},
		{"  \n{suggestion}\n text ", "text"},
	}
	for _, tt := range tests {
		if got := retry.RenderReflection(tt.template, data); got != tt.want {
			t.Errorf("RenderReflection(%q) = %q, want %q", tt.template, got, tt.want)
		}
	}
	// Every placeholder of the default template is known.
	for _, p := range retry.Placeholders() {
		if !strings.Contains(config.DefaultRetryPromptTemplate, "{"+p+"}") && p != "call_id" && p != "attempt" && p != "retries_left" {
			t.Errorf("placeholder %s unused by the default template", p)
		}
	}
}

func TestExcerpt(t *testing.T) {
	short := "héllo"
	if retry.Excerpt(short, 500) != short {
		t.Error("short text changed")
	}
	long := strings.Repeat("é", 300) + strings.Repeat("x", 2000) + "END"
	got := retry.Excerpt(long, 500)
	if n := utf8.RuneCountInString(got); n > 500 {
		t.Errorf("excerpt has %d characters", n)
	}
	if !strings.HasPrefix(got, "ééé") || !strings.HasSuffix(got, "xxEND") || !strings.Contains(got, "2303 characters") {
		t.Errorf("excerpt = %q", got)
	}
	if !utf8.ValidString(got) {
		t.Error("excerpt cut a character")
	}
	if got := retry.Excerpt(long, 5); utf8.RuneCountInString(got) != 5 {
		t.Errorf("tiny limit: %q", got)
	}
}
