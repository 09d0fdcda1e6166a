package dialects_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/lenient"
)

// The limits hold for every path arguments take: the lenient pipeline,
// strict JSON with repair off, and values typed from tagged parameters.
// These are the regression tests of the fuzz findings on those paths.

func TestLimitsWithRepairOff(t *testing.T) {
	opts := &dialects.Options{DisableRepair: true}
	deep := `{"a": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`
	for _, tc := range []struct {
		name string
		args string
		opts *dialects.Options
		code toolcall.Code // "" for success
	}{
		{"valid", `{"a": [1, {"b": "c"}]}`, opts, ""},
		{"nested past the default depth", deep, opts, toolcall.CodeTooDeep},
		{"nested past a small depth", `{"a": {"b": {"c": 1}}}`, &dialects.Options{DisableRepair: true, Lenient: lenient.Options{MaxDepth: 2}}, toolcall.CodeTooDeep},
		{"invalid UTF-8 in a string", "{\"a\": \"\xff\xfe\"}", opts, toolcall.CodeInvalidJSON},
		{"malformed", `{"a": 1,}`, opts, toolcall.CodeInvalidJSON},
		{"over the size limit", `{"a": "` + strings.Repeat("x", 100) + `"}`, &dialects.Options{DisableRepair: true, Lenient: lenient.Options{MaxSize: 64}}, toolcall.CodeTooLarge},
		{"nesting 10000 deep", strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000), opts, toolcall.CodeTooDeep},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, err := dialects.FinishCall(&dialects.RawCall{Name: "f", Arguments: tc.args, Offset: -1}, 0, tc.opts)
			args := c.Arguments
			switch {
			case tc.code == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tc.code != "" && (err == nil || coded.As(err).Code != tc.code):
				t.Fatalf("args %s, err = %v; want %s", args, err, tc.code)
			}
			if err != nil && strings.Contains(err.Error(), "xxxx") {
				t.Errorf("error text holds the value: %v", err)
			}
		})
	}
}

func TestTypedParametersKeepTheRules(t *testing.T) {
	call := func(params ...dialects.Param) *dialects.RawCall {
		return &dialects.RawCall{Name: "f", Params: params, Offset: 7}
	}
	t.Run("nested past the depth limit", func(t *testing.T) {
		deep := strings.Repeat("[", 70) + strings.Repeat("]", 70)
		_, _, err := dialects.FinishCall(call(dialects.Param{Key: "a", Value: deep}), 0, &dialects.Options{})
		if err == nil || coded.As(err).Code != toolcall.CodeTooDeep || coded.As(err).Offset != 7 || coded.As(err).Tool != "f" {
			t.Fatalf("err = %+v, want TLP-013 at the call", err)
		}
		_, _, err = dialects.FinishCall(call(dialects.Param{Key: "a", Value: `{"b": {"c": 1}}`, IsJSON: true}), 0,
			&dialects.Options{Lenient: lenient.Options{MaxDepth: 2}})
		if err == nil || coded.As(err).Code != toolcall.CodeTooDeep {
			t.Fatalf("declared JSON: err = %v, want TLP-013", err)
		}
	})
	t.Run("layout compacted", func(t *testing.T) {
		c, _, err := dialects.FinishCall(call(dialects.Param{Key: "config", Value: `{"nested": {"value": [1, 2, 3]}}`}, dialects.Param{Key: "s", Value: "two words"}), 0, &dialects.Options{})
		if err != nil || string(c.Arguments) != `{"config":{"nested":{"value":[1,2,3]}},"s":"two words"}` {
			t.Fatalf("arguments %s, err %v", c.Arguments, err)
		}
	})
	t.Run("invalid UTF-8", func(t *testing.T) {
		for _, p := range []dialects.Param{{Key: "a", Value: "[\"\xff\"]"}, {Key: "a", Value: "[\"\xff\"]", IsJSON: true}, {Key: "\xfe", Value: "\xff"}} {
			c, _, err := dialects.FinishCall(call(p), 0, &dialects.Options{})
			if err != nil || !utf8.Valid(c.Arguments) {
				t.Errorf("%q: arguments %q, err %v", p.Value, c.Arguments, err)
			}
		}
	})
}
