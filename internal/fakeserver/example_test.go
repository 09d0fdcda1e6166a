package fakeserver_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/dialectkit/toolcall/internal/fakeserver"
)

// A server whose first answer is a rate limit and whose second is a native
// call; every request is recorded.
func Example() {
	srv := fakeserver.NewServer(fakeserver.Script{
		{Status: 429, Error: "slow down", RetryAfter: "2"},
		{Calls: []fakeserver.Call{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
	}, nil)
	defer srv.Close()

	for range 2 {
		resp, err := http.Post(srv.URL+"/api/chat", "application/json",
			strings.NewReader(`{"model":"qwen3:8b","stream":false,"messages":[{"role":"user","content":"Weather?"}]}`))
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("Retry-After"), strings.Contains(string(body), `"arguments":{"city":"Paris"}`))
	}
	fmt.Println(len(srv.Requests()), srv.Requests()[1].Messages[0].Content)
	// Output:
	// 429 2 false
	// 200  true
	// 2 Weather?
}
