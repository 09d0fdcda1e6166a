package openaigo

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/respjson"
	"github.com/openai/openai-go/v3/shared"

	"github.com/dialectkit/toolcall/internal/clienttest"
	"github.com/dialectkit/toolcall/internal/fakeserver"
	"github.com/dialectkit/toolcall/proxy"
)

// params is the chat request of every scenario: the prompt and the weather
// tool.
func params(t *testing.T) openai.ChatCompletionNewParams {
	t.Helper()
	tool := weatherTool(t)
	return openai.ChatCompletionNewParams{
		Model:    clienttest.Model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(clienttest.Prompt)},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        tool.Name,
			Description: openai.String(tool.Description),
			Parameters:  shared.FunctionParameters(tool.Parameters),
		})},
	}
}

// tool is the weather tool's function.
type tool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// weatherTool reads clienttest.WeatherTool.
func weatherTool(t *testing.T) tool {
	t.Helper()
	var v struct {
		Function tool `json:"function"`
	}
	if err := json.Unmarshal([]byte(clienttest.WeatherTool), &v); err != nil {
		t.Fatal(err)
	}
	return v.Function
}

// chat runs one chat completion with openai-go against base and returns
// what the client parsed: the message of a whole answer, or what its
// ChatCompletionAccumulator assembled from the stream.
func chat(t *testing.T, base string, hc *http.Client, stream bool) clienttest.Got {
	t.Helper()
	return chatKey(t, base, hc, stream, "unused")
}

// chatKey is chat with the API key the client sends.
func chatKey(t *testing.T, base string, hc *http.Client, stream bool, key string) clienttest.Got {
	t.Helper()
	client := openai.NewClient(option.WithBaseURL(base+"/v1/"), option.WithAPIKey(key),
		option.WithHTTPClient(hc), option.WithMaxRetries(0))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := params(t)
	var g clienttest.Got
	var msg openai.ChatCompletionMessage
	var err error
	if !stream {
		var resp *openai.ChatCompletion
		resp, err = client.Chat.Completions.New(ctx, p)
		if err == nil {
			if len(resp.Choices) != 1 {
				t.Fatalf("%d choices", len(resp.Choices))
			}
			msg, g.Finish = resp.Choices[0].Message, resp.Choices[0].FinishReason
			g.Reasoning = extraString(msg.JSON.ExtraFields, "reasoning_content")
		}
	} else {
		p.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
		s := client.Chat.Completions.NewStreaming(ctx, p)
		acc := openai.ChatCompletionAccumulator{}
		finished := 0
		for s.Next() {
			chunk := s.Current()
			acc.AddChunk(chunk)
			for _, c := range chunk.Choices {
				// reasoning_content is no field of openai-go's delta: it is
				// read from the delta's extra fields.
				g.Reasoning += extraString(c.Delta.JSON.ExtraFields, "reasoning_content")
			}
			if _, ok := acc.JustFinishedToolCall(); ok {
				finished++
			}
		}
		err = s.Err()
		if err == nil {
			if len(acc.Choices) != 1 {
				t.Fatalf("%d choices", len(acc.Choices))
			}
			msg, g.Finish = acc.Choices[0].Message, acc.Choices[0].FinishReason
			if finished != len(msg.ToolCalls) {
				t.Errorf("the accumulator finished %d calls, the message holds %d", finished, len(msg.ToolCalls))
			}
			if acc.Usage.TotalTokens == 0 {
				t.Errorf("no usage, though include_usage was asked")
			}
		}
	}
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr):
		g.Status, g.Error = apiErr.StatusCode, apiErr.Error()
		return g
	case err != nil:
		g.Status, g.Error = -1, err.Error()
		return g
	}
	g.Content = msg.Content
	for _, tc := range msg.ToolCalls {
		g.Calls = append(g.Calls, clienttest.GotCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return g
}

// extraString returns the string in a field openai-go does not know, or "".
func extraString(fields map[string]respjson.Field, key string) string {
	f, ok := fields[key]
	if !ok {
		return ""
	}
	var v string
	if json.Unmarshal([]byte(f.Raw()), &v) != nil {
		return ""
	}
	return v
}

// TestOpenAIGoClient drives openai-go through the proxy Handler and
// through the Transport, streaming and not, in every scenario.
func TestOpenAIGoClient(t *testing.T) { clienttest.RunScenarios(t, proxy.OpenAI, chat) }

// TestOpenAIGoClientDirect checks the harness against the upstream alone
// (clienttest.RunDirect).
func TestOpenAIGoClientDirect(t *testing.T) { clienttest.RunDirect(t, proxy.OpenAI, chat) }

// TestOpenAIGoClientAPIKey runs openai-go against a Handler that requires
// an API key: the client's own key option passes it, a wrong key gets the
// client's 401 error.
func TestOpenAIGoClientAPIKey(t *testing.T) {
	up := fakeserver.NewServer(clienttest.Named("native")[0].Script, nil)
	defer up.Close()
	opts := clienttest.Options(proxy.OpenAI, up.URL)
	opts.APIKey = "proxy-key"
	h, err := proxy.NewHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, stream := range []bool{false, true} {
		t.Run(clienttest.Modes[stream], func(t *testing.T) {
			got := chatKey(t, srv.URL, http.DefaultClient, stream, "proxy-key")
			if d := clienttest.Named("native")[0].Want.Check(proxy.OpenAI, got); d != "" {
				t.Errorf("with the key: %s\ngot %+v", d, got)
			}
			got = chatKey(t, srv.URL, http.DefaultClient, stream, "wrong")
			if got.Status != http.StatusUnauthorized {
				t.Errorf("with a wrong key: status %d (%s), want 401", got.Status, got.Error)
			}
		})
	}
}
