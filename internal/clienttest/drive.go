package clienttest

import (
	"net/http"
	"testing"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// Chat runs one chat with a Go client against base, through hc, streamed
// or whole, and returns what the client made of the answer.
type Chat func(t *testing.T, base string, hc *http.Client, stream bool) Got

// Modes names the two ways a chat is run.
var Modes = map[bool]string{false: "whole", true: "stream"}

// RunScenarios drives chat, a client of api, through the proxy Handler and
// through the Transport, streamed and whole, in every scenario: it must see
// what the scenario wants.
func RunScenarios(t *testing.T, api proxy.API, chat Chat) {
	for _, sc := range Scenarios {
		for _, stream := range []bool{false, true} {
			for _, via := range []string{"handler", "transport"} {
				t.Run(sc.Name+"/"+Modes[stream]+"/"+via, func(t *testing.T) {
					got := viaProxy(t, api, sc.Script, chat, stream, via)
					if d := sc.Want.Check(api, got); d != "" {
						t.Errorf("%s\ngot %+v", d, got)
					}
				})
			}
		}
	}
}

// viaProxy runs chat through the proxy, as a Handler or a Transport, in
// front of a fake upstream answering with script.
func viaProxy(t *testing.T, api proxy.API, script fakeserver.Script, chat Chat, stream bool, via string) Got {
	t.Helper()
	if via == "handler" {
		s, err := NewStack(api, script)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return chat(t, s.Proxy.URL, http.DefaultClient, stream)
	}
	up := fakeserver.NewServer(script, nil)
	defer up.Close()
	tr, err := proxy.NewTransport(Options(api, ""))
	if err != nil {
		t.Fatal(err)
	}
	return chat(t, up.URL, &http.Client{Transport: tr}, stream)
}

// RunDirect checks the harness of chat, a client of api, against the
// upstream alone: native calls read as the scenario says, and a leaked call
// does not read as a call, so the proxy is what makes the other scenarios
// pass.
func RunDirect(t *testing.T, api proxy.API, chat Chat) {
	for _, stream := range []bool{false, true} {
		for _, sc := range Named("native", "hermes") {
			t.Run(sc.Name+"/"+Modes[stream], func(t *testing.T) {
				up := fakeserver.NewServer(sc.Script, nil)
				defer up.Close()
				got := chat(t, up.URL, http.DefaultClient, stream)
				d := sc.Want.Check(api, got)
				switch {
				case sc.Name == "native" && d != "":
					t.Errorf("%s\ngot %+v", d, got)
				case sc.Name != "native" && d == "":
					t.Errorf("the leaked call reads as a native call without the proxy: %+v", got)
				}
			})
		}
	}
}
