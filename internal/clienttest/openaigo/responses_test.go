package openaigo

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/dialectkit/toolcall/internal/clienttest"
	"github.com/dialectkit/toolcall/proxy"
)

// responsesParams is the Responses request of every scenario: the prompt
// and the weather tool, in the API's flat shape.
func responsesParams(t *testing.T) responses.ResponseNewParams {
	t.Helper()
	tool := weatherTool(t)
	return responses.ResponseNewParams{
		Model: clienttest.Model,
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String(clienttest.Prompt)},
		Tools: []responses.ToolUnionParam{{OfFunction: &responses.FunctionToolParam{
			Name:        tool.Name,
			Description: openai.String(tool.Description),
			Parameters:  tool.Parameters,
			Strict:      openai.Bool(false),
		}}},
	}
}

// respond runs one Responses request with openai-go against base and
// returns what the client parsed: the output of a whole answer, or of the
// stream's response.completed (checked against the deltas).
func respond(t *testing.T, base string, hc *http.Client, stream bool) clienttest.Got {
	t.Helper()
	client := openai.NewClient(option.WithBaseURL(base+"/v1/"), option.WithAPIKey("unused"),
		option.WithHTTPClient(hc), option.WithMaxRetries(0))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := responsesParams(t)
	var g clienttest.Got
	var resp *responses.Response
	var err error
	if !stream {
		resp, err = client.Responses.New(ctx, p)
	} else {
		s := client.Responses.NewStreaming(ctx, p)
		var deltas string
		for s.Next() {
			ev := s.Current()
			switch ev.Type {
			case "response.output_text.delta":
				deltas += ev.Delta
			case "response.completed", "response.incomplete":
				r := ev.Response
				resp = &r
			}
		}
		err = s.Err()
		if err == nil && resp == nil {
			t.Fatal("the stream has no response.completed")
		}
		if err == nil && deltas != resp.OutputText() {
			t.Errorf("the deltas say %q, response.completed %q", deltas, resp.OutputText())
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
	g.Finish = string(resp.Status)
	for _, it := range resp.Output {
		switch it.Type {
		case "message":
			for _, c := range it.Content {
				g.Content += c.Text
			}
		case "reasoning":
			for _, s := range it.Summary {
				g.Reasoning += s.Text
			}
		case "function_call":
			g.Calls = append(g.Calls, clienttest.GotCall{ID: it.CallID, Name: it.Name, Arguments: it.Arguments.OfString})
		}
	}
	return g
}

// TestOpenAIGoResponses drives openai-go's Responses API through the proxy
// Handler and through the Transport, streaming and not, in every
// scenario.
func TestOpenAIGoResponses(t *testing.T) { clienttest.RunScenarios(t, proxy.Responses, respond) }

// TestOpenAIGoResponsesDirect checks the harness against the upstream
// alone (clienttest.RunDirect).
func TestOpenAIGoResponsesDirect(t *testing.T) { clienttest.RunDirect(t, proxy.Responses, respond) }
