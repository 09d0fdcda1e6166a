package proxy

import (
	"bytes"
	"encoding/json"
	"maps"
	"testing"
)

// The chunks the proxy reads and writes are read and encoded without
// encoding/json's reflection; the bytes must be those encoding/json gives.
var wireInputs = []string{
	`{}`,
	`{"model":"m","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":"hi <b> & \u2028"},"done":false}`,
	`  { "b" : [1, 2 ,{"x" : null}], "a":"\u00e9\"\\", "a":2 , "z": {"k": "v"} }  `,
	`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"x","tool_calls":[{"index":0,"function":{"arguments":"{\"a\": 1}"}}]},"logprobs":null,"finish_reason":null}]}`,
	`{"k\u0065y":1,"\ud800":2,"é":3,"tab\t":4,"<&>":"<&>","ok":true,"n":-1.5e3}`,
	"{\"bad\xff\":1,\"v\":\"\xff\"}",
	`{"a":1,}`,
	`{"a":1`,
	`[1,2]`,
	`null`,
	`"s"`,
	``,
	`{"a":{"b":{"c":[[],{}]}}}x`,
}

func oldParseObj(b []byte) (obj, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil, false
	}
	var o obj
	if json.Unmarshal(b, &o) != nil || o == nil {
		return nil, false
	}
	return o, true
}

func oldBytes(o obj) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(map[string]json.RawMessage(o))
	return bytes.TrimRight(b.Bytes(), "\n")
}

func TestParseObjMatchesEncodingJSON(t *testing.T) {
	for _, in := range wireInputs {
		want, wok := oldParseObj([]byte(in))
		got, gok := parseObj([]byte(in))
		if wok != gok {
			t.Errorf("parseObj(%q) ok = %v, want %v", in, gok, wok)
			continue
		}
		if !maps.EqualFunc(got, want, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
			t.Errorf("parseObj(%q) = %q, want %q", in, got, want)
		}
		if wok {
			if g, w := got.bytes(), oldBytes(want); !bytes.Equal(g, w) {
				t.Errorf("bytes of %q = %s, want %s", in, g, w)
			}
		}
	}
}

func TestParseObjOwnsItsBytes(t *testing.T) {
	buf := []byte(`{"a":"x","b":[1]}`)
	o, _ := parseObj(buf)
	copy(buf, bytes.Repeat([]byte("#"), len(buf)))
	if string(o["a"]) != `"x"` || string(o["b"]) != `[1]` {
		t.Fatalf("parseObj kept the caller's buffer: %q", o)
	}
}

func TestObjBytesEdgeValues(t *testing.T) {
	for _, o := range []obj{
		{"model": nil, "x": json.RawMessage(`"a"`)},
		{"v": json.RawMessage(" [ 1 , \"<\u2028>\" ] ")},
		{"bad": json.RawMessage(`{`)},
		{"empty": json.RawMessage{}},
		{"compact": json.RawMessage(`{"a":"x y \" z\\","b":[1,{"c":null}]}`), "open": json.RawMessage(`"x`)},
		{"spaced": json.RawMessage("{\"a\":\"x\" ,\"b\":\t[1]}"), "bad": json.RawMessage(`{"a":}`)},
		{"é\u2028": json.RawMessage(`1`), "\"q": json.RawMessage(`2`)},
	} {
		if g, w := o.bytes(), oldBytes(o); !bytes.Equal(g, w) {
			t.Errorf("bytes of %q = %q, want %q", o, g, w)
		}
	}
}

// The fields of a parsed object read as encoding/json reads them.
func TestObjFieldsMatchEncodingJSON(t *testing.T) {
	extra := []string{
		`{"s":"plain","e":"a\"b\\u00e9\n","u":"é€😀","n":null,"x":12,"o":{"k":[1,{"a":"b"}]},"l":[ 1 , "a" ,{"b":[]}, null ],"el":[],"lo":{}}`,
		"{\"bad\":\"\xff\xfe\",\"ctl\":\"a\\u0000b\"}",
	}
	for _, in := range append(append([]string(nil), wireInputs...), extra...) {
		o, ok := parseObj([]byte(in))
		if !ok {
			continue
		}
		for k, raw := range o {
			var ws string
			wok := len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &ws) == nil
			if gs, gok := o.str(k); gs != ws || gok != wok {
				t.Errorf("%s: str(%q) = %q, %v; want %q, %v", in, k, gs, gok, ws, wok)
			}
			wsub, wok := oldParseObj(raw)
			gsub, gok := o.sub(k)
			if gok != wok || !maps.EqualFunc(gsub, wsub, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
				t.Errorf("%s: sub(%q) = %q, %v; want %q, %v", in, k, gsub, gok, wsub, wok)
			}
			var wl []json.RawMessage
			if json.Unmarshal(raw, &wl) != nil {
				wl = nil
			}
			gl := o.list(k)
			if (gl == nil) != (wl == nil) || len(gl) != len(wl) {
				t.Errorf("%s: list(%q) = %q, want %q", in, k, gl, wl)
				continue
			}
			for i := range gl {
				if !bytes.Equal(gl[i], wl[i]) {
					t.Errorf("%s: list(%q)[%d] = %s, want %s", in, k, i, gl[i], wl[i])
				}
			}
		}
	}
}

// compacted reads strings where jsonscan.StringEnd ends them: the blanks
// and escaped quotes inside a string are not layout, a blank outside one
// is, and a string the value does not close says no.
func TestCompacted(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{`{"a":1,"b":[true,null]}`, true},
		{`{"a b":"c d"}`, true},
		{`{"a":"say \"x y\" \\"}`, true},
		{`{"a":"\\\\"}`, true},
		{`{"a": 1}`, false},
		{"{\"a\":1}\n", false},
		{`{"a":"\\\\" }`, false},
		{`{"a":"x \" }`, false},
		{`"open`, false},
	} {
		if got := compacted([]byte(tc.v)); got != tc.want {
			t.Errorf("compacted(%s) = %v, want %v", tc.v, got, tc.want)
		}
	}
}
