package proxy_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// TestUpstreamConnectionsReused: the proxy keeps as many idle upstream
// connections as it may have requests in flight, so that rounds of
// concurrent requests, whole and streamed, fixed and passed through, reuse
// the connections of the first round (the transport's default keeps 2).
func TestUpstreamConnectionsReused(t *testing.T) {
	const conc, rounds = 8, 6
	for _, api := range []proxy.API{proxy.Ollama, proxy.OpenAI} {
		t.Run(string(api), func(t *testing.T) {
			var accepted atomic.Int64
			up := httptest.NewUnstartedServer(fakeserver.NewHandler(fakeserver.ResponderFunc(func(*fakeserver.Request) fakeserver.Turn {
				return fakeserver.Turn{Content: leakedHermes, ChunkSize: 16}
			}), nil))
			up.Config.ConnState = func(_ net.Conn, s http.ConnState) {
				if s == http.StateNew {
					accepted.Add(1)
				}
			}
			up.Start()
			defer up.Close()
			h, err := proxy.NewHandler(proxy.Options{Upstream: up.URL, API: api, MaxConcurrent: conc})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			for r := range rounds {
				var wg sync.WaitGroup
				for i := range conc {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if i%4 == 3 {
							resp, err := http.Get(srv.URL + map[proxy.API]string{proxy.Ollama: "/api/tags", proxy.OpenAI: "/v1/models"}[api])
							if err != nil {
								t.Error(err)
								return
							}
							resp.Body.Close()
							return
						}
						a := post(t, nil, srv.URL+chatPath(api), api, chatBody(api, i%2 == 0, ""), nil)
						if len(a.Calls) != 1 {
							t.Errorf("round %d: %d calls\n%s", r, len(a.Calls), a.Raw)
						}
					}()
				}
				wg.Wait()
			}
			// At most conc connections are in use at once; a request that
			// began to dial when another connection came free may add one
			// to the pool. The transport's default pool (2 per host) opens
			// conc-2 new ones each round: conc+(rounds-1)*(conc-2) here.
			if n := accepted.Load(); n > 2*conc {
				t.Errorf("%d rounds of %d requests opened %d upstream connections, want at most %d", rounds, conc, n, 2*conc)
			}
		})
	}
}
