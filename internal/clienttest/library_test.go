package clienttest

import (
	"strings"
	"testing"

	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// library is one provider of an agent library, on the API it speaks.
type library struct {
	// provider is the case's provider, as the script names it.
	provider string
	api      proxy.API
	// finishes, when set, turn the library's own finish reasons into
	// those of finishAs, the API whose finish Want.Check then expects: for
	// a library that says how an answer ended in its own words, whatever
	// API it speaks.
	finishes map[string]string
	finishAs proxy.API
	// noReasoning is set for a provider that does not read the reasoning
	// its API carries: the AI SDK's OpenAI chat provider ignores
	// reasoning_content. The reasoning it reads must then be empty, and
	// the reasoning still out of the content.
	noReasoning bool
}

// aiSDKFinishes turn the AI SDK's finish reasons into chat completions'.
var aiSDKFinishes = map[string]string{"tool-calls": "tool_calls", "stop": "stop", "length": "length"}

// aiSDK are the AI SDK's providers: each reports the SDK's finishReason.
var aiSDK = []library{
	{provider: "openai-compatible", api: proxy.OpenAI, finishes: aiSDKFinishes, finishAs: proxy.OpenAI},
	{provider: "openai.chat", api: proxy.OpenAI, finishes: aiSDKFinishes, finishAs: proxy.OpenAI, noReasoning: true},
	{provider: "openai.responses", api: proxy.Responses, finishes: aiSDKFinishes, finishAs: proxy.OpenAI},
	{provider: "anthropic", api: proxy.Anthropic, finishes: aiSDKFinishes, finishAs: proxy.OpenAI},
}

// langChain are LangChain JS's chat models: each reports its API's own
// finish.
var langChain = []library{
	{provider: "openai", api: proxy.OpenAI},
	{provider: "anthropic", api: proxy.Anthropic},
	{provider: "ollama", api: proxy.Ollama},
}

// TestAISDK drives the AI SDK's generateText and streamText, with tools
// declared without execute, through the proxy on every provider's API.
func TestAISDK(t *testing.T) {
	testLibrary(t, "aisdk.mjs", aiSDK)
}

// TestLangChain drives LangChain JS chat models' bindTools().invoke() and
// .stream() through the proxy on every provider's API.
func TestLangChain(t *testing.T) {
	testLibrary(t, "langchain.mjs", langChain)
}

// testLibrary runs script for each provider in every scenario through the
// proxy, whole and streamed: the library must see the calls as native tool
// calls through its own parsing. Against the upstream alone, the native
// scenario must read the same and a leaked call must read as text, without
// a call or an error, which shows the script reads what the library
// parsed.
func testLibrary(t *testing.T, script string, libs []library) {
	dir := nodeClients(t)
	modes := []string{"whole", "stream"}
	for _, lib := range libs {
		t.Run(lib.provider, func(t *testing.T) {
			var cases []jsCase
			want := map[string]Want{}
			direct := map[string]bool{}
			add := func(name, base, mode string, w Want) {
				c := newCase(name, base, mode)
				c.Provider = lib.provider
				cases = append(cases, c)
				if lib.noReasoning {
					w.Reasoning = ""
				}
				want[name] = w
			}
			for _, sc := range Scenarios {
				for _, mode := range modes {
					s, err := NewStack(lib.api, sc.Script)
					if err != nil {
						t.Fatal(err)
					}
					defer s.Close()
					add(sc.Name+"/"+mode, s.Proxy.URL, mode, sc.Want)
				}
			}
			for _, sc := range Named("native", "hermes") {
				for _, mode := range modes {
					up := fakeserver.NewServer(sc.Script, nil)
					defer up.Close()
					name := "direct/" + sc.Name + "/" + mode
					add(name, up.URL, mode, sc.Want)
					direct[name] = sc.Name == "native"
				}
			}

			got := runNode(t, dir, script, cases)
			for _, c := range cases {
				t.Run(c.Name, func(t *testing.T) {
					g := got[c.Name]
					api := lib.api
					if lib.finishes != nil {
						g.Finish = lib.finishes[g.Finish]
						api = lib.finishAs
					}
					d := want[c.Name].Check(api, g.Got)
					if strings.HasPrefix(c.Name, "direct/") && !direct[c.Name] {
						// The library reads the answer, and finds no call.
						if g.Status != 0 || g.Error != "" || len(g.Calls) != 0 {
							t.Errorf("without the proxy the leaked call should read as text: %+v", g)
						}
						if d == "" {
							t.Errorf("the leaked call reads as a native call without the proxy: %+v", g)
						}
						return
					}
					if d != "" {
						t.Errorf("%s\ngot %+v", d, got[c.Name])
					}
				})
			}
		})
	}
}
