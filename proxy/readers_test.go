package proxy_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// sseEvents splits a stream into its events: the event line's name and
// the data. Every event must have both, and the name must be the data's
// type, as the Responses and Anthropic SDKs read them.
func sseEvents(t *testing.T, data []byte) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for _, block := range strings.Split(string(data), "\n\n") {
		if strings.TrimSpace(block) == "" {
			continue
		}
		var name, payload string
		for _, line := range strings.Split(block, "\n") {
			switch {
			case strings.HasPrefix(line, "event:"):
				name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
			case strings.HasPrefix(line, "data:"):
				payload = strings.TrimSpace(strings.TrimPrefix(line, "data:"))
			}
		}
		var v struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(payload), &v); err != nil {
			t.Fatalf("an event's data is not JSON: %q", block)
		}
		if name == "" || name != v.Type {
			t.Errorf("event line %q, data type %q: %q", name, v.Type, block)
		}
		out = append(out, json.RawMessage(payload))
	}
	return out
}

// respItem is an output item of a Responses answer.
type respItem struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Status  string `json:"status"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Summary []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"summary"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type respObject struct {
	Status string          `json:"status"`
	Output []respItem      `json:"output"`
	Usage  json.RawMessage `json:"usage"`
}

// fromOutput fills a from a response object, as the SDKs read it.
func fromOutput(t *testing.T, a *answer, r respObject) {
	t.Helper()
	a.Finish = r.Status
	a.Usage = len(r.Usage) > 0 && string(r.Usage) != "null"
	a.Content, a.Reasoning, a.Calls = "", "", nil
	for _, it := range r.Output {
		switch it.Type {
		case "message":
			for _, p := range it.Content {
				a.Content += p.Text
			}
		case "reasoning":
			for _, p := range it.Summary {
				a.Reasoning += p.Text
			}
			for _, p := range it.Content {
				a.Reasoning += p.Text
			}
		case "function_call":
			var args string
			if err := json.Unmarshal(it.Arguments, &args); err != nil {
				t.Errorf("function_call arguments are not a JSON string: %s", it.Arguments)
			}
			if it.CallID == "" || it.ID == "" {
				t.Errorf("a function_call without call_id or id: %+v", it)
			}
			a.Calls = append(a.Calls, gotCall{ID: it.CallID, Name: it.Name, Args: compact(args)})
		}
	}
}

func readResponse(t *testing.T, a *answer, data []byte) {
	var r respObject
	if err := json.Unmarshal(data, &r); err != nil || r.Output == nil {
		t.Fatalf("not a response object: %s (%v)", data, err)
	}
	fromOutput(t, a, r)
}

// readResponsesSSE reads a Responses stream twice: from its deltas and
// item events, and from response.completed (what the SDKs return); both
// must tell the same answer.
func readResponsesSSE(t *testing.T, a *answer, data []byte) {
	var content, reasoning strings.Builder
	type acc struct{ id, name, args, done string }
	calls := map[int]*acc{}
	var order []int
	var final *respObject
	seq := -1
	added := map[int]string{}
	// phase is where each open item is in its events (respPhases); done
	// holds the items done, by output index.
	phase := map[int]int{}
	done := map[int]json.RawMessage{}
	events := sseEvents(t, data)
	for i, raw := range events {
		a.Chunks++
		var ev struct {
			Type        string          `json:"type"`
			Seq         int             `json:"sequence_number"`
			OutputIndex *int            `json:"output_index"`
			ItemID      string          `json:"item_id"`
			Delta       string          `json:"delta"`
			Arguments   string          `json:"arguments"`
			Item        respItem        `json:"item"`
			Response    json.RawMessage `json:"response"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatalf("bad event %s: %v", raw, err)
		}
		if ev.Seq != seq+1 {
			t.Errorf("sequence_number %d after %d", ev.Seq, seq)
		}
		seq = ev.Seq
		if (i == 0) != (ev.Type == "response.created") {
			t.Errorf("event %d is %s: response.created comes first, once", i, ev.Type)
		}
		idx := -1
		if ev.OutputIndex != nil {
			idx = *ev.OutputIndex
		}
		if ev.ItemID != "" && added[idx] != ev.ItemID {
			t.Errorf("%s for item %q at %d, which was not added there: %s", ev.Type, ev.ItemID, idx, raw)
		}
		if _, closed := done[idx]; closed {
			t.Errorf("%s for the item at %d after it was done: %s", ev.Type, idx, raw)
		}
		if ph, ok := respPhases[ev.Type]; ok {
			if phase[idx] != ph[0] {
				t.Errorf("%s for the item at %d out of order (phase %d, wants %d): %s", ev.Type, idx, phase[idx], ph[0], raw)
			}
			phase[idx] = ph[1]
		}
		switch ev.Type {
		case "response.output_item.added":
			if _, dup := added[idx]; dup || idx != len(added) {
				t.Errorf("output_index %d added after %d items", idx, len(added))
			}
			added[idx] = ev.Item.ID
			if ev.Item.Type == "function_call" {
				calls[idx] = &acc{id: ev.Item.CallID, name: ev.Item.Name}
				order = append(order, idx)
			}
		case "response.output_item.done":
			if _, ok := added[idx]; !ok || ev.Item.ID != added[idx] || phase[idx] != 0 && phase[idx] != 3 {
				t.Errorf("item %q done at %d (added %q, phase %d): %s", ev.Item.ID, idx, added[idx], phase[idx], raw)
			}
			var whole struct{ Item json.RawMessage }
			json.Unmarshal(raw, &whole)
			done[idx] = whole.Item
		case "response.output_text.delta":
			content.WriteString(ev.Delta)
		case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
			reasoning.WriteString(ev.Delta)
		case "response.function_call_arguments.delta":
			calls[idx].args += ev.Delta
		case "response.function_call_arguments.done":
			calls[idx].done = ev.Arguments
		case "response.completed", "response.incomplete", "response.failed":
			var r respObject
			if err := json.Unmarshal(ev.Response, &r); err != nil {
				t.Fatalf("bad %s: %s", ev.Type, raw)
			}
			final = &r
			if i != len(events)-1 {
				t.Errorf("%s is not the last event", ev.Type)
			}
			var items struct{ Output []json.RawMessage }
			json.Unmarshal(ev.Response, &items)
			if len(done) != len(added) || len(items.Output) != len(done) {
				t.Errorf("%s with %d items, %d added, %d done", ev.Type, len(items.Output), len(added), len(done))
			}
			for j, it := range items.Output {
				if compact(string(it)) != compact(string(done[j])) {
					t.Errorf("%s item %d is %s, its output_item.done %s", ev.Type, j, it, done[j])
				}
			}
		}
	}
	if final == nil {
		t.Errorf("the stream has no response.completed")
		return
	}
	fromOutput(t, a, *final)
	if content.String() != a.Content || reasoning.String() != a.Reasoning {
		t.Errorf("deltas say content %q reasoning %q; response.completed %q %q", content.String(), reasoning.String(), a.Content, a.Reasoning)
	}
	if len(order) != len(a.Calls) {
		t.Errorf("%d calls streamed, %d in response.completed", len(order), len(a.Calls))
		return
	}
	for i, idx := range order {
		c := calls[idx]
		if c.args != c.done || c.id != a.Calls[i].ID || c.name != a.Calls[i].Name || compact(c.args) != a.Calls[i].Args {
			t.Errorf("streamed call %+v, response.completed %+v", c, a.Calls[i])
		}
	}
}

