package schema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
)

const coerceSchema = `{"type":"object","properties":{
	"n":{"type":"integer"},
	"x":{"type":"number"},
	"b":{"type":"boolean"},
	"s":{"type":"string"},
	"tags":{"type":"array","items":{"type":"string"}},
	"ids":{"type":"array","items":{"type":"integer"}},
	"opt":{"type":["integer","null"]},
	"cfg":{"type":"object","properties":{"depth":{"type":"integer"},"on":{"type":"boolean"}}},
	"either":{"anyOf":[{"type":"integer"},{"type":"null"}]},
	"one":{"oneOf":[{"type":"boolean"},{"type":"array","items":{"type":"integer"}}]},
	"level":{"$ref":"#/$defs/Level"},
	"levels":{"type":"array","items":{"$ref":"#/$defs/Level"}},
	"choice":{"enum":[1,2,3]}},
	"$defs":{"Level":{"type":"integer","minimum":0}}}`

func TestCoercion(t *testing.T) {
	tests := []struct {
		name  string
		args  string
		opts  Options
		want  string   // the arguments returned
		fixes []string // repair details, in order
		risky []bool   // Risky of each repair
		fail  string   // when set, the validation error's first message contains it
	}{
		{name: "string to integer", args: `{"n":"5"}`, want: `{"n":5}`, fixes: []string{"/n: string→integer"}},
		{name: "signed and spaced integer", args: `{"n":" +42 "}`, want: `{"n":42}`, fixes: []string{"/n: string→integer"}},
		{name: "integral float text to integer", args: `{"n":"3.0"}`, want: `{"n":3}`, fixes: []string{"/n: string→integer"}},
		{name: "exponent to integer digits", args: `{"n":"1e3"}`, want: `{"n":1000}`, fixes: []string{"/n: string→integer"}},
		{name: "string to number", args: `{"x":"3.5"}`, want: `{"x":3.5}`, fixes: []string{"/x: string→number"}},
		{name: "string to number, integral", args: `{"x":"-7"}`, want: `{"x":-7}`, fixes: []string{"/x: string→number"}},
		{name: "number to string", args: `{"s":5}`, want: `{"s":"5"}`, fixes: []string{"/s: integer→string"}},
		{name: "fraction to string", args: `{"s":2.50}`, want: `{"s":"2.50"}`, fixes: []string{"/s: number→string"}},
		{name: "boolean to string", args: `{"s":true}`, want: `{"s":"true"}`, fixes: []string{"/s: boolean→string"}},
		{name: "null text to null", args: `{"opt":"null"}`, want: `{"opt":null}`, fixes: []string{"/opt: string→null"}},
		{name: "nullable integer", args: `{"opt":"12"}`, want: `{"opt":12}`, fixes: []string{"/opt: string→integer"}},
		{name: "single value wrapped", args: `{"tags":"news"}`, want: `{"tags":["news"]}`, fixes: []string{"/tags: string→array (wrapped)"}},
		{name: "wrapped then typed", args: `{"ids":"5"}`, want: `{"ids":[5]}`,
			fixes: []string{"/ids: string→array (wrapped)", "/ids/0: string→integer"}},
		{name: "number wrapped", args: `{"ids":7}`, want: `{"ids":[7]}`, fixes: []string{"/ids: integer→array (wrapped)"}},
		{name: "JSON text array", args: `{"tags":"[\"a\", \"b\"]"}`, want: `{"tags":["a","b"]}`,
			fixes: []string{"/tags: string→array (decoded JSON text)"}},
		{name: "JSON text object, nested coercion", args: `{"cfg":"{\"depth\": \"2\"}"}`, want: `{"cfg":{"depth":2}}`,
			fixes: []string{"/cfg: string→object (decoded JSON text)", "/cfg/depth: string→integer"}},
		{name: "nested object", args: `{"cfg":{"on":false,"depth":"4"}}`, want: `{"cfg":{"on":false,"depth":4}}`,
			fixes: []string{"/cfg/depth: string→integer"}},
		{name: "array items", args: `{"ids":[1,"2",3]}`, want: `{"ids":[1,2,3]}`, fixes: []string{"/ids/1: string→integer"}},
		{name: "anyOf tries branches in order", args: `{"either":"9"}`, want: `{"either":9}`, fixes: []string{"/either: string→integer"}},
		{name: "anyOf null branch", args: `{"either":"null"}`, want: `{"either":null}`, fixes: []string{"/either: string→null"}},
		{name: "oneOf follows the admitting branch", args: `{"one":[1,"2"]}`, want: `{"one":[1,2]}`, fixes: []string{"/one/1: string→integer"}},
		{name: "$ref", args: `{"level":"3"}`, want: `{"level":3}`, fixes: []string{"/level: string→integer"}},
		{name: "$ref items", args: `{"levels":["1",2]}`, want: `{"levels":[1,2]}`, fixes: []string{"/levels/0: string→integer"}},
		{name: "enum infers the type", args: `{"choice":"2"}`, want: `{"choice":2}`, fixes: []string{"/choice: string→integer"}},
		{name: "key order kept", args: `{"s":1,"n":"2","b":false,"extra":"x"}`,
			want: `{"s":"1","n":2,"b":false,"extra":"x"}`, fixes: []string{"/s: integer→string", "/n: string→integer"}},
		{name: "undeclared properties are left alone", args: `{"n":"1","zz":"2"}`,
			want: `{"n":1,"zz":"2"}`, fixes: []string{"/n: string→integer"}},

		// Risky coercions: refused by default, applied and named with AllowRisky.
		{name: "string to boolean is risky", args: `{"b":"false"}`, want: `{"b":"false"}`,
			fail: "/b: expected boolean, got string (not coerced: string→boolean is risky; set AllowRisky to apply it)"},
		{name: "string to boolean allowed", args: `{"b":"False"}`, opts: Options{AllowRisky: true}, want: `{"b":false}`,
			fixes: []string{"/b: string→boolean"}, risky: []bool{true}},
		{name: "beyond 2^53 is risky", args: `{"n":"12345678901234567890"}`, want: `{"n":"12345678901234567890"}`,
			fail: "not coerced: string→integer is risky"},
		{name: "beyond 2^53 allowed", args: `{"n":"12345678901234567890"}`, opts: Options{AllowRisky: true},
			want: `{"n":12345678901234567890}`, fixes: []string{"/n: string→integer"}, risky: []bool{true}},
		{name: "2^53 itself is safe", args: `{"n":"9007199254740992"}`, want: `{"n":9007199254740992}`,
			fixes: []string{"/n: string→integer"}, risky: []bool{false}},

		// Lossy coercions: never applied.
		{name: "leading zeros refused", args: `{"n":"00123"}`, opts: Options{AllowRisky: true}, want: `{"n":"00123"}`,
			fail: "/n: expected integer, got string (not coerced: leading zeros would be lost)"},
		{name: "fraction text refused", args: `{"n":"3.5"}`, opts: Options{AllowRisky: true}, want: `{"n":"3.5"}`,
			fail: "not coerced: the fraction would be truncated"},
		{name: "fraction number refused", args: `{"n":3.5}`, opts: Options{AllowRisky: true}, want: `{"n":3.5}`,
			fail: "/n: expected integer, got number (not coerced: the fraction would be truncated)"},
		{name: "not a number", args: `{"x":"3,5"}`, want: `{"x":"3,5"}`, fail: "/x: expected number, got string"},
		{name: "hex is not a number", args: `{"n":"0x10"}`, want: `{"n":"0x10"}`, fail: "/n: expected integer, got string"},
		{name: "infinity is not a number", args: `{"x":"Infinity"}`, want: `{"x":"Infinity"}`, fail: "/x: expected number, got string"},
		{name: "null is not wrapped", args: `{"tags":null}`, want: `{"tags":null}`, fail: "/tags: expected array, got null"},
		{name: "object is not a string", args: `{"s":{"a":1}}`, want: `{"s":{"a":1}}`, fail: "/s: expected string, got object"},
	}
	tool := mustTool(t, "c", coerceSchema)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Coerce = true
			out, repairs, err := tool.validate(json.RawMessage(tt.args), opts)
			if string(out) != tt.want {
				t.Errorf("arguments = %s, want %s", out, tt.want)
			}
			if tt.fail != "" {
				if err == nil || !strings.Contains(err.Violations[0].Message, tt.fail) {
					t.Errorf("error = %v, want a first violation containing %q", err, tt.fail)
				}
			} else if err != nil {
				t.Errorf("unexpected error %v", err)
			}
			if len(repairs) != len(tt.fixes) {
				t.Fatalf("repairs = %v, want %q", repairs, tt.fixes)
			}
			for i, r := range repairs {
				if r.Kind != toolcall.RepairCoercion || r.Detail != tt.fixes[i] || r.Offset != -1 || r.CallIndex != -1 {
					t.Errorf("repair %d = %+v, want coercion %q", i, r, tt.fixes[i])
				}
				wantRisky := tt.risky != nil && tt.risky[i]
				if r.Risky != wantRisky {
					t.Errorf("repair %d Risky = %v, want %v", i, r.Risky, wantRisky)
				}
			}
		})
	}
}

