package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/retry"
	"github.com/dialectkit/toolcall/stream"
)

// streamer rewrites a streamed answer live: content and reasoning deltas go
// out as the stream engine settles them, each call as the protocol's
// tool-call chunks once it is complete and valid.
type streamer struct {
	q      *chatCtx
	w      http.ResponseWriter
	fl     http.Flusher
	parser *stream.Parser // nil until the first content delta
	popts  registry.Options
	do     dialects.Options
	f      *fixed
	// sc reads the upstream's events and writes the client's.
	sc streamCodec

	// readAt is when the upstream chunk being handled was read.
	readAt time.Time
	// sent are the calls the client has (index = position); failed marks
	// those that went out as the model wrote them.
	sent   []toolcall.Call
	failed []bool
	// native are the upstream's own calls; openNative those still
	// arriving, by index (OpenAI sends them in fragments).
	native     []nativeCall
	openNative map[int]*nativeCall
	nativeSeen int
	nativeHeld bool
	moved      bool // reasoning was moved out of the content
	// truncated says the answer stopped for length, or its stream ended
	// before its last event.
	truncated bool

	// Recovery: once a call failed and recovery is on, the rest of the
	// answer is held until the answer is complete.
	recover   bool
	held      bool
	heldEvs   []stream.Event
	reasoning string // the upstream's own reasoning, for recovery
	err       error  // the first write error: the client went away
	size      int64
	// dirty: chunks were written since the last flush; unsent are the
	// times their upstream lines were read.
	dirty  bool
	unsent []time.Time
}

func (q *chatCtx) newStreamer(resp *http.Response, contentType string) *streamer {
	s := &streamer{q: q, w: q.w, f: &fixed{}, openNative: map[int]*nativeCall{}}
	s.fl, _ = q.w.(http.Flusher)
	s.do = q.ropts.DialectOptions()
	s.recover = q.cfg.MaxRetries > 0 && q.top != nil
	copyHeader(q.w.Header(), resp.Header, true)
	q.w.Header().Set("Content-Type", contentType)
	q.w.Header().Set(CorrelationHeader, q.st.CorrelationID)
	q.w.WriteHeader(resp.StatusCode)
	q.st.Status = resp.StatusCode
	s.flush()
	return s
}

// contentParser returns the stream engine that reads the content, made
// at the first content delta (or the end): content that follows reasoning
// the upstream split off itself starts outside reasoning (contentOptions).
func (s *streamer) contentParser() *stream.Parser {
	if s.parser == nil {
		s.popts = s.q.contentOptions(s.reasoning)
		s.parser = s.q.c.reg.Stream(&s.popts)
	}
	return s.parser
}

// flush sends the chunks written since the last flush, and records the
// delay each of them was given (RequestStats.ChunkAdded).
func (s *streamer) flush() {
	if s.fl != nil {
		s.fl.Flush()
	}
	if len(s.unsent) > 0 {
		now := time.Now()
		for _, at := range s.unsent {
			s.q.st.ChunkAdded = append(s.q.st.ChunkAdded, now.Sub(at))
		}
		s.unsent = s.unsent[:0]
	}
	s.dirty = false
}

// write sends one chunk (an NDJSON line or an SSE event) to the client.
// It goes out when the proxy has handled every upstream line already
// received (lines flushes before it waits for the upstream): chunks that
// arrived together go out in one write, and none waits for the upstream.
func (s *streamer) write(b []byte) {
	if s.err != nil {
		return
	}
	if _, err := s.w.Write(b); err != nil {
		s.err = err
		return
	}
	s.dirty = true
	if !s.readAt.IsZero() {
		s.unsent = append(s.unsent, s.readAt)
	}
}

