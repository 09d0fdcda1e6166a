package proxy_test

import (
	"cmp"
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// TestAPIsUnderEitherKind: the Responses and Messages APIs are fixed under
// either upstream kind, the upstream given with its /v1 or without, and
// the request reaches the upstream at the API's own path.
func TestAPIsUnderEitherKind(t *testing.T) {
	for _, api := range []proxy.API{proxy.Responses, proxy.Anthropic} {
		for _, kind := range []proxy.API{proxy.Ollama, proxy.OpenAI} {
			for _, suffix := range []string{"", "/v1"} {
				for _, stream := range []bool{false, true} {
					name := string(api) + "/" + string(kind) + suffix + map[bool]string{false: "/whole", true: "/stream"}[stream]
					t.Run(name, func(t *testing.T) {
						up := fakeserver.NewServer(fakeserver.Script{{Content: "Sure. " + leakedHermes, ChunkSize: 5}}, nil)
						t.Cleanup(up.Close)
						obs := &observed{}
						h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL + suffix, API: kind, Logger: quiet, Observer: obs})
						if err != nil {
							t.Fatal(err)
						}
						srv := httptest.NewServer(h)
						t.Cleanup(srv.Close)
						a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, stream, ""), nil)
						if a.Status != 200 || a.names() != "get_weather "+parisArgs || strings.TrimSpace(a.Content) != "Sure." || a.Finish != finishTool[api] {
							t.Fatalf("%+v", a)
						}
						reqs := up.Requests()
						if len(reqs) != 1 || string(reqs[0].API) != string(api) {
							t.Fatalf("upstream requests %+v", reqs)
						}
						if st := obs.last(t); st.API != api || st.Outcome != proxy.OutcomeFixed || st.Calls != 1 || st.Fixed["leaked"] != 1 {
							t.Errorf("stats %+v", st)
						}
					})
				}
			}
		}
	}
}

// Answers written out as a server would send them, with an item and a
// block the proxy does not read (a server tool's call, redacted thinking)
// beside a leaked call: the Responses API and the Messages API, whole and
// streamed.
var (
	respWhole = `{"id":"resp_1","object":"response","status":"completed","model":"m","output":[` +
		`{"type":"web_search_call","id":"ws_1","status":"completed"},` +
		`{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"<tool_call>{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}</tool_call>","annotations":[]}]}],` +
		`"usage":{"input_tokens":3,"output_tokens":4,"total_tokens":7}}`

	respStream = "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"in_progress\",\"output\":[]}}\n\n" +
		"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"sequence_number\":1,\"output_index\":0,\"item\":{\"type\":\"web_search_call\",\"id\":\"ws_1\",\"status\":\"completed\"}}\n\n" +
		"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"sequence_number\":2,\"output_index\":1,\"item_id\":\"msg_1\",\"content_index\":0,\"delta\":\"<tool_call>{\\\"name\\\":\\\"get_weather\\\",\\\"arguments\\\":{\\\"city\\\":\\\"Paris\\\"}}</tool_call>\"}\n\n" +
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":3,\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\",\"output\":[],\"usage\":{\"input_tokens\":3,\"output_tokens\":4,\"total_tokens\":7}}}\n\n"

	anthWhole = `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[` +
		`{"type":"redacted_thinking","data":"opaque"},` +
		`{"type":"text","text":"<tool_call>{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}</tool_call>"}],` +
		`"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":4}}`

	anthStream = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"m\",\"stop_reason\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"redacted_thinking\",\"data\":\"opaque\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"<tool_call>{\\\"name\\\":\\\"get_weather\\\",\\\"arguments\\\":{\\\"city\\\":\\\"Paris\\\"}}</tool_call>\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":4}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
)

