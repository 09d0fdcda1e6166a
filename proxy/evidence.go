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

// evidence is what the upstream says about a model: its chat template.
type evidence struct {
	template string
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

// template returns the chat template of model at the upstream whose base
// URL is base, asking the upstream once per model (Ollama POST /api/show,
// llama.cpp GET /props) and keeping the answer. A failed look-up gives
// "" and is kept too: the model name stays as evidence.
func (c *core) template(ctx context.Context, base *url.URL, model string, header http.Header) string {
	ec := c.evidence
	key := base.String() + "\x00" + model
	for {
		ec.mu.Lock()
		if ev, ok := ec.m[key]; ok && time.Since(ev.at) < evidenceTTL {
			ec.mu.Unlock()
			return ev.template
		}
		wait, busy := ec.flight[key]
		if !busy {
			done := make(chan struct{})
			ec.flight[key] = done
			ec.mu.Unlock()
			tmpl := c.fetchTemplate(ctx, base, model, header)
			ec.mu.Lock()
			delete(ec.flight, key)
			if ctx.Err() == nil {
				ec.put(key, evidence{template: tmpl, at: time.Now()})
			}
			ec.mu.Unlock()
			close(done)
			return tmpl
		}
		ec.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return ""
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

// fetchTemplate asks the upstream for the model's chat template.
func (c *core) fetchTemplate(ctx context.Context, base *url.URL, model string, header http.Header) string {
	ctx, cancel := context.WithTimeout(ctx, evidenceTimeout)
	defer cancel()
	u := *base
	var req *http.Request
	var err error
	if c.api == Ollama {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/api/show"
		body, _ := json.Marshal(map[string]string{"model": model})
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	} else {
		u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/v1") + "/props"
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	}
	if err != nil {
		return ""
	}
	if a := header.Get("Authorization"); a != "" && !(c.opts.APIKey != "" && c.upstream != nil) {
		req.Header.Set("Authorization", a)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		return ""
	}
	defer func() {
		// Read to the end, so that the connection serves the next request.
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
	}()
	if resp.StatusCode != http.StatusOK {
		return ""
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxEvidenceBytes))
	if err != nil {
		return ""
	}
	var v struct {
		Template     string `json:"template"`
		ChatTemplate string `json:"chat_template"`
	}
	if json.Unmarshal(data, &v) != nil {
		return ""
	}
	if v.Template != "" {
		return v.Template
	}
	return v.ChatTemplate
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
