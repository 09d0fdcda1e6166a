package fakeserver

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// respItem is one output item of a Responses answer: a reasoning item, a
// message, or a function call.
type respItem struct {
	Type    string      `json:"type"`
	ID      string      `json:"id"`
	Status  string      `json:"status,omitempty"`
	Role    string      `json:"role,omitempty"`
	Content *[]respPart `json:"content,omitempty"`
	Summary *[]respPart `json:"summary,omitempty"`
	CallID  string      `json:"call_id,omitempty"`
	Name    string      `json:"name,omitempty"`
	Args    *string     `json:"arguments,omitempty"`
}

type respPart struct {
	Type        string    `json:"type"`
	Text        string    `json:"text"`
	Annotations *[]string `json:"annotations,omitempty"`
}

// respObject is the response object: the whole answer, or the envelope
// of a stream's lifecycle events.
type respObject struct {
	ID                string          `json:"id"`
	Object            string          `json:"object"`
	CreatedAt         int64           `json:"created_at"`
	Status            string          `json:"status"`
	Model             string          `json:"model"`
	Output            []respItem      `json:"output"`
	IncompleteDetails *map[string]any `json:"incomplete_details"`
	Usage             *respUsage      `json:"usage"`
}

type respUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	TotalTokens  int `json:"total_tokens"`
}

func (a *answer) respID() string { return "resp_" + strconv.Itoa(a.req.Seq) }

// respItems are the turn's output items, complete: reasoning, the message
// (when there is text or no call), then the calls.
func (a *answer) respItems() []respItem {
	t := a.turn
	var items []respItem
	if t.Thinking != "" {
		items = append(items, respItem{Type: "reasoning", ID: "rs_" + strconv.Itoa(a.req.Seq),
			Summary: &[]respPart{{Type: "summary_text", Text: t.Thinking}}})
	}
	if t.Content != "" || len(t.Calls) == 0 {
		items = append(items, respItem{Type: "message", ID: "msg_" + strconv.Itoa(a.req.Seq), Status: "completed", Role: "assistant",
			Content: &[]respPart{{Type: "output_text", Text: t.Content, Annotations: &[]string{}}}})
	}
	for i := range t.Calls {
		items = append(items, respItem{Type: "function_call", ID: "fc_" + strconv.Itoa(a.req.Seq) + "x" + strconv.Itoa(i), Status: "completed",
			CallID: a.callID(i), Name: t.Calls[i].Name, Args: &t.Calls[i].Arguments})
	}
	return items
}

// respObj is the response object with status and output.
func (a *answer) respObj(status string, output []respItem) respObject {
	o := respObject{ID: a.respID(), Object: "response", CreatedAt: created, Status: status, Model: a.req.Model, Output: output}
	if output == nil {
		o.Output = []respItem{}
	}
	if status == "incomplete" {
		o.IncompleteDetails = &map[string]any{"reason": "max_output_tokens"}
	}
	if status != "in_progress" {
		p, c := a.tokens()
		o.Usage = &respUsage{InputTokens: p, OutputTokens: c, TotalTokens: p + c}
	}
	return o
}

func (a *answer) respStatus() string {
	if a.turn.DoneReason == "length" {
		return "incomplete"
	}
	return "completed"
}

// responsesWhole writes the turn as one response object.
func (a *answer) responsesWhole() {
	if a.turn.StreamError != "" {
		writeError(a.w, Responses, http.StatusInternalServerError, a.turn.StreamError)
		return
	}
	a.sendWhole(a.respObj(a.respStatus(), a.respItems()))
}

// sendWhole writes v as a whole JSON answer; Truncate cuts it in the
// middle.
func (a *answer) sendWhole(v any) {
	data, _ := json.Marshal(v)
	a.w.Header().Set("Content-Type", "application/json")
	a.w.WriteHeader(http.StatusOK)
	if a.turn.Truncate {
		data = data[:len(data)/2]
	}
	a.send(data)
}

// startEvents begins a stream of typed events.
func (a *answer) startEvents() {
	a.w.Header().Set("Content-Type", "text/event-stream")
	a.w.Header().Set("Cache-Control", "no-cache")
	a.w.WriteHeader(http.StatusOK)
}

