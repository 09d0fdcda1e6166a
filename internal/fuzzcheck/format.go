package fuzzcheck

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/corpustest"
)

// CallFormatter is implemented by a dialect that writes calls in its own
// syntax (the interface retry.CallFormatter names).
type CallFormatter interface {
	FormatCall(name string, args json.RawMessage) string
}

// FormatFor returns a call writer for d: its own FormatCall when it has
// one, else one made from a corpus vector of d (see TemplateFormat), else
// nil.
func FormatFor(tb testing.TB, d dialects.Dialect) Format {
	tb.Helper()
	if f, ok := d.(CallFormatter); ok {
		return f.FormatCall
	}
	vs, err := corpustest.Dialects()
	if err != nil {
		tb.Fatal(err)
	}
	for _, v := range corpustest.ForDialect(vs, d.Name()) {
		if f := TemplateFormat(d, v.Text); f != nil {
			return f
		}
	}
	return nil
}

// TemplateFormat turns a model output holding one call into a call writer:
// the call must have a top-level string argument made of letters and
// digits that appears once in text. The writer then handles arguments of
// one string member made of letters and digits, put in that value's place;
// the tool name and the key stay the template's. It returns nil when text
// is not such an output.
func TemplateFormat(d dialects.Dialect, text string) Format {
	res := dialects.Parse(d, text, &dialects.Options{})
	if len(res.Calls) != 1 || len(res.Errors) != 0 {
		return nil
	}
	slot := ""
	gjson.ParseBytes(res.Calls[0].Arguments).ForEach(func(_, v gjson.Result) bool {
		if v.Type == gjson.String && len(v.Str) >= 3 && plainWord(v.Str) && strings.Count(text, v.Str) == 1 {
			slot = v.Str
		}
		return slot == ""
	})
	if slot == "" {
		return nil
	}
	at := strings.Index(text, slot)
	before, after := text[:at], text[at+len(slot):]
	return func(_ string, args json.RawMessage) string {
		obj := gjson.ParseBytes(args)
		if !obj.IsObject() || len(obj.Map()) != 1 {
			return ""
		}
		value := ""
		obj.ForEach(func(_, v gjson.Result) bool { value = v.Str; return false })
		if !plainWord(value) {
			return ""
		}
		return before + value + after
	}
}

// plainWord reports whether s is made of ASCII letters and digits only,
// so that it reads the same in every dialect's quoting.
func plainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
