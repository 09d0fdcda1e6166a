package render

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
)

// wrapped writes the content between the family's tool-result literals,
// as its chat template does: <tool_response>\n…\n</tool_response>.
func wrapped(open, close string) resultFunc {
	return func(w *writer, _ toolcall.Call, content string) {
		w.WriteString(open)
		w.WriteString(content)
		w.WriteString(close)
	}
}

// labelled is the result of a family whose template marks a tool turn only
// by its role (Llama's ipython, InternLM's environment, harmony's
// functions.NAME author): in a text-only chat there is no role to carry
// it, so a plain line names the tool. Role tokens are never written into
// a user turn.
func labelled(w *writer, c toolcall.Call, content string) {
	w.WriteString("Result of " + c.Name + ":\n")
	w.WriteString(content)
}

// kimiResult writes Kimi-K2's "## Return of functions.NAME:IDX" section.
func kimiResult(w *writer, c toolcall.Call, content string) {
	w.WriteString("## Return of " + kimiID(c.Name, c.Index) + "\n")
	w.WriteString(content)
}

// contentValue writes tool output as a JSON value: output that is a JSON
// object or array as itself, anything else as a string.
func (w *writer) contentValue(content string) {
	t := strings.TrimSpace(content)
	if t != "" && (t[0] == '{' || t[0] == '[') && gjson.Valid(t) {
		w.json(parseJSON(t))
		return
	}
	w.jsonString(content)
}

// geminiResult writes Gemini's functionResponse object.
func geminiResult(w *writer, c toolcall.Call, content string) {
	w.WriteString(`{"function_response": {"name": `)
	w.jsonString(c.Name)
	w.WriteString(`, "response": `)
	w.contentValue(content)
	w.WriteString("}}")
}

// genericResult writes llama.cpp's generic tool response object.
func genericResult(w *writer, c toolcall.Call, content string) {
	w.WriteString(`{"tool_response": {"tool": `)
	w.jsonString(c.Name)
	w.WriteString(`, "content": `)
	w.contentValue(content)
	w.WriteString("}}")
}

// cohereResult writes Command R7B's tool result block, numbered like the
// call it answers.
func cohereResult(w *writer, c toolcall.Call, content string) {
	w.WriteString("<|START_TOOL_RESULT|>[\n    {\"tool_call_id\": ")
	w.jsonString(strconv.Itoa(c.Index))
	w.WriteString(`, "results": {"0": `)
	w.contentValue(content)
	w.WriteString("}, \"is_error\": null}\n]<|END_TOOL_RESULT|>")
}

// gemmaResult writes response:NAME{…} between the Gemma result tokens: the
// output's own members when it is a JSON object, else {value:…}.
func gemmaResult(open, close, delim string) resultFunc {
	return func(w *writer, c toolcall.Call, content string) {
		w.WriteString(open + "response:" + c.Name)
		t := strings.TrimSpace(content)
		if t != "" && t[0] == '{' && gjson.Valid(t) {
			w.gemma(parseJSON(t), delim)
		} else {
			w.gemma(&node{kind: objectKind, members: []member{{key: "value", value: &node{kind: stringKind, text: content}}}}, delim)
		}
		w.WriteString(close)
	}
}