// TestItemsKept: output items, parts and content blocks the proxy does
// not read (a server tool's call, a refusal, redacted thinking) stay in the fixed answer,
// whole and streamed, beside the call that leaked.
func TestItemsKept(t *testing.T) {
	for _, tc := range []struct {
		api    proxy.API
		stream bool
		body   string
		kept   string
	}{
		{proxy.Responses, false, respWhole, `"web_search_call"`},
		{proxy.Responses, true, respStream, `"web_search_call"`},
		{proxy.Responses, false, strings.Replace(respWhole, `"annotations":[]}]}]`, `"annotations":[]},{"type":"refusal","refusal":"I will not say more."}]}]`, 1), `"I will not say more."`},
		{proxy.Responses, true, strings.Replace(respStream, "event: response.completed",
			"event: response.refusal.delta\ndata: {\"type\":\"response.refusal.delta\",\"sequence_number\":3,\"output_index\":1,\"item_id\":\"msg_1\",\"content_index\":1,\"delta\":\"I will not say more.\"}\n\nevent: response.completed", 1), `"I will not say more."`},
		{proxy.Anthropic, false, anthWhole, `"redacted_thinking"`},
		{proxy.Anthropic, true, anthStream, `"redacted_thinking"`},
	} {
		ct := map[bool]string{false: "application/json", true: "text/event-stream"}[tc.stream]
		_, srv := setup(t, tc.api, fakeserver.Script{{Body: tc.body, ContentType: ct}}, nil)
		a := post(t, nil, srv.URL+chatPath(tc.api), tc.api, chatBody(tc.api, tc.stream, ""), nil)
		if a.names() != "get_weather "+parisArgs || a.Finish != finishTool[tc.api] {
			t.Errorf("%s stream=%v: %+v", tc.api, tc.stream, a)
		}
		if strings.Count(a.Raw, tc.kept) == 0 || (tc.stream && tc.api == proxy.Responses && strings.Count(a.Raw, tc.kept) < 3) {
			// Streamed, the item is added, done, and in response.completed.
			t.Errorf("%s stream=%v: %s lost:\n%s", tc.api, tc.stream, tc.kept, a.Raw)
		}
	}
}

// TestServerToolsOnly: a request whose only tools are the server's own
// (the Responses API's web search, an Anthropic server tool) declares no
// tool a model's text can call: the answer passes as it came.
func TestServerToolsOnly(t *testing.T) {
	for _, tc := range []struct {
		api  proxy.API
		body string
	}{
		{proxy.Responses, `{"model":"m","input":"hi","tools":[{"type":"web_search"}]}`},
		{proxy.Anthropic, `{"model":"m","max_tokens":64,"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"web_search_20250305","name":"web_search"}]}`},
	} {
		obs := &observed{}
		_, srv := setup(t, tc.api, fakeserver.Script{{Content: leakedHermes}}, func(o *proxy.Options) { o.Observer = obs })
		a := post(t, nil, srv.URL+chatPath(tc.api), tc.api, tc.body, nil)
		if len(a.Calls) != 0 || a.Content != leakedHermes {
			t.Errorf("%s: %+v", tc.api, a)
		}
		if st := obs.last(t); st.Outcome != proxy.OutcomeUnchanged {
			t.Errorf("%s: outcome %q", tc.api, st.Outcome)
		}
	}
}

