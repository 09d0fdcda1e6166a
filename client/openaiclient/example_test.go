package openaiclient_test

import (
	"context"
	"fmt"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/client/openaiclient"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/retry"
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

// The OpenAI-compatible adapter under the reflection loop: the model's
// first call fails its schema, the error goes back as the call's result,
// and the second answer is valid.
func ExampleNew() {
	srv := fakeserver.NewServer(fakeserver.Script{
		{Calls: []fakeserver.Call{{Name: "get_weather", Arguments: `{"town":"Paris"}`}}},
		{Calls: []fakeserver.Call{{ID: "call_2", Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
	}, nil)
	defer srv.Close()

	model, err := openaiclient.New(srv.URL, &openaiclient.Options{APIKey: ""}) // llama.cpp, vLLM, LM Studio, …
	if err != nil {
		panic(err)
	}
	loop := &retry.Loop{Model: model}
	out, err := loop.Run(context.Background(), &client.Request{
		Model:    "qwen3-8b",
		Messages: []client.Message{{Role: "user", Content: "Weather in Paris?"}},
		Tools:    adapterExampleTools(),
	})
	if err != nil {
		panic(err)
	}
	for _, c := range out.Result.Calls {
		fmt.Println(c.ID, c.Name, string(c.Arguments))
	}
	fmt.Println(len(out.Attempts), "attempts;", out.Attempts[0].Errors[0].Code, "was sent back")
	// Output:
	// call_2 get_weather {"city":"Paris"}
	// 2 attempts; TLP-004 was sent back
}
