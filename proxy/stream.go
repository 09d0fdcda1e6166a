package proxy

import (
	"context"
	"net/http"

	"github.com/dialectkit/toolcall"
)

func (q *chatCtx) streamOpenAI(ctx context.Context, resp *http.Response) *toolcall.Error {
	return q.whole(ctx, resp)
}
func (q *chatCtx) streamOllama(ctx context.Context, resp *http.Response) *toolcall.Error {
	return q.whole(ctx, resp)
}
