package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/render"
)

// TestParseJSONLLateThinkStreams: under detection, with tools declared, an
// output whose reasoning the template opened and whose </think> comes
// late ("ok then</think>ok then" and a call) reads the same through
// parse --jsonl streamed in small chunks as in one piece, in every family:
// the events sent add up to the final content and reasoning, and no text
// streamed as reasoning is sent again as content cut at another offset
// (the stream sent "ok then" as reasoning, then "hink>ok then" as content).
func TestParseJSONLLateThinkStreams(t *testing.T) {
	const tools = `[{"type":"function","function":{"name":"delete_file","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}]`
	call := toolcall.Call{Name: "delete_file", Arguments: json.RawMessage(`{"path":"tmp/x"}`)}
	var in []string
	for _, name := range registry.Names() {
		r, ok := render.For(name)
		if !ok || name == "ollama" {
			continue // ollama reads a server's response body
		}
		text := "ok then</think>ok then" + r.Calls([]toolcall.Call{call})
		// JSON carries whole characters: the chunks are cut between them.
		var chunks []string
		for i := 0; i < len(text); {
			j := min(i+3, len(text))
			for j < len(text) && !utf8.RuneStart(text[j]) {
				j++
			}
			chunks, i = append(chunks, text[i:j]), j
		}
		one, _ := json.Marshal(map[string]any{"id": name + "/text", "text": text, "tools": json.RawMessage(tools)})
		streamed, _ := json.Marshal(map[string]any{"id": name + "/chunks", "chunks": chunks, "tools": json.RawMessage(tools), "events": true})
		in = append(in, string(one), string(streamed))
	}
	stdout, stderr, _ := runCLI(t, strings.Join(in, "\n"), "parse", "--jsonl")
	lines := jsonLines(t, stdout)
	if len(lines) != len(in) {
		t.Fatalf("%d lines for %d:\n%s", len(lines), len(in), stderr)
	}
	for i := 0; i < len(lines); i += 2 {
		one, streamed := lines[i], lines[i+1]
		for _, key := range []string{"dialect", "content", "reasoning", "calls", "errors"} {
			a, _ := json.Marshal(one[key])
			b, _ := json.Marshal(streamed[key])
			if key == "calls" {
				// Ids are generated per parse: the names and arguments.
				a, b = callsWithoutIDs(one[key]), callsWithoutIDs(streamed[key])
			}
			if string(a) != string(b) {
				t.Errorf("%v: %s %s in one piece, %s streamed", one["id"], key, a, b)
			}
		}
		var content, reasoning strings.Builder
		evs, _ := streamed["events"].([]any)
		for _, e := range evs {
			ev := e.(map[string]any)
			text, _ := ev["text"].(string)
			switch ev["event"] {
			case "content":
				content.WriteString(text)
			case "reasoning":
				reasoning.WriteString(text)
			}
		}
		wantContent, _ := streamed["content"].(string)
		wantReasoning, _ := streamed["reasoning"].(string)
		if content.String() != wantContent || reasoning.String() != wantReasoning {
			t.Errorf("%v: events sent content %q and reasoning %q; the result is %q and %q", streamed["id"], content.String(), reasoning.String(), wantContent, wantReasoning)
		}
		if strings.Contains(strings.ReplaceAll(content.String(), "</think>", ""), "hink>") {
			t.Errorf("%v: content %q holds part of a reasoning tag", streamed["id"], wantContent)
		}
	}
}

// callsWithoutIDs is the JSON of a line's calls without their ids.
func callsWithoutIDs(v any) []byte {
	calls, _ := v.([]any)
	var out []any
	for _, c := range calls {
		m := c.(map[string]any)
		out = append(out, []any{m["name"], m["arguments"]})
	}
	b, _ := json.Marshal(out)
	return b
}

// TestServeLateThinkStreams: through serve, the same outputs (a late
// </think>, tools declared, the dialect detected) reach an Ollama client
// streamed as they do whole: the same calls, the same content and the same
// thinking, and no piece of a reasoning tag left in the content.
func TestServeLateThinkStreams(t *testing.T) {
	call := toolcall.Call{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}
	texts := map[string]string{}
	for _, name := range registry.Names() {
		if r, ok := render.For(name); ok && name != "ollama" {
			texts["m-"+name] = "ok then</think>ok then" + r.Calls([]toolcall.Call{call})
		}
	}
	up := fakeserver.NewServer(fakeserver.ResponderFunc(func(r *fakeserver.Request) fakeserver.Turn {
		return fakeserver.Turn{Content: texts[r.Model], ChunkSize: 3}
	}), nil)
	defer up.Close()
	s := startServe(t, "--upstream", up.URL)
	for model := range texts {
		var calls [2][]string
		var content, thinking [2]string
		for i, streamed := range []bool{false, true} {
			code, body := post(t, s.url+"/api/chat", chatBody(model, streamed))
			if code != 200 {
				t.Fatalf("%s (stream %v): %d %s", model, streamed, code, body)
			}
			calls[i], content[i] = ollamaCalls(t, body)
			thinking[i] = ollamaThinking(t, body)
		}
		if strings.Join(calls[0], ";") != strings.Join(calls[1], ";") || content[0] != content[1] || thinking[0] != thinking[1] {
			t.Errorf("%s: whole: calls %q, content %q, thinking %q; streamed: calls %q, content %q, thinking %q", model, calls[0], content[0], thinking[0], calls[1], content[1], thinking[1])
		}
		if strings.Contains(strings.ReplaceAll(content[1], "</think>", ""), "hink>") {
			t.Errorf("%s: streamed content %q holds part of a reasoning tag", model, content[1])
		}
	}
}

// ollamaThinking gathers the thinking of an Ollama answer, whole or NDJSON.
func ollamaThinking(t *testing.T, body string) string {
	t.Helper()
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		var chunk struct {
			Message struct {
				Thinking string `json:"thinking"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(line), &chunk); err != nil {
			t.Fatalf("answer line %q: %v", line, err)
		}
		out.WriteString(chunk.Message.Thinking)
	}
	return out.String()
}