// respPhases are the events of an item's parts, in the order the API
// sends them: the phase an event needs, and the phase after it. A part
// is added (1), its text streamed and done (2), the part done (0 again,
// for the next part); a call's arguments are streamed, then done (3). An
// item is done in phase 0 or 3.
var respPhases = map[string][2]int{
	"response.content_part.added":            {0, 1},
	"response.reasoning_summary_part.added":  {0, 1},
	"response.output_text.delta":             {1, 1},
	"response.refusal.delta":                 {1, 1},
	"response.reasoning_summary_text.delta":  {1, 1},
	"response.reasoning_text.delta":          {1, 1},
	"response.output_text.done":              {1, 2},
	"response.refusal.done":                  {1, 2},
	"response.reasoning_summary_text.done":   {1, 2},
	"response.content_part.done":             {2, 0},
	"response.reasoning_summary_part.done":   {2, 0},
	"response.function_call_arguments.delta": {0, 0},
	"response.function_call_arguments.done":  {0, 3},
}

// anthBlock is a content block of a Messages answer.
type anthBlock struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
}

func readAnthropicMessage(t *testing.T, a *answer, data []byte) {
	var m struct {
		Type       string          `json:"type"`
		Content    []anthBlock     `json:"content"`
		StopReason string          `json:"stop_reason"`
		Usage      json.RawMessage `json:"usage"`
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Type != "message" {
		t.Fatalf("not a message: %s (%v)", data, err)
	}
	a.Finish = m.StopReason
	a.Usage = len(m.Usage) > 0
	for _, b := range m.Content {
		switch b.Type {
		case "text":
			a.Content += b.Text
		case "thinking":
			a.Reasoning += b.Thinking
		case "tool_use":
			if b.ID == "" || !json.Valid(b.Input) {
				t.Errorf("a tool_use without id, or whose input is not JSON: %+v", b)
			}
			a.Calls = append(a.Calls, gotCall{ID: b.ID, Name: b.Name, Args: compact(string(b.Input))})
		}
	}
}

// readAnthropicSSE assembles a Messages stream as the SDK does, checking
// that blocks start, change and stop in order.
func readAnthropicSSE(t *testing.T, a *answer, data []byte) {
	type blk struct {
		typ, id, name, args string
		stopped             bool
	}
	var blocks []*blk
	started, stopped := false, false
	for _, raw := range sseEvents(t, data) {
		a.Chunks++
		var ev struct {
			Type         string          `json:"type"`
			Index        int             `json:"index"`
			ContentBlock anthBlock       `json:"content_block"`
			Message      json.RawMessage `json:"message"`
			Delta        struct {
				Type        string `json:"type"`
				Text        string `json:"text"`
				Thinking    string `json:"thinking"`
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			} `json:"delta"`
			Usage json.RawMessage `json:"usage"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatalf("bad event %s: %v", raw, err)
		}
		if !started && ev.Type != "message_start" {
			t.Fatalf("the stream does not begin with message_start: %s", raw)
		}
		switch ev.Type {
		case "message_start":
			started = true
		case "content_block_start":
			if ev.Index != len(blocks) {
				t.Errorf("block %d started after %d blocks", ev.Index, len(blocks))
				continue
			}
			if n := len(blocks); n > 0 && !blocks[n-1].stopped {
				t.Errorf("block %d started before block %d stopped", ev.Index, n-1)
			}
			blocks = append(blocks, &blk{typ: ev.ContentBlock.Type, id: ev.ContentBlock.ID, name: ev.ContentBlock.Name})
		case "content_block_delta":
			if ev.Index != len(blocks)-1 || blocks[ev.Index].stopped {
				t.Errorf("a delta for block %d, not the open one: %s", ev.Index, raw)
				continue
			}
			b := blocks[ev.Index]
			switch ev.Delta.Type {
			case "text_delta":
				a.Content += ev.Delta.Text
			case "thinking_delta":
				a.Reasoning += ev.Delta.Thinking
			case "input_json_delta":
				b.args += ev.Delta.PartialJSON
			}
		case "content_block_stop":
			if ev.Index != len(blocks)-1 {
				t.Errorf("block %d stopped, the open one is %d", ev.Index, len(blocks)-1)
				continue
			}
			blocks[ev.Index].stopped = true
		case "message_delta":
			a.Finish = ev.Delta.StopReason
			a.Usage = len(ev.Usage) > 0
		case "message_stop":
			stopped = true
		}
	}
	if !stopped {
		t.Errorf("the stream has no message_stop")
	}
	for _, b := range blocks {
		if !b.stopped {
			t.Errorf("block %+v never stopped", b)
		}
		if b.typ == "tool_use" {
			if b.id == "" || !json.Valid([]byte(b.args)) {
				t.Errorf("tool_use block without id, or with input %q", b.args)
			}
			a.Calls = append(a.Calls, gotCall{ID: b.id, Name: b.name, Args: compact(b.args)})
		}
	}
}
