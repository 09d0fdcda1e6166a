package stream

import (
	"context"
	"errors"
	"io"
	"iter"

	"github.com/dialectkit/toolcall"
)

// Events feeds deltas to p and yields the events as they are settled,
// ending with Done. It stops early when the consumer stops or ctx is done;
// then it yields a TLP-022 error (wrapping ctx.Err()) and no Done, and p is
// left open.
func Events(ctx context.Context, p *Parser, deltas iter.Seq[string]) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for d := range deltas {
			if err := ctx.Err(); err != nil {
				yield(Event{}, canceled(err))
				return
			}
			for _, ev := range p.Write(d) {
				if !yield(ev, nil) {
					return
				}
			}
		}
		if err := ctx.Err(); err != nil {
			yield(Event{}, canceled(err))
			return
		}
		for _, ev := range p.Close() {
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// Read feeds p what r delivers, each Read as one delta, and yields the
// events as they are settled, ending with Done at end of input. A read
// error other than io.EOF is yielded as a TLP-008 error wrapping it, and
// ends the sequence without Done. ctx is checked between reads; a Read that
// blocks is not interrupted (close r to stop it).
func Read(ctx context.Context, p *Parser, r io.Reader) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		buf := make([]byte, 32<<10)
		for {
			if err := ctx.Err(); err != nil {
				yield(Event{}, canceled(err))
				return
			}
			n, err := r.Read(buf)
			if n > 0 {
				for _, ev := range p.Write(string(buf[:n])) {
					if !yield(ev, nil) {
						return
					}
				}
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				yield(Event{}, toolcall.Errorf(toolcall.CodeStream, err, "reading the model output failed"))
				return
			}
		}
		for _, ev := range p.Close() {
			if !yield(ev, nil) {
				return
			}
		}
	}
}

func canceled(err error) *toolcall.Error {
	return toolcall.Errorf(toolcall.CodeCanceled, err, "the stream was cancelled")
}