// lineReady reports whether br holds a whole line, which a read takes
// without waiting.
func lineReady(br *bufio.Reader) bool {
	n := br.Buffered()
	if n == 0 {
		return false
	}
	b, _ := br.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// lines reads the upstream body line by line, within MaxResponseBytes.
func (s *streamer) lines(body io.Reader, each func(line []byte) bool) error {
	br, _ := s.q.c.lineReaders.Get().(*bufio.Reader)
	if br == nil {
		br = bufio.NewReaderSize(body, 64<<10)
	} else {
		br.Reset(body)
	}
	defer func() {
		// The lines read were handled: none is kept past this call.
		br.Reset(nil)
		s.q.c.lineReaders.Put(br)
	}()
	limit := s.q.c.opts.MaxResponseBytes
	for {
		ready := lineReady(br)
		if s.dirty && !ready {
			s.flush()
		}
		var line []byte
		var err error
		if ready {
			// A line that came with the last read: it was read then, and
			// took no waiting.
			line, err = br.ReadSlice('\n')
		} else {
			waited := time.Now()
			line, err = br.ReadSlice('\n')
			s.readAt = time.Now()
			s.q.upstreamTime += s.readAt.Sub(waited)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: gather it whole.
			buf := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				buf = append(buf, line...)
				if int64(len(buf)) > limit {
					break
				}
			}
			line = buf
			s.readAt = time.Now()
		}
		s.size += int64(len(line))
		if s.size > limit {
			return toolcall.NewError(toolcall.CodeLimit, "the upstream answer is larger than "+
				strconv.FormatInt(limit, 10)+" bytes (max_response_bytes)")
		}
		if len(bytes.TrimSpace(line)) > 0 && !each(line) {
			return nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return io.EOF
			}
			return err
		}
		if s.err != nil {
			return s.err
		}
	}
}

// events handles what the stream engine settled.
func (s *streamer) events(evs []stream.Event, e emitter) {
	if s.f.dialect == "" {
		// The dialect the final parse settled on names the syntax of a
		// failed call reported in the same batch.
		for _, ev := range evs {
			if ev.Kind == stream.Done && ev.Result != nil && len(ev.Result.Calls)+len(ev.Result.Errors) > 0 {
				s.f.dialect = ev.Result.Dialect
			}
		}
	}
	for _, ev := range evs {
		if s.held {
			s.heldEvs = append(s.heldEvs, ev)
			continue
		}
		switch ev.Kind {
		case stream.CallError:
			var te *toolcall.Error
			errors.As(ev.Err, &te)
			if s.recover && te != nil && te.Code != toolcall.CodeTruncated && te.Code != toolcall.CodeTooMany {
				s.held = true
				s.heldEvs = append(s.heldEvs, ev)
				continue
			}
		}
		s.event(ev, e)
	}
}

// event sends one settled event.
func (s *streamer) event(ev stream.Event, e emitter) {
	switch ev.Kind {
	case stream.Content:
		e.content(ev.Text)
	case stream.Reasoning:
		e.reasoning(ev.Text)
		if !s.moved {
			s.moved = true
			s.f.count(fixReasoning, 1)
		}
	case stream.Call:
		s.f.count(fixLeaked, 1)
		s.send(s.q.withID(s.f, *ev.Call), nil, false, e)
	case stream.CallError:
		var te *toolcall.Error
		if errors.As(ev.Err, &te) {
			s.f.errors = append(s.f.errors, te)
			if c, ok := asWritten(te, nil); ok {
				s.f.count(fixLeaked, 1)
				c = s.q.withID(s.f, c)
				te.CallID = c.ID
				s.send(c, nil, true, e)
			} else if text := s.failedText(te); text != "" {
				e.content(text)
			}
		}
	case stream.Detected:
		if s.f.dialect == "" {
			s.f.dialect = ev.Dialect
		}
	case stream.Done:
		if ev.Result != nil {
			if ev.Result.Dialect != "" && s.f.dialect == "" && len(ev.Result.Calls)+len(ev.Result.Errors) > 0 {
				s.f.dialect = ev.Result.Dialect
			}
			s.f.repairs = append(s.f.repairs, ev.Result.Repairs...)
			for _, r := range ev.Result.Repairs {
				if isCoercion(r) {
					s.f.count(fixCoerced, 1)
				} else {
					s.f.count(fixRepaired, 1)
				}
			}
		}
	}
}

// failedText is what goes out as content for a leaked call that failed:
// the call written again in the model's dialect when the parser kept its
// name and a JSON object as arguments (a call off its schema), else the
// text the parser kept for it (Error.Raw).
func (s *streamer) failedText(te *toolcall.Error) string {
	raw := strings.TrimSpace(te.Raw)
	if te.Tool != "" && s.f.dialect != "" && s.f.dialect != retry.NativeDialect &&
		strings.HasPrefix(raw, "{") && json.Valid([]byte(raw)) {
		return retry.FormatCall(s.q.c.reg, s.f.dialect, te.Tool, json.RawMessage(raw))
	}
	return te.Raw
}

