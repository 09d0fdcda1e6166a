package proxy_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/corpustest"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/internal/longtest"
	"github.com/dialectkit/toolcall/proxy"
)

// TestCorpus sends the dialect test vectors through the proxy as leaked
// text, with the vector's dialect configured, whole and streamed in
// chunks: the client gets the vector's calls as native calls, and the
// same calls either way. The default run takes every fourth vector on one
// API in turn; the long suite every vector on both, with the dialect
// detected as well.
func TestCorpus(t *testing.T) {
	vs, err := corpustest.Dialects()
	if err != nil {
		t.Fatal(err)
	}
	up := fakeserver.NewServer(fakeserver.ResponderFunc(func(r *fakeserver.Request) fakeserver.Turn {
		var v struct {
			Text  string `json:"x_text"`
			Chunk int    `json:"x_chunk"`
		}
		json.Unmarshal(r.Body, &v)
		return fakeserver.Turn{Content: v.Text, ChunkSize: v.Chunk}
	}), nil)
	defer up.Close()
	servers := map[proxy.API]string{}
	for _, api := range allAPIs {
		h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: serverKind(api), Logger: quiet,
			ModelConfig: func(model string) (config.Config, bool) {
				cfg := config.Default()
				if !strings.HasPrefix(model, "detect:") {
					cfg.Dialect = model // "detect:…" leaves it to detection
				}
				cfg.StrictValidation = false
				return cfg, true
			}})
		if err != nil {
			t.Fatal(err)
		}
		servers[api] = newServer(t, h)
	}
	errata, err := corpustest.Errata()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i, v := range vs {
		if len(v.Expected) == 0 || v.Match == "names" || corpustest.Skip(errata, v.ID, false) || !namesWritten(v) {
			continue
		}
		apis := []proxy.API{proxy.Ollama, proxy.OpenAI}
		if !longtest.Enabled() {
			if i%4 != 0 {
				continue
			}
			apis = apis[i/4%2 : i/4%2+1]
		}
		tools := vectorTools(t, v)
		models := []string{v.Dialect}
		if longtest.Enabled() && !corpustest.Skip(errata, v.ID, true) {
			models = append(models, "detect:"+v.Dialect)
		}
		for _, model := range models {
			for _, api := range apis {
				var got [2]answer
				for k, stream := range []bool{false, true} {
					text, _ := json.Marshal(v.Text)
					body := `{"model":` + string(mustJSON(model)) + `,"stream":` + map[bool]string{false: "false", true: "true"}[stream] +
						`,"messages":[{"role":"user","content":"go"}],"tools":` + tools + `,"x_text":` + string(text) + `,"x_chunk":7}`
					got[k] = post(t, nil, servers[api]+chatPath(api), api, body, nil)
				}
				if got[0].Status != 200 || got[1].Status != 200 {
					t.Errorf("%s %s %s: status %d/%d", v.ID, api, model, got[0].Status, got[1].Status)
					continue
				}
				if err := v.CheckCalls(clientCalls(got[0])); err != nil {
					t.Errorf("%s %s %s whole: %v\n%s", v.ID, api, model, err, got[0].Raw)
				}
				if got[0].names() != got[1].names() {
					t.Errorf("%s %s %s: whole %q, streamed %q", v.ID, api, model, got[0].names(), got[1].names())
				}
				checked++
			}
		}
	}
	t.Logf("%d vector runs checked", checked)
	if checked < 20 {
		t.Errorf("only %d vectors checked", checked)
	}
}

// vectorTools declares the tools a vector's calls name, with open schemas
// unless the vector has its own.
func vectorTools(t *testing.T, v corpustest.Vector) string {
	if len(v.Tools) > 0 && string(v.Tools) != "null" {
		return string(v.Tools)
	}
	seen := map[string]bool{}
	var tools []string
	for _, c := range v.Expected {
		if seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		tools = append(tools, `{"type":"function","function":{"name":`+string(mustJSON(c.Name))+`,"parameters":{"type":"object"}}}`)
	}
	return "[" + strings.Join(tools, ",") + "]"
}

// namesWritten reports whether a vector declares its tools or writes the
// names it expects as they are: the proxy fixes only calls to declared
// tools, and a vector without tools is given its expected names.
func namesWritten(v corpustest.Vector) bool {
	if len(v.Tools) > 0 && string(v.Tools) != "null" {
		return true
	}
	for _, c := range v.Expected {
		if !strings.Contains(v.Text, c.Name) {
			return false
		}
	}
	return true
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func clientCalls(a answer) []toolcall.Call {
	out := make([]toolcall.Call, len(a.Calls))
	for i, c := range a.Calls {
		out[i] = toolcall.Call{ID: c.ID, Name: c.Name, Arguments: json.RawMessage(c.Args), Index: i}
	}
	return out
}