func TestCoercionWithUntypedCombinators(t *testing.T) {
	tool := mustTool(t, "c", `{"properties":{"a":{"type":"integer"},"b":{"type":"integer"}},
		"anyOf":[{"required":["a"]},{"required":["b"]}]}`)
	out, repairs, err := tool.validate(json.RawMessage(`{"b":"2"}`), Options{Coerce: true})
	if err != nil || string(out) != `{"b":2}` || len(repairs) != 1 {
		t.Errorf("got %s %v %v, want {\"b\":2}", out, repairs, err)
	}
}

func TestCoercionOffByDefault(t *testing.T) {
	tool := mustTool(t, "c", coerceSchema)
	args := `{"n":"5","tags":"a"}`
	out, repairs, err := tool.validate(json.RawMessage(args), Options{})
	if string(out) != args || len(repairs) != 0 {
		t.Errorf("coercion ran without Coerce: %s %v", out, repairs)
	}
	if err == nil || len(err.Violations) != 2 || strings.Contains(err.Error(), "not coerced") {
		t.Errorf("error = %v, want two plain type violations", err)
	}
}

// Repair details name the path and the types, never the value.
func TestCoercionDetailsHoldNoValues(t *testing.T) {
	tool := mustTool(t, "c", coerceSchema)
	_, repairs, _ := tool.validate(json.RawMessage(`{"n":"424242","s":131313,"tags":"zebra-unique"}`), Options{Coerce: true})
	if len(repairs) != 3 {
		t.Fatalf("repairs = %v", repairs)
	}
	for _, r := range repairs {
		for _, v := range []string{"424242", "131313", "zebra"} {
			if strings.Contains(r.Detail, v) || strings.Contains(r.String(), v) {
				t.Errorf("repair %q holds a value", r.Detail)
			}
		}
	}
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in                     string
		ok                     bool
		json, integer          string
		integral, zeros, isBig bool
	}{
		{in: "5", ok: true, json: "5", integer: "5", integral: true},
		{in: "+5", ok: true, json: "5", integer: "5", integral: true},
		{in: "-0", ok: true, json: "-0", integer: "0", integral: true},
		{in: "0.5", ok: true, json: "0.5"},
		{in: "5.000", ok: true, json: "5.000", integer: "5", integral: true},
		{in: "1.5e1", ok: true, json: "1.5e1", integer: "15", integral: true},
		{in: "150e-2", ok: true, json: "150e-2"},
		{in: "100e-2", ok: true, json: "100e-2", integer: "1", integral: true},
		{in: "0.00e5", ok: true, json: "0.00e5", integer: "0", integral: true},
		{in: "0.01e2", ok: true, json: "0.01e2", integer: "1", integral: true},
		{in: "0.015e2", ok: true, json: "0.015e2"},
		{in: "007", ok: true, json: "7", integer: "7", integral: true, zeros: true},
		{in: "-00.5", ok: true, json: "-0.5", zeros: true},
		{in: "9007199254740993", ok: true, json: "9007199254740993", integer: "9007199254740993", integral: true, isBig: true},
		{in: "-9007199254740992", ok: true, json: "-9007199254740992", integer: "-9007199254740992", integral: true},
		{in: "1e40", ok: true, json: "1e40", integral: true, isBig: true},
		{in: "1e999999999999", ok: true, json: "1e999999999999", integral: true, isBig: true},
		{in: "1e-999999999999", ok: true, json: "1e-999999999999"},
		{in: "", ok: false}, {in: "-", ok: false}, {in: ".5", ok: false}, {in: "5.", ok: false},
		{in: "1e", ok: false}, {in: "0x1F", ok: false}, {in: "1_000", ok: false}, {in: "1,5", ok: false},
		{in: " 5", ok: false}, {in: "NaN", ok: false}, {in: "Infinity", ok: false}, {in: "5a", ok: false},
	}
	for _, tt := range tests {
		n, ok := parseNumber(tt.in)
		if ok != tt.ok {
			t.Errorf("parseNumber(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if n.json != tt.json || n.integer != tt.integer || n.integral != tt.integral || n.leadingZeros != tt.zeros || n.big != tt.isBig {
			t.Errorf("parseNumber(%q) = %+v, want json %q integer %q integral %v zeros %v big %v",
				tt.in, n, tt.json, tt.integer, tt.integral, tt.zeros, tt.isBig)
		}
	}
}
