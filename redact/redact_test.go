package redact_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall/redact"
)

func TestJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"user":"bob","password":"x1"}`, `{"user":"bob","password":"[REDACTED]"}`},
		{`{"API-Key":123,"nested":{"client_secret":{"a":1},"list":[{"accessToken":"t"}]}}`,
			`{"API-Key":"[REDACTED]","nested":{"client_secret":"[REDACTED]","list":[{"accessToken":"[REDACTED]"}]}}`},
		{`{"headers":"Authorization: Bearer abcdefghijklmnop","note":"key sk-abcdefghijklmnopqrs ok"}`,
			`{"headers":"Authorization: Bearer [REDACTED]","note":"key [REDACTED] ok"}`},
		{`{"auth":"x","pin":"1234","city":"Paris","n":1}`, `{"auth":"[REDACTED]","pin":"[REDACTED]","city":"Paris","n":1}`},
		{`{"gh":"ghp_abcdefghijklmnopqrstuvwx","aws":"AKIAABCDEFGHIJKLMNOP"}`, `{"gh":"[REDACTED]","aws":"[REDACTED]"}`},
		{`{"city": "Paris", "n": [1, 2]}`, `{"city":"Paris","n":[1,2]}`},
		{`{"password": 'x'`, `"{\"password\": \"[REDACTED]\""`},
	}
	for _, tt := range tests {
		if got := string(redact.JSON(json.RawMessage(tt.in))); got != tt.want {
			t.Errorf("JSON(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"password": "hunter2", "user": "bob"}`, `{"password": "[REDACTED]", "user": "bob"}`},
		{`login(user='bob', password='hunter2')`, `login(user='bob', password="[REDACTED]")`},
		{`{"api_key": "unterminated`, `{"api_key": "[REDACTED]"`},
		{`token=abc123 rest`, `token="[REDACTED]" rest`},
		{"<parameter=password>\nhunter2\n</parameter>", "<parameter=password>[REDACTED]</parameter>"},
		{`<parameter name="db_password">hunter2</parameter>`, `<parameter name="db_password">[REDACTED]</parameter>`},
		{"<arg_key>secret</arg_key>\n<arg_value>hunter2</arg_value>", "<arg_key>secret</arg_key>\n<arg_value>[REDACTED]</arg_value>"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", "[REDACTED]"},
		{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "[REDACTED]"},
		{"nothing secret here", "nothing secret here"},
	}
	for _, tt := range tests {
		if got := redact.Text(tt.in); got != tt.want {
			t.Errorf("Text(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}