// sendTyped writes one typed event, with its event line: the Responses
// and Messages APIs' framing.
func (a *answer) sendTyped(typ string, fields map[string]any) bool {
	fields["type"] = typ
	data, _ := json.Marshal(fields)
	return a.send([]byte("event: " + typ + "\ndata: " + string(data) + "\n\n"))
}

// responsesStream writes the turn as the Responses API's events, each with
// its event line: response.created and response.in_progress, each output
// item opened, its text or arguments in deltas, closed, then
// response.completed (or response.incomplete) carrying the whole output.
func (a *answer) responsesStream() {
	a.startEvents()
	t := a.turn
	seq := 0
	ev := func(typ string, fields map[string]any) bool {
		fields["sequence_number"] = seq
		seq++
		return a.sendTyped(typ, fields)
	}
	if !ev("response.created", map[string]any{"response": a.respObj("in_progress", nil)}) ||
		!ev("response.in_progress", map[string]any{"response": a.respObj("in_progress", nil)}) {
		return
	}
	items := a.respItems()
	for i, it := range items {
		at := map[string]any{"output_index": i, "item_id": it.ID}
		with := func(m map[string]any) map[string]any {
			for k, v := range at {
				m[k] = v
			}
			return m
		}
		open := it
		switch it.Type {
		case "reasoning":
			open.Summary = &[]respPart{}
		case "message":
			open.Content, open.Status = &[]respPart{}, "in_progress"
		case "function_call":
			empty := ""
			open.Args, open.Status = &empty, "in_progress"
		}
		if !ev("response.output_item.added", map[string]any{"output_index": i, "item": open}) {
			return
		}
		switch it.Type {
		case "reasoning":
			text := (*it.Summary)[0].Text
			if !ev("response.reasoning_summary_part.added", with(map[string]any{"summary_index": 0, "part": respPart{Type: "summary_text"}})) {
				return
			}
			for _, p := range pieces(text, t.ChunkSize) {
				if !ev("response.reasoning_summary_text.delta", with(map[string]any{"summary_index": 0, "delta": p})) {
					return
				}
			}
			if !ev("response.reasoning_summary_text.done", with(map[string]any{"summary_index": 0, "text": text})) ||
				!ev("response.reasoning_summary_part.done", with(map[string]any{"summary_index": 0, "part": respPart{Type: "summary_text", Text: text}})) {
				return
			}
		case "message":
			text := (*it.Content)[0].Text
			if !ev("response.content_part.added", with(map[string]any{"content_index": 0, "part": respPart{Type: "output_text", Annotations: &[]string{}}})) {
				return
			}
			for _, p := range pieces(text, t.ChunkSize) {
				if !ev("response.output_text.delta", with(map[string]any{"content_index": 0, "delta": p, "logprobs": []any{}})) {
					return
				}
			}
			if !ev("response.output_text.done", with(map[string]any{"content_index": 0, "text": text, "logprobs": []any{}})) ||
				!ev("response.content_part.done", with(map[string]any{"content_index": 0, "part": (*it.Content)[0]})) {
				return
			}
		case "function_call":
			for _, p := range pieces(*it.Args, t.ChunkSize) {
				if !ev("response.function_call_arguments.delta", with(map[string]any{"delta": p})) {
					return
				}
			}
			if !ev("response.function_call_arguments.done", with(map[string]any{"arguments": *it.Args, "name": it.Name})) {
				return
			}
		}
		if !ev("response.output_item.done", map[string]any{"output_index": i, "item": it}) {
			return
		}
	}
	if a.stall() {
		return
	}
	switch {
	case t.StreamError != "":
		ev("error", map[string]any{"code": "server_error", "message": t.StreamError, "param": nil})
		return
	case t.Truncate:
		return
	}
	status := a.respStatus()
	name := "response.completed"
	if status == "incomplete" {
		name = "response.incomplete"
	}
	ev(name, map[string]any{"response": a.respObj(status, items)})
}