// TestRecoveryHistory: recovery asks again in the API's own shape: the
// upstream reads the client's conversation, then the failed answer and
// the reflection on it (a string input becomes its first message).
func TestRecoveryHistory(t *testing.T) {
	offSchema := "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": 5}}\n</tool_call>"
	for _, tc := range []struct {
		api  proxy.API
		body string
	}{
		{proxy.Responses, `{"model":"m","input":"Weather in Paris?","tools":[` + weatherToolFlat + `]}`},
		{proxy.Anthropic, `{"model":"m","max_tokens":64,"system":"Be brief.","messages":[{"role":"user","content":[{"type":"text","text":"Weather in Paris?"}]}],"tools":[` + weatherToolAnthropic + `]}`},
	} {
		up, srv := setup(t, tc.api, fakeserver.Script{{Content: offSchema}, {Content: leakedHermes}}, func(o *proxy.Options) {
			o.Config = config.Default()
			o.Config.MaxRetries = 1
		})
		a := post(t, nil, srv.URL+chatPath(tc.api), tc.api, tc.body, nil)
		if a.names() != "get_weather "+parisArgs {
			t.Fatalf("%s: %+v", tc.api, a)
		}
		reqs := up.Requests()
		if len(reqs) != 2 || reqs[1].Stream {
			t.Fatalf("%s: %d upstream requests", tc.api, len(reqs))
		}
		first, again := reqs[0].Messages, reqs[1].Messages
		if len(again) < len(first)+2 {
			t.Fatalf("%s: the re-ask has %d messages after %d", tc.api, len(again), len(first))
		}
		for i, m := range first {
			if again[i].Role != m.Role || again[i].Content != m.Content {
				t.Errorf("%s: message %d changed: %+v, was %+v", tc.api, i, again[i], m)
			}
		}
		if last := again[len(again)-1]; last.Role == "assistant" || last.Content == "" {
			t.Errorf("%s: the re-ask does not end with the reflection: %+v", tc.api, again)
		}
		if !strings.Contains(string(reqs[1].Body), `"stream":false`) {
			t.Errorf("%s: the re-ask streams: %s", tc.api, reqs[1].Body)
		}
	}
}

// TestNativeUnreadableKept: a native call whose arguments are not JSON and
// cannot be repaired stays a call, as the model wrote it, in each API's
// shape: a function_call whose arguments string holds the text, a tool_use
// whose input is the text as a JSON string (the JSON stays valid, and the
// SDKs read it); the failure is in dialectkit_call_errors.
func TestNativeUnreadableKept(t *testing.T) {
	const bad = "@@@ not json"
	for _, tc := range []struct {
		api    proxy.API
		stream bool
		body   string
	}{
		{proxy.Responses, false, `{"id":"r","object":"response","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"` + bad + `","status":"completed"}],"usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}`},
		{proxy.Responses, true, "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"r\",\"output\":[]}}\n\n" +
			"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"sequence_number\":1,\"output_index\":0,\"item\":{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_1\",\"name\":\"get_weather\",\"arguments\":\"" + bad + "\"}}\n\n" +
			"event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":2,\"response\":{\"id\":\"r\",\"status\":\"completed\",\"output\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1,\"total_tokens\":2}}}\n\n"},
		{proxy.Anthropic, false, `{"id":"m","type":"message","role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"get_weather","input":"` + bad + `"}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}`},
		{proxy.Anthropic, true, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"call_1\",\"name\":\"get_weather\",\"input\":{}}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"" + bad + "\"}}\n\n" +
			"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":1}}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"},
	} {
		ct := map[bool]string{false: "application/json", true: "text/event-stream"}[tc.stream]
		_, srv := setup(t, tc.api, fakeserver.Script{{Body: tc.body, ContentType: ct}}, nil)
		a := post(t, nil, srv.URL+chatPath(tc.api), tc.api, chatBody(tc.api, tc.stream, ""), nil)
		want := "get_weather " + bad
		if tc.api == proxy.Anthropic {
			want = `get_weather "` + bad + `"`
		}
		if a.names() != want || a.Calls[0].ID != "call_1" || a.Finish != finishTool[tc.api] {
			t.Errorf("%s stream=%v: calls %q, want %q: %+v", tc.api, tc.stream, a.names(), want, a)
		}
		if !strings.Contains(a.Raw, "dialectkit_call_errors") {
			t.Errorf("%s stream=%v: the failure is not told:\n%s", tc.api, tc.stream, a.Raw)
		}
	}
}

