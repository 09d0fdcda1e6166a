package ollamaclient_test

import (
	"context"
	"fmt"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/client/ollamaclient"
	"github.com/dialectkit/toolcall/internal/fakeserver"
)

// adapterExampleTools declares the examples' one tool.
func adapterExampleTools() []toolcall.Tool {
	tools, err := toolcall.ParseTools([]byte(`[{"type":"function","function":{"name":"get_weather",
		"parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]`))
	if err != nil {
		panic(err)
	}
	return tools
}

// One request through the Ollama adapter: the native calls come back as
// the server sent them, ready for dialects.Finish or a Loop.
func ExampleNewHost() {
	// A scripted stand-in for "ollama serve".
	srv := fakeserver.NewServer(fakeserver.Script{{
		Calls: []fakeserver.Call{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}},
	}}, nil)
	defer srv.Close()

	model, err := ollamaclient.NewHost(srv.URL, nil) // "" means $OLLAMA_HOST or 127.0.0.1:11434
	if err != nil {
		panic(err)
	}
	resp, err := model.Chat(context.Background(), &client.Request{
		Model:    "qwen3:8b",
		Messages: []client.Message{{Role: "user", Content: "Weather in Paris?"}},
		Tools:    adapterExampleTools(),
	})
	if err != nil {
		panic(err)
	}
	for _, c := range resp.NativeCalls {
		fmt.Println(c.ID, c.Name, c.Arguments)
	}
	fmt.Println(resp.Done, resp.DoneReason)
	// Output:
	// call_1 get_weather {"city":"Paris"}
	// true stop
}
