package proxy

import "context"

// recoverWhole asks the upstream again for the calls of a whole answer
// that failed (Config.MaxRetries). It returns nil when recovery is off or
// could not run.
func (q *chatCtx) recoverWhole(ctx context.Context, m *message, f *fixed, top obj) (*fixed, obj) {
	return nil, nil
}