// TestUnreadItemEvents: a streamed item the proxy does not read (a
// server tool's call) goes out with its own events as they came, between
// its added and done events, at its place among the items sent, and
// numbered in the stream's sequence; the stream as a whole follows the
// API's event order (readResponsesSSE checks it).
func TestUnreadItemEvents(t *testing.T) {
	ev := func(typ, fields string) string {
		return "event: " + typ + "\ndata: {\"type\":\"" + typ + "\",\"sequence_number\":9," + fields + "}\n\n"
	}
	ws := `"item_id":"ws_1","output_index":0`
	body := strings.Replace(respStream, "event: response.output_item.done",
		ev("response.output_item.added", `"output_index":0,"item":{"type":"web_search_call","id":"ws_1","status":"in_progress"}`)+
			ev("response.web_search_call.in_progress", ws)+
			ev("response.web_search_call.searching", ws)+
			ev("response.web_search_call.completed", ws)+
			"event: response.output_item.done", 1)
	_, srv := setup(t, proxy.Responses, fakeserver.Script{{Body: body, ContentType: "text/event-stream"}}, nil)
	a := post(t, nil, srv.URL+chatPath(proxy.Responses), proxy.Responses, chatBody(proxy.Responses, true, ""), nil)
	if a.names() != "get_weather "+parisArgs || a.Finish != "completed" {
		t.Fatalf("%+v", a)
	}
	var got []string
	for _, raw := range sseEvents(t, []byte(a.Raw)) {
		var e struct {
			Type        string `json:"type"`
			OutputIndex *int   `json:"output_index"`
			ItemID      string `json:"item_id"`
			Item        struct {
				ID string `json:"id"`
			} `json:"item"`
		}
		json.Unmarshal(raw, &e)
		if e.OutputIndex != nil && *e.OutputIndex == 0 {
			got = append(got, e.Type+" "+e.ItemID+e.Item.ID)
		}
	}
	want := []string{"response.output_item.added ws_1", "response.web_search_call.in_progress ws_1",
		"response.web_search_call.searching ws_1", "response.web_search_call.completed ws_1", "response.output_item.done ws_1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the events at output index 0:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRecoveryPreviousResponse: a Responses request that continues a
// stored conversation (previous_response_id) is re-asked continuing the
// same one, its input grown by the loop's items, whose calls carry no item
// id of the proxy's making; the re-ask does not stream and drops
// stream_options. A request that names a conversation (which the upstream
// grows with each answer) is not re-asked: its failed call goes out as
// the model wrote it.
func TestRecoveryPreviousResponse(t *testing.T) {
	offSchema := "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": 5}}\n</tool_call>"
	input := `[{"type":"function_call_output","call_id":"call_9","output":"sunny"},{"role":"user","content":"And in Paris?"}]`
	for _, stream := range []bool{false, true} {
		for _, tc := range []struct {
			extra  string
			reasks bool
		}{
			{`"previous_response_id":"resp_prev"`, true},
			{`"conversation":"conv_1"`, false},
		} {
			body := `{"model":"m","stream":` + strconv.FormatBool(stream) + `,` + tc.extra + `,"input":` + input +
				`,"stream_options":{"include_obfuscation":false},"tools":[` + weatherToolFlat + `]}`
			up, srv := setup(t, proxy.Responses, fakeserver.Script{{Content: offSchema, ChunkSize: 16}, {Content: leakedHermes}}, func(o *proxy.Options) {
				o.Config = config.Default()
				o.Config.MaxRetries = 1
			})
			a := post(t, nil, srv.URL+chatPath(proxy.Responses), proxy.Responses, body, nil)
			reqs := up.Requests()
			if !tc.reasks {
				// The failure is in the header, or streamed in response.completed.
				if len(reqs) != 1 || a.names() != `get_weather {"city":5}` || a.CallErrors == "" && !strings.Contains(a.Raw, `"dialectkit_call_errors"`) {
					t.Errorf("%s stream=%v: %d upstream requests, %+v", tc.extra, stream, len(reqs), a)
				}
				continue
			}
			if len(reqs) != 2 || a.names() != "get_weather "+parisArgs {
				t.Fatalf("%s stream=%v: %d upstream requests, %+v", tc.extra, stream, len(reqs), a)
			}
			var again struct {
				Previous      string            `json:"previous_response_id"`
				Stream        bool              `json:"stream"`
				StreamOptions json.RawMessage   `json:"stream_options"`
				Input         []json.RawMessage `json:"input"`
			}
			if err := json.Unmarshal(reqs[1].Body, &again); err != nil {
				t.Fatal(err)
			}
			if again.Previous != "resp_prev" || again.Stream || again.StreamOptions != nil {
				t.Errorf("stream=%v: the re-ask %s", stream, reqs[1].Body)
			}
			var first []json.RawMessage
			json.Unmarshal([]byte(input), &first)
			if len(again.Input) < len(first)+2 {
				t.Fatalf("stream=%v: the re-ask's input %s", stream, reqs[1].Body)
			}
			for i, it := range first {
				if compact(string(again.Input[i])) != compact(string(it)) {
					t.Errorf("stream=%v: input item %d became %s", stream, i, again.Input[i])
				}
			}
			var kinds []string
			for _, raw := range again.Input[len(first):] {
				var it struct {
					Type, ID, CallID string `json:"-"`
				}
				var m map[string]json.RawMessage
				json.Unmarshal(raw, &m)
				json.Unmarshal(m["type"], &it.Type)
				json.Unmarshal(m["call_id"], &it.CallID)
				if _, ok := m["id"]; ok && it.Type == "function_call" {
					t.Errorf("stream=%v: a re-asked call carries an item id: %s", stream, raw)
				}
				kinds = append(kinds, cmp.Or(it.Type, "message"))
			}
			if got := strings.Join(kinds, " "); !strings.HasPrefix(got, "function_call function_call_output") {
				t.Errorf("stream=%v: the loop's items are %s", stream, got)
			}
		}
	}
}

