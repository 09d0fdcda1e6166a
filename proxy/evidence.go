package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/dialectkit/toolcall/dialects"
)

// evidenceCacheSize bounds the models whose evidence is kept.
const evidenceCacheSize = 256

// evidenceTTL is how long a model's evidence is kept: a model can be
// replaced under the same name.
const evidenceTTL = 10 * time.Minute

// evidenceTimeout bounds the look-up of a model's template.
const evidenceTimeout = 5 * time.Second

// maxEvidenceBytes bounds an /api/show or /props answer.
const maxEvidenceBytes = 4 << 20

// evidence is what the upstream says about a model: its chat template,
// and the name of the model it was made from (vLLM's root, LM Studio's
// arch, Ollama's family), the model-name table's evidence when the name a
// client gives says nothing.
type evidence struct {
	template string
	family   string
	at       time.Time
}

// evidenceCache keeps each model's evidence per upstream, bounded: past
// the size the oldest entry goes.
type evidenceCache struct {
	mu    sync.Mutex
	max   int
	m     map[string]evidence
	order []string
	// flight joins concurrent look-ups of one model.
	flight map[string]chan struct{}
}

func newEvidenceCache(max int) *evidenceCache {
	return &evidenceCache{max: max, m: map[string]evidence{}, flight: map[string]chan struct{}{}}
}

// modelEvidence returns what the upstream whose base URL is base tells of
// model, asking it once per model and keeping the answer (see
// fetchEvidence). A failed look-up gives nothing and is kept too: the
// model name stays as evidence.
func (c *core) modelEvidence(ctx context.Context, base *url.URL, model string, header http.Header) evidence {
	ec := c.evidence
	key := base.String() + "\x00" + model
	for {
		ec.mu.Lock()
		if ev, ok := ec.m[key]; ok && time.Since(ev.at) < evidenceTTL {
			ec.mu.Unlock()
			return ev
		}
		wait, busy := ec.flight[key]
		if !busy {
			done := make(chan struct{})
			ec.flight[key] = done
			ec.mu.Unlock()
			ev := c.fetchEvidence(ctx, base, model, header)
			ev.at = time.Now()
			ec.mu.Lock()
			delete(ec.flight, key)
			if ctx.Err() == nil {
				ec.put(key, ev)
			}
			ec.mu.Unlock()
			close(done)
			return ev
		}
		ec.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return evidence{}
		}
	}
}

// put stores an entry; the caller holds mu.
func (ec *evidenceCache) put(key string, ev evidence) {
	if _, ok := ec.m[key]; !ok {
		ec.order = append(ec.order, key)
	}
	ec.m[key] = ev
	for len(ec.order) > ec.max {
		delete(ec.m, ec.order[0])
		ec.order = ec.order[1:]
	}
}

// fetchEvidence asks the upstream what it can tell of a model, by the
// kind of server: Ollama POST /api/show (the template, and the family in
// its details), also behind --api openai (an Ollama's /v1); llama.cpp GET
// /props (the template); vLLM GET /v1/models (the entry's root, the model
// it was loaded from); LM Studio GET /api/v0/models/{model} (its arch).
// The first that answers with a template ends the look-up.
func (c *core) fetchEvidence(ctx context.Context, base *url.URL, model string, header http.Header) evidence {
	ctx, cancel := context.WithTimeout(ctx, evidenceTimeout)
	defer cancel()
	root := *base
	root.Path = strings.TrimSuffix(strings.TrimSuffix(root.Path, "/"), "/v1")
	var ev evidence
	body, _ := json.Marshal(map[string]string{"model": model})
	if data := c.ask(ctx, http.MethodPost, root, "/api/show", body, header); data != nil {
		var v struct {
			Template string `json:"template"`
			Details  struct {
				Family string `json:"family"`
			} `json:"details"`
		}
		if json.Unmarshal(data, &v) == nil {
			ev.template, ev.family = v.Template, v.Details.Family
		}
	}
	if ev.template != "" || c.api == Ollama {
		return ev
	}
	if data := c.ask(ctx, http.MethodGet, root, "/props", nil, header); data != nil {
		var v struct {
			ChatTemplate string `json:"chat_template"`
		}
		if json.Unmarshal(data, &v) == nil && v.ChatTemplate != "" {
			ev.template = v.ChatTemplate
			return ev
		}
	}
	if data := c.ask(ctx, http.MethodGet, root, "/v1/models", nil, header); data != nil {
		var v struct {
			Data []struct {
				ID   string `json:"id"`
				Root string `json:"root"`
			} `json:"data"`
		}
		if json.Unmarshal(data, &v) == nil {
			for _, m := range v.Data {
				if m.ID == model && m.Root != "" && m.Root != model {
					ev.family = m.Root
					return ev
				}
			}
		}
	}
	if data := c.ask(ctx, http.MethodGet, root, "/api/v0/models/"+url.PathEscape(model), nil, header); data != nil {
		var v struct {
			Arch string `json:"arch"`
		}
		if json.Unmarshal(data, &v) == nil && v.Arch != "" {
			ev.family = v.Arch
		}
	}
	return ev
}

