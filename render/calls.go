package render

import (
	"strconv"

	"github.com/dialectkit/toolcall"
)

// frame is how the calls of one turn are laid out around their bodies.
type frame struct {
	// open and close are written once around all calls (a section, an
	// array's brackets).
	open, close string
	// before and after are written around each call.
	before, after string
	// sep is written between calls.
	sep string
}

// body writes one call; i is its index in the turn.
type body func(w *writer, c toolcall.Call, i int)

// framed writes every call with body inside f.
func framed(f frame, b body) callsFunc {
	return func(w *writer, calls []toolcall.Call) {
		w.WriteString(f.open)
		for i, c := range calls {
			if i > 0 {
				w.WriteString(f.sep)
			}
			w.WriteString(f.before)
			b(w, c, i)
			w.WriteString(f.after)
		}
		w.WriteString(f.close)
	}
}

// object writes a call as a JSON object with the name under nameKey and
// the arguments under argsKey: {"name": "f", "arguments": {…}}.
func object(nameKey, argsKey string) body {
	return func(w *writer, c toolcall.Call, _ int) {
		w.WriteByte('{')
		w.jsonString(nameKey)
		w.WriteString(": ")
		w.jsonString(c.Name)
		w.WriteString(", ")
		w.jsonString(argsKey)
		w.WriteString(": ")
		w.json(arguments(c.Arguments))
		w.WriteByte('}')
	}
}

// enveloped writes a call object inside a one-key wrapper:
// {"function_call": {"name": …, "args": {…}}}.
func enveloped(key string, inner body) body {
	return func(w *writer, c toolcall.Call, i int) {
		w.WriteByte('{')
		w.jsonString(key)
		w.WriteString(": ")
		inner(w, c, i)
		w.WriteByte('}')
	}
}

// keyed writes a call as {"NAME": {…}}, the tool name as the only key.
func keyed(w *writer, c toolcall.Call, _ int) {
	w.WriteByte('{')
	w.jsonString(c.Name)
	w.WriteString(": ")
	w.json(arguments(c.Arguments))
	w.WriteByte('}')
}

// cohereCall writes a Command R7B / Command A call object, numbered by its
// place in the turn as Cohere's template numbers them.
func cohereCall(w *writer, c toolcall.Call, i int) {
	w.WriteString(`{"tool_call_id": `)
	w.jsonString(strconv.Itoa(i))
	w.WriteString(`, "tool_name": `)
	w.jsonString(c.Name)
	w.WriteString(`, "parameters": `)
	w.json(arguments(c.Arguments))
	w.WriteByte('}')
}

// header writes NAME + nameEnd + the JSON arguments between argsOpen and
// argsClose: the layout of dialects that name the tool outside the JSON
// (Mistral v11's NAME[ARGS]{…}, DeepSeek's NAME<｜tool▁sep｜>{…}).
func header(prefix, nameEnd, argsOpen, argsClose string) body {
	return func(w *writer, c toolcall.Call, _ int) {
		w.WriteString(prefix)
		w.WriteString(c.Name)
		w.WriteString(nameEnd)
		w.WriteString(argsOpen)
		w.json(arguments(c.Arguments))
		w.WriteString(argsClose)
	}
}

// kimiHeader writes Kimi-K2's call id, functions.NAME:IDX, as the header.
func kimiHeader(nameEnd string) body {
	return func(w *writer, c toolcall.Call, i int) {
		w.WriteString(kimiID(c.Name, i))
		w.WriteString(nameEnd)
		w.json(arguments(c.Arguments))
	}
}

func kimiID(name string, i int) string { return "functions." + name + ":" + strconv.Itoa(i) }

// inklingCall writes NAME<|content_invoke_tool_json|>{"name": NAME, "args": {…}}.
func inklingCall(nameEnd string) body {
	obj := object("name", "args")
	return func(w *writer, c toolcall.Call, i int) {
		w.WriteString(c.Name)
		w.WriteString(nameEnd)
		obj(w, c, i)
	}
}

// genericJSON writes llama.cpp's generic format: {"tool_call": {…}} for one
// call, {"tool_calls": […]} for several.
func genericJSON(w *writer, calls []toolcall.Call) {
	obj := object("name", "arguments")
	if len(calls) == 1 {
		enveloped("tool_call", obj)(w, calls[0], 0)
		return
	}
	w.WriteString(`{"tool_calls": [`)
	for i, c := range calls {
		if i > 0 {
			w.WriteString(", ")
		}
		obj(w, c, i)
	}
	w.WriteString("]}")
}

// plainJSON writes one call as a bare object and several as an array.
func plainJSON(nameKey, argsKey string) callsFunc {
	obj := object(nameKey, argsKey)
	return func(w *writer, calls []toolcall.Call) {
		if len(calls) == 1 {
			obj(w, calls[0], 0)
			return
		}
		framed(frame{open: "[", close: "]", sep: ", "}, obj)(w, calls)
	}
}

// ollamaResponse writes the calls as the final object of an Ollama
// /api/chat response, the wire format the "ollama" dialect reads.
func ollamaResponse(w *writer, calls []toolcall.Call) {
	w.WriteString(`{"message": {"role": "assistant", "content": "", "tool_calls": [`)
	for i, c := range calls {
		if i > 0 {
			w.WriteString(", ")
		}
		w.WriteByte('{')
		if c.ID != "" {
			w.WriteString(`"id": `)
			w.jsonString(c.ID)
			w.WriteString(", ")
		}
		w.WriteString(`"function": {"index": `)
		w.WriteString(strconv.Itoa(i))
		w.WriteString(`, "name": `)
		w.jsonString(c.Name)
		w.WriteString(`, "arguments": `)
		w.json(arguments(c.Arguments))
		w.WriteString("}}")
	}
	w.WriteString(`]}, "done": true, "done_reason": "stop"}`)
}

// harmonyCall writes one gpt-oss tool-call message. Every message is
// written whole; a model continues its template's "<|start|>assistant".
func harmonyCall(w *writer, c toolcall.Call, _ int) {
	w.WriteString("<|start|>assistant<|channel|>commentary to=functions.")
	w.WriteString(c.Name)
	w.WriteString(" <|constrain|>json<|message|>")
	w.json(arguments(c.Arguments))
	w.WriteString("<|call|>")
}