// TestUnreadBlockEvents: a streamed Messages block the proxy does not
// read (a server tool's use, its input in input_json_delta pieces) goes
// out with its deltas as they came, between its start and stop, at its
// place among the blocks sent.
func TestUnreadBlockEvents(t *testing.T) {
	ev := func(typ, fields string) string {
		return "event: " + typ + "\ndata: {\"type\":\"" + typ + "\"," + fields + "}\n\n"
	}
	body := strings.Replace(anthStream, ev("content_block_start", `"index":0,"content_block":{"type":"redacted_thinking","data":"opaque"}`),
		ev("content_block_start", `"index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}`)+
			ev("content_block_delta", `"index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\": "}`)+
			ev("content_block_delta", `"index":0,"delta":{"type":"input_json_delta","partial_json":"\"weather\"}"}`), 1)
	if body == anthStream {
		t.Fatal("the upstream stream was not rewritten")
	}
	_, srv := setup(t, proxy.Anthropic, fakeserver.Script{{Body: body, ContentType: "text/event-stream"}}, nil)
	a := post(t, nil, srv.URL+chatPath(proxy.Anthropic), proxy.Anthropic, chatBody(proxy.Anthropic, true, ""), nil)
	if a.names() != "get_weather "+parisArgs || a.Finish != "tool_use" {
		t.Fatalf("%+v", a)
	}
	var got []string
	for _, raw := range sseEvents(t, []byte(a.Raw)) {
		var e struct {
			Type  string `json:"type"`
			Index *int   `json:"index"`
			Delta struct {
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
			Block struct {
				Type string `json:"type"`
			} `json:"content_block"`
		}
		json.Unmarshal(raw, &e)
		if e.Index != nil && *e.Index == 0 {
			got = append(got, e.Type+" "+e.Block.Type+e.Delta.PartialJSON)
		}
	}
	want := []string{"content_block_start server_tool_use", `content_block_delta {"query": `, `content_block_delta "weather"}`, "content_block_stop "}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the events at index 0:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