// sendNative sends the upstream's own calls.
func (s *streamer) sendNative(e emitter) {
	for i := range s.native {
		s.nativeCall(&s.native[i], e)
	}
}

// nativeCall checks one of the upstream's own calls and sends it, with an
// id: valid, or failed as the model wrote it.
func (s *streamer) nativeCall(n *nativeCall, e emitter) {
	idx := s.nativeSeen
	s.nativeSeen++
	s.f.dialect = retry.NativeDialect
	call, repairs, err := dialects.FinishCall(&n.rc, idx, &s.do)
	s.f.repairs = append(s.f.repairs, repairs...)
	for _, r := range repairs {
		if isCoercion(r) {
			s.f.count(fixCoerced, 1)
		} else {
			s.f.count(fixRepaired, 1)
		}
	}
	failed := false
	if err != nil {
		// A native call that stays failed goes out as the model wrote it.
		te := toolcall.NewError(toolcall.CodeInvalidJSON, err.Error())
		errors.As(err, &te)
		te.CallIndex = idx
		s.f.errors = append(s.f.errors, te)
		call, _ = asWritten(te, n)
		s.f.changed, failed = true, true
	}
	call = s.q.withID(s.f, call)
	if failed {
		s.f.errors[len(s.f.errors)-1].CallID = call.ID
	}
	s.send(call, n, failed, e)
}

// markErrors adds CallErrorsField to o, the answer's last event (or the
// object in it that stands for the whole answer), when calls failed their
// check.
func (s *streamer) markErrors(o obj) {
	if len(s.f.errors) > 0 {
		o.setRaw(CallErrorsField, callErrorsJSON(s.f.errors))
	}
}

// send sends a call to the client; failed marks one that goes out as the
// model wrote it.
func (s *streamer) send(c toolcall.Call, n *nativeCall, failed bool, e emitter) {
	s.sent = append(s.sent, c)
	s.failed = append(s.failed, failed)
	e.call(c, len(s.sent)-1, n)
}

// end settles the parser and, when a call failed with recovery on, asks
// again and sends what the recovered answer adds.
func (s *streamer) end(ctx context.Context, e emitter, doneReason string) {
	s.events(s.contentParser().Close(), e)
	if !s.held {
		return
	}
	s.held = false
	m := &message{content: s.contentParser().Text(), reasoning: s.reasoning, calls: s.native}
	if s.dirty {
		s.flush() // what went before does not wait for the re-asks
	}
	rf, _ := s.q.recoverAnswer(ctx, m, doneReason)
	if rf == nil {
		for _, ev := range s.heldEvs {
			s.event(ev, e)
		}
		if s.nativeHeld {
			s.sendNative(e)
		}
		return
	}
	s.f.errors = nil
	s.f.dialect = rf.dialect
	s.f.repairs = append(s.f.repairs, rf.repairs...)
	if rf.reasoning != "" {
		e.reasoning(rf.reasoning)
	}
	if rf.content != "" {
		e.content(rf.content)
	}
	for _, c := range rf.calls {
		if s.wasSent(c.call) {
			continue
		}
		s.f.count(fixLeaked, 1)
		s.send(c.call, nil, false, e)
	}
}

// wasSent reports whether an equal call (name and arguments) already went
// out: the loop keeps the valid calls of a failed answer.
func (s *streamer) wasSent(c toolcall.Call) bool {
	for _, d := range s.sent {
		if d.Name == c.Name && argsEqual(string(d.Arguments), c.Arguments) {
			return true
		}
	}
	return false
}

// finish records the stream in the statistics.
func (s *streamer) finish(truncated bool) {
	f := s.f
	f.truncated = truncated
	for i, c := range s.sent {
		f.calls = append(f.calls, outCall{call: c, failed: s.failed[i]})
	}
	f.changed = f.changed || len(f.fixes) > 0
	q := s.q
	q.record(f)
}

