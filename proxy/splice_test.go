package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/lenient"
)

// TestSplicesAsWhole: a stream read with gjson and written from splices
// is byte for byte the stream read whole and written from its templates,
// for chunks that change shape, hold escapes, duplicate keys, a
// non-string created_at, the splice marker itself, reasoning, leaked and
// native calls; each stream also fed with its text cut in 3-byte chunks.
func TestSplicesAsWhole(t *testing.T) {
	const leaked = `<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>`
	ollama := func(created, msg, extra string) string {
		return `{"model":"m","created_at":` + created + `,"message":{"role":"assistant",` + msg + `},"done":false` + extra + "}\n"
	}
	openai := func(choice string) string {
		return `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[` + choice + "]}\n\n"
	}
	text := func(s string) string { return `"content":` + string(marshalString(s)) }
	delta := func(d string) string { return openai(`{"index":0,"delta":{` + d + `},"finish_reason":null}`) }
	data := func(ev string) string { return "data: " + ev + "\n\n" }
	resp := func(typ, field, s string) string {
		return data(`{"type":"` + typ + `","sequence_number":1,"item_id":"msg_1","output_index":0,"content_index":0,"` + field + `":` + string(marshalString(s)) + `}`)
	}
	anth := func(typ, field, s string) string {
		return data(`{"type":"content_block_delta","index":0,"delta":{"type":"` + typ + `","` + field + `":` + string(marshalString(s)) + `}}`)
	}
	chunked := func(api API, s string) string {
		var b strings.Builder
		for i := 0; i < len(s); i += 3 {
			piece := s[i:min(i+3, len(s))]
			switch api {
			case Ollama:
				b.WriteString(ollama(`"t`+itoa(i)+`"`, text(piece), ""))
			case OpenAI:
				b.WriteString(delta(text(piece)))
			case Responses:
				b.WriteString(resp("response.output_text.delta", "delta", piece))
			case Anthropic:
				b.WriteString(anth("text_delta", "text", piece))
			}
		}
		return b.String()
	}
	respCreated := data(`{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","model":"m","output":[]}}`)
	respDone := data(`{"type":"response.completed","sequence_number":9,"response":{"id":"resp_1","object":"response","status":"completed","model":"m","output":[]}}`)
	anthStart := data(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":0}}}`) +
		data(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	anthDone := data(`{"type":"content_block_stop","index":0}`) +
		data(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}`) + data(`{"type":"message_stop"}`)
	for _, tc := range []struct {
		name string
		api  API
		body string
	}{
		{"ollama", Ollama, ollama(`"t1"`, text("Hello "), "") +
			ollama(`"t2"`, text("wo\"rld\n\u2028"), "") +
			ollama(`"t3"`, `"content":"","thinking":"hmm"`, "") +
			ollama(`"t4"`, text("Let me check. "+leaked), "") +
			ollama(`1`, text(" x"), "") +
			ollama(`"t5"`, text(" y"), `,"extra":1`) +
			ollama(`"t6","created_at":"t7"`, text(" z"), "") +
			ollama(`"t8"`, text(" \u0000dialectkit-splice-0\u0000"), "") +
			`{"model":"\u0000dialectkit-splice-1\u0000","created_at":"t9","message":{"role":"assistant","content":" w"},"done":false}` + "\n" +
			`{"model":"\u0000dialectkit-splice-1\u0000","created_at":"t10","message":{"role":"assistant","content":" v"},"done":false}` + "\n" +
			ollama(`"t11"`, `"content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Rome"}}}]`, "") +
			`{"model":"m","created_at":"t12","message":{"role":"assistant","content":"end"},"done":true,"done_reason":"stop","eval_count":3}` + "\n"},
		{"ollama/chunked", Ollama, chunked(Ollama, "The weather: "+leaked+" and more text after it.") +
			`{"model":"m","created_at":"t","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}` + "\n"},
		{"openai", OpenAI, delta(`"role":"assistant","content":""`) +
			delta(text("Hello ")) +
			delta(text("wo\"rld\n")) +
			delta(`"reasoning_content":"think"`) +
			openai(`{"index":0,"delta":{"content":"x"},"logprobs":{"content":[{"token":"x"}]},"finish_reason":null}`) +
			openai(`{"index":0,"delta":{"content":"y"},"logprobs":{"content":[{"token":"y"}]},"finish_reason":null}`) +
			openai(`{"index":0,"delta":{"content":"y"},"delta":{"content":"z"},"finish_reason":null}`) +
			delta(text("Let me check. "+leaked)) +
			delta(text(" \u0000dialectkit-splice-0\u0000")) +
			delta(`"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]`) +
			delta(`"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Rome\"}"}}]`) +
			delta(`"role":"assistant","content":"a"`) +
			openai(`{"index":0,"delta":{},"finish_reason":"stop"}`) +
			`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2}}` + "\n\n" +
			"data: [DONE]\n\n"},
		{"openai/chunked", OpenAI, delta(`"role":"assistant","content":""`) +
			chunked(OpenAI, "The weather: "+leaked+" and more text after it.") +
			openai(`{"index":0,"delta":{},"finish_reason":"stop"}`) + "data: [DONE]\n\n"},
		{"responses", Responses, respCreated +
			resp("response.output_text.delta", "delta", "Hello \"x\"\n") +
			resp("response.reasoning_summary_text.delta", "delta", "think") +
			resp("response.output_text.delta", "delta", "Let me check. "+leaked) +
			resp("response.output_text.delta", "delta", "\u0000dialectkit-splice-1\u0000") +
			data(`{"type":"response.output_text.delta","delta":"a","delta":"b"}`) +
			data(`{"type":"response.output_text.delta","delta":5}`) +
			resp("response.output_text.delta", "delta", " after") + respDone},
		{"responses/chunked", Responses, respCreated + chunked(Responses, "The weather: "+leaked+" and more text after it.") + respDone},
		{"anthropic", Anthropic, anthStart +
			anth("text_delta", "text", "Hello \"x\"\n") +
			anth("thinking_delta", "thinking", "hmm") +
			anth("text_delta", "text", "Let me check. "+leaked) +
			anth("text_delta", "text", "\u0000dialectkit-splice-0\u0000") +
			data(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","text":"b"}}`) +
			data(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta"}}`) +
			anth("text_delta", "text", " after") + anthDone},
		{"anthropic/chunked", Anthropic, anthStart + chunked(Anthropic, "The weather: "+leaked+" and more text after it.") + anthDone},
		// Chunks of one shape whose other values change (the holes of the
		// template a chunk is matched against), broken by chunks that
		// are not quite the shape: a value of another kind, a bad escape,
		// a control character, invalid UTF-8, a key more.
		{"ollama/holes", Ollama, ollama(`"t1"`, text("Let me "), "") +
			ollama(`"t2"`, `"content":"che\u00e9ck \ud83d\ude00 \ud800 "`, "") +
			ollama(`"t3"`, `"content":"","thinking":"hmm"`, "") +
			ollama(`"t4"`, `"content":"","thinking":"\n"`, "") +
			ollama(`"t5"`, `"content":"a\x","thinking":""`, "") +
			ollama(`"t6"`, `"content":"a`+"\t	"+`b","thinking":""`, "") +
			ollama(`"t7"`, `"content":"`+"ÿ"+`","thinking":""`, "") +
			ollama(`"t8"`, `"content":"x","thinking":null`, "") +
			ollama(`"t9"`, `"content":"y","thinking":null`, "") +
			ollama(`"t10"`, `"content":5,"thinking":null`, "") +
			ollama(`"t11"`, text(leaked), "") +
			ollama(`"t12"`, text(" after"), `,"more":1`) +
			`{"model":"m","created_at":"t13","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}` + "\n"},
		{"openai/holes", OpenAI, delta(`"role":"assistant","content":""`) +
			`data: {"id":"c1","created":1,"choices":[{"index":0,"delta":{"content":"Let "},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c2","created":2.5e3,"choices":[{"index":0,"delta":{"content":"me \"check\" "},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c3","created":-0,"choices":[{"index":0,"delta":{"content":"` + strings.ReplaceAll(leaked[:20], `"`, `\"`) + `"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c4","created":01,"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":4,"created":5,"choices":[{"index":0,"delta":{"content":"y"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c5","created":6,"choices":[{"index":0,"delta":{"content":"` + strings.ReplaceAll(leaked[20:], `"`, `\"`) + `"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c6","created":7,"choices":[{"index":0,"delta":{"content":"z","reasoning_content":"r"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c7","created":8,"choices":[{"index":0,"delta":{"content":"w","reasoning_content":"s"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c8","created":9,"choices":[{"index":0,"delta":{"content":"w","content":"v"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c9","created":10,"choices":[{"index":0,"delta":{"content":"u"},"finish_reason":"stop"}]}` + "\n\n" +
			"data: [DONE]\n\n"},
		{"responses/holes", Responses, respCreated +
			data(`{"type":"response.output_text.delta","sequence_number":1,"obfuscation":"ab","delta":"Let "}`) +
			data(`{"type":"response.output_text.delta","sequence_number":2,"obfuscation":"abcd","delta":"me \u0063heck "}`) +
			data(`{"type":"response.output_text.delta","sequence_number":"3","obfuscation":"abcd","delta":"x"}`) +
			data(`{"type":"response.output_text.delta","sequence_number":4,"obfuscation":"abcd","delta":"y"}`) +
			data(`{"type":"response.reasoning_text.delta","sequence_number":5,"obfuscation":"abcd","delta":"think"}`) +
			data(`{"type":"response.reasoning_text.delta","sequence_number":6,"obfuscation":"abcd","delta":" more"}`) +
			data(`{"type":"response.output_text.delta","sequence_number":7,"obfuscation":"abcd","delta":"`+strings.ReplaceAll(leaked, `"`, `\"`)+`"}`) +
			data(`{"type":"response.output_text.delta","sequence_number":8,"obfuscation":"abcd","delta":"`+"\u0001"+`"}`) +
			data(`{"type":"response.output_text.delta","sequence_number":9,"obfuscation":"abcd","delta":"`+""+`"}`) +
			data(`{"type":"response.output_text.delta","sequence_number":10,"obfuscation":"abcd","delta":" after"}`) + respDone},
		// The upstream's own part and done events of its items, which the
		// proxy does not read, around an item it does not read either
		// (whose events all go out) and a refusal.
		{"responses/events", Responses, respCreated +
			data(`{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}}`) +
			data(`{"type":"response.reasoning_summary_part.added","sequence_number":2,"output_index":0,"item_id":"rs_1","summary_index":0,"part":{"type":"summary_text","text":""}}`) +
			resp("response.reasoning_summary_text.delta", "delta", "think") +
			data(`{"type":"response.reasoning_summary_text.done","sequence_number":4,"output_index":0,"item_id":"rs_1","summary_index":0,"text":"think"}`) +
			data(`{"type":"response.output_item.done","sequence_number":5,"output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"think"}]}}`) +
			data(`{"type":"response.output_item.added","sequence_number":6,"output_index":1,"item":{"type":"web_search_call","id":"ws_1","status":"in_progress"}}`) +
			data(`{"type":"response.content_part.done","sequence_number":7,"output_index":1,"item_id":"ws_1","part":{"type":"output_text","text":"x"}}`) +
			data(`{"type":"response.web_search_call.completed","sequence_number":8,"output_index":1,"item_id":"ws_1"}`) +
			data(`{"type":"response.output_item.done","sequence_number":9,"output_index":1,"item":{"type":"web_search_call","id":"ws_1","status":"completed"}}`) +
			data(`{"type":"response.output_item.added","sequence_number":10,"output_index":2,"item":{"type":"message","id":"msg_1","status":"in_progress","role":"assistant","content":[]}}`) +
			data(`{"type":"response.content_part.added","sequence_number":11,"output_index":2,"item_id":"msg_1","content_index":0,"part":{"type":"output_text","text":""}}`) +
			resp("response.output_text.delta", "delta", "Let me check. "+leaked) +
			data(`{"type":"response.refusal.delta","sequence_number":13,"output_index":2,"item_id":"msg_1","content_index":1,"delta":"no"}`) +
			data(`{"type":"response.output_text.done","sequence_number":14,"output_index":2,"item_id":"msg_1","content_index":0,"text":"Let me check."}`) +
			data(`{"type":"response.output_text.done","type":"response.refusal.delta","sequence_number":16,"delta":" more"}`) +
			data(`{"type":"response.content_part.done","sequence_number":17,"output_index":2,"item_id":"msg_1","content_index":0,"part":{"type":"output_text","text":"Let me check."}}`) +
			data(`{"type":"response.output_item.done","sequence_number":18,"output_index":2,"item":{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[]}}`) +
			data(`{"type":"response.output_text.done","ty\u0070e":"response.completed","sequence_number":15,"response":{"id":"resp_1","status":"completed","output":[]}}`) +
			respDone},
		{"anthropic/holes", Anthropic, anthStart +
			data(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let "}}`) +
			data(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"me \/check "}}`) +
			data(`{"type":"content_block_delta","index":7,"delta":{"type":"text_delta","text":"x"}}`) +
			data(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm","text":"t"}}`) +
			data(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm","text":5}}`) +
			data(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"`+strings.ReplaceAll(leaked, `"`, `\"`)+`"}}`) +
			data(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"y\q"}}`) +
			data(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" after"}}`) + anthDone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spliced := proxyStream(t, tc.api, tc.body, false)
			whole := proxyStream(t, tc.api, tc.body, true)
			if spliced != whole {
				t.Errorf("spliced:\n%s\nwhole:\n%s", spliced, whole)
			}
			if !strings.Contains(whole, "get_weather") || !strings.Contains(whole, "Paris") {
				t.Errorf("the leaked call is not in the stream:\n%s", whole)
			}
		})
	}
}

// callIDs are the ids the proxy gives calls and items, which differ run
// to run.
var callIDs = regexp.MustCompile(`(call|msg|rs|fc|toolu)_[0-9A-Za-z]+`)

// proxyStream is the stream a client gets for an upstream answering body,
// with whole (no splices) or not, its call ids made equal.
func proxyStream(t *testing.T, api API, body string, whole bool) string {
	t.Helper()
	ct := "text/event-stream"
	if api == Ollama {
		ct = "application/x-ndjson"
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ct)
		io.WriteString(w, body)
	}))
	defer up.Close()
	kind := api
	if api != Ollama {
		kind = OpenAI
	}
	c, err := newCore(Options{Upstream: up.URL, API: kind}, true)
	if err != nil {
		t.Fatal(err)
	}
	c.wholeChunks = whole
	srv := httptest.NewServer(&Handler{c: c})
	defer srv.Close()
	path := map[API]string{Ollama: "/api/chat", OpenAI: "/v1/chat/completions", Responses: "/v1/responses", Anthropic: "/v1/messages"}[api]
	schema := `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`
	chat := `{"model":"m","stream":true,"messages":[{"role":"user","content":"Weather?"}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":` + schema + `}}]}`
	req := map[API]string{
		Ollama:    chat,
		OpenAI:    chat,
		Responses: `{"model":"m","stream":true,"input":[{"role":"user","content":"Weather?"}],"tools":[{"type":"function","name":"get_weather","parameters":` + schema + `}]}`,
		Anthropic: `{"model":"m","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"Weather?"}],"tools":[{"name":"get_weather","input_schema":` + schema + `}]}`,
	}[api]
	resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(req))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return callIDs.ReplaceAllString(string(out), "call_X")
}

// TestValueEnd: a hole of a chunk template takes exactly the JSON strings
// and numbers lenient.Valid takes, and ends where they end.
func TestValueEnd(t *testing.T) {
	for _, tc := range []struct {
		in  string
		num bool
	}{
		{`""`, false}, {`"abc"`, false}, {`"a\"b"`, false}, {`"\\"`, false}, {`"\/\b\f\n\r\t"`, false},
		{`"\u00e9\uD83D\uDE00"`, false}, {`"\ud800"`, false}, {`"é 😀"`, false},
		{`"\u00e"`, false}, {`"\x"`, false}, {`"a` + "\x01" + `"`, false}, {`"a` + "\xff" + `"`, false},
		{`"\"`, false}, {`"abc`, false}, {`abc"`, false}, {`5`, false},
		{`0`, true}, {`-0`, true}, {`12`, true}, {`1.5`, true}, {`-1.25e-3`, true}, {`1E+5`, true}, {`1e5`, true},
		{`01`, true}, {`-`, true}, {`1.`, true}, {`.5`, true}, {`1e`, true}, {`1e+`, true}, {`+1`, true}, {`"1"`, true}, {``, true},
		{`[]`, true}, {`{}`, true}, {`true`, true}, {`null`, true}, {`[]`, false}, {`false`, false},
	} {
		want := lenient.Valid([]byte(tc.in)) && holeKind([]byte(tc.in), tc.num)
		if got := valueEnd([]byte(tc.in+`,`), 0, tc.num) == len(tc.in); got != want {
			t.Errorf("valueEnd(%q, num %v) takes it: %v, want %v", tc.in, tc.num, got, want)
		}
	}
}

// holeKind reports whether b begins as the kind of value a hole takes: a
// number (a minus or a digit) when num, else a string. Arrays, objects,
// true, false and null are neither.
func holeKind(b []byte, num bool) bool {
	if len(b) == 0 {
		return false
	}
	if num {
		return b[0] == '-' || '0' <= b[0] && b[0] <= '9'
	}
	return b[0] == '"'
}

// FuzzValueEnd: valueEnd takes a string or number exactly when
// lenient.Valid takes it as a JSON value of that kind, with no blank
// around it.
func FuzzValueEnd(f *testing.F) {
	for _, s := range []string{`"a\"b"`, `"\u00e9"`, `-1.5e3`, `01`, `"` + "\xff" + `"`, `"\ud800"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, num := range []bool{false, true} {
			want := lenient.Valid(b) && len(bytes.TrimSpace(b)) == len(b) && holeKind(b, num)
			if got := valueEnd(append(b[:len(b):len(b)], '}'), 0, num) == len(b); got != want {
				t.Errorf("valueEnd(%q, num %v) takes it: %v, want %v", b, num, got, want)
			}
		}
	})
}