// ask sends one evidence request to the upstream at root plus path and
// returns the body of a 200 answer, or nil.
func (c *core) ask(ctx context.Context, method string, root url.URL, path string, body []byte, header http.Header) []byte {
	root.Path += path
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, root.String(), rd)
	if err != nil {
		return nil
	}
	if a := header.Get("Authorization"); a != "" && !(c.opts.APIKey != "" && c.upstream != nil) {
		req.Header.Set("Authorization", a)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		return nil
	}
	defer func() {
		// Read to the end, so that the connection serves the next request.
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
	}()
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxEvidenceBytes))
	if err != nil {
		return nil
	}
	return data
}

// baseURL is the upstream's base URL for a chat request's URL: the URL
// with the API's chat path taken off, and the /v1 of an OpenAI-style path
// under an Ollama upstream (whose /api/show is at the root).
func (c *core) baseURL(chatURL *url.URL, cd codec) *url.URL {
	u := *chatURL
	u.RawQuery, u.Fragment, u.RawPath = "", "", ""
	u.Path = strings.TrimSuffix(u.Path, cd.path())
	if c.api == Ollama {
		u.Path = strings.TrimSuffix(u.Path, "/v1")
	}
	return &u
}

// familyStart settles where a model's output starts from its name when
// neither its template nor its reasoning setting did: the model-name
// table gives the name's dialect (the client's name, else the one the
// server told: vLLM's root, LM Studio's arch, Ollama's family), and a
// dialect whose family never opens a reasoning block starts outside one,
// so its text streams at once. The server's name also becomes the
// detection's model evidence when the client's says nothing. When the
// question stays open, text waits until the output settles it: the log
// says so once per model, with the setting that ends the wait.
func (q *chatCtx) familyStart(ev evidence) {
	reg := q.c.reg
	if ev.family != "" {
		if d, _ := reg.DialectForModel(q.model); d == "" {
			q.ropts.Model = ev.family
		}
	}
	if q.ropts.ReasoningOpen || q.ropts.ReasoningClosed {
		return
	}
	for _, name := range []string{q.cfg.Dialect, dialectFor(reg.DialectForModel(q.ropts.Model))} {
		if d, ok := reg.Lookup(name); name != "" && ok && dialects.SyntaxOf(d).ReasoningClosed {
			q.ropts.ReasoningClosed = true
			return
		}
	}
	key := q.out.Host + "\x00" + q.model
	if _, seen := q.c.waitLogged.LoadOrStore(key, true); seen {
		return
	}
	q.c.log.LogAttrs(context.Background(), levelWarn,
		"proxy: the model's text waits until its output shows where it starts (no chat template from the upstream, and no reasoning setting); set the model's reasoning to closed (it does not reason) or open to stream it at once",
		attrString("model", q.model), attrString("upstream", q.out.Host), attrString("setting", "tool_call.models."+q.model+".reasoning: closed|open"))
}

// dialectFor is the dialect of DialectForModel's answer.
func dialectFor(dialect, _ string) string { return dialect }