// streamAnswer rewrites a streamed answer: the codec reads the upstream's
// events and writes the fixed answer's, the streamer settles what they
// carry.
func (q *chatCtx) streamAnswer(ctx context.Context, resp *http.Response) *toolcall.Error {
	s := q.newStreamer(resp, q.cd.streamType())
	s.sc = q.cd.newStream(s)
	ended := false
	err := s.lines(resp.Body, func(line []byte) bool {
		if !s.sc.line(ctx, line) {
			ended = true
			return false
		}
		return s.err == nil
	})
	if !ended {
		// The upstream stopped without its last event.
		s.sc.cut(ctx)
	}
	s.finish(s.truncated)
	if err == nil && s.err == nil {
		s.flush()
		drain(resp.Body)
	}
	te := s.failure(ctx, err)
	s.flush()
	return te
}

// reasoningDelta handles reasoning the upstream split off itself: it goes
// out as it came, and is kept for recovery.
func (s *streamer) reasoningDelta(text string, e emitter) {
	if text == "" {
		return
	}
	s.reasoning += text
	e.reasoning(text)
}

// contentDelta feeds content to the stream engine and sends what it
// settled.
func (s *streamer) contentDelta(text string, e emitter) {
	if text == "" {
		return
	}
	s.events(s.contentParser().Write(text), e)
}

// failure codes how a stream ended when it did not end well.
func (s *streamer) failure(ctx context.Context, err error) *toolcall.Error {
	var te *toolcall.Error
	switch {
	case (err == nil || errors.Is(err, io.EOF)) && s.err == nil:
		return nil
	case err == nil || errors.Is(err, io.EOF) || errors.Is(err, s.err):
		// Writing to the client failed: it went away, or (through a
		// Transport) the total timeout closed its body.
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && s.q.in.Context().Err() == nil {
			te = toolcall.Errorf(toolcall.CodeLimit, s.err, "the request lasted longer than the total timeout ("+s.q.c.opts.TotalTimeout.String()+")")
		} else {
			te = toolcall.Errorf(toolcall.CodeCanceled, s.err, "the client went away")
		}
		te.CorrelationID = s.q.st.CorrelationID
		s.q.st.ErrorCodes = append(s.q.st.ErrorCodes, string(te.Code))
		s.q.st.Outcome = OutcomeError
		return te
	case errors.As(err, &te):
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && s.q.in.Context().Err() == nil:
		te = toolcall.Errorf(toolcall.CodeLimit, err, "the request lasted longer than the total timeout ("+s.q.c.opts.TotalTimeout.String()+")")
	default:
		te = transportError(ctx, err)
	}
	te.CorrelationID = s.q.st.CorrelationID
	s.q.st.ErrorCodes = append(s.q.st.ErrorCodes, string(te.Code))
	s.q.st.Outcome = OutcomeError
	if te.Code != toolcall.CodeCanceled {
		// The stream is cut: the client is told why, in the protocol's
		// own error shape.
		s.readAt = time.Time{}
		s.write(s.sc.errorEvent(te))
	}
	return te
}

// drain reads what is left of an upstream body after its last chunk (the
// end of the chunked encoding), so that the connection can serve the next
// request. An upstream that keeps the stream open after its last chunk is
// given a moment, then its body is closed.
func drain(body io.ReadCloser) {
	t := time.AfterFunc(100*time.Millisecond, func() { body.Close() })
	defer t.Stop()
	io.Copy(io.Discard, io.LimitReader(body, 64<<10))
}

// endNative settles the text and sends the upstream's own calls, in index
// order, once the answer is complete.
func (s *streamer) endNative(ctx context.Context, e emitter, reason string) {
	for i := 0; len(s.openNative) > 0; i++ {
		if n, ok := s.openNative[i]; ok {
			s.native = append(s.native, *n)
			delete(s.openNative, i)
		}
		if i > 1<<20 {
			break
		}
	}
	if !s.held && len(s.native) > 0 && s.recover {
		// Native calls are checked before any goes out, so that a failed
		// one can still be recovered.
		for _, n := range s.native {
			rc := n.rc
			if _, _, err := dialects.FinishCall(&rc, 0, &s.do); err != nil {
				s.held = true
			}
		}
	}
	s.nativeHeld = s.held
	if !s.held {
		s.sendNative(e)
	}
	s.end(ctx, e, reason)
}
