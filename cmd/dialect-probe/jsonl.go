package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
)

// defaultMaxLine bounds one JSONL input line; a longer line is answered
// with an error and skipped, so one huge record cannot exhaust memory.
const defaultMaxLine = 16 << 20

// lineHandler answers one input line. It gets the raw line and returns the
// output record. It must not fail: a bad line gets a record with an error.
type lineHandler func(line []byte) any

// badLineHandler answers a line that could not be read (too long).
type badLineHandler func(id json.RawMessage, err *toolcall.Error) any

// eachLine reads JSON lines from r and writes one JSON line per input line
// to w, in order. Blank lines are skipped. It returns only I/O errors.
func eachLine(r io.Reader, w io.Writer, maxLine int, handle lineHandler, bad badLineHandler) error {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for lineNo := 1; ; lineNo++ {
		line, tooLong, err := readLine(br, maxLine)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			var out any
			if tooLong {
				e := toolcall.NewError(toolcall.CodeInvalidInput, fmt.Sprintf("line %d is longer than %d bytes", lineNo, maxLine))
				out = bad(lineID(line), e)
			} else {
				out = handle(line)
			}
			if werr := enc.Encode(out); werr != nil {
				return werr
			}
			if werr := bw.Flush(); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its newline. A line longer than max is
// consumed to its end but only its first max bytes are returned.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, rerr := br.ReadLine()
		if !tooLong {
			if len(line)+len(chunk) > max {
				tooLong = true
				line = append(line, chunk[:max-len(line)]...)
			} else {
				line = append(line, chunk...)
			}
		}
		if rerr != nil {
			return line, tooLong, rerr
		}
		if !isPrefix {
			return line, tooLong, nil
		}
	}
}

// lineID recovers the "id" of a line even when the line is not valid JSON,
// so that the error record can still be matched to its input.
func lineID(line []byte) json.RawMessage {
	id := gjson.GetBytes(line, "id")
	if id.Exists() && (id.Type == gjson.String || id.Type == gjson.Number) && gjson.Valid(id.Raw) {
		return json.RawMessage(id.Raw)
	}
	return json.RawMessage("null")
}

// errorRecord is the {code, message} shape of errors in parse output.
type errorRecord struct {
	Code    toolcall.Code `json:"code"`
	Message string        `json:"message"`
	Tool    string        `json:"tool,omitempty"`
	Index   *int          `json:"call_index,omitempty"`
	Path    string        `json:"path,omitempty"`
}

func toErrorRecord(e *toolcall.Error) errorRecord {
	r := errorRecord{Code: e.Code, Message: e.Error(), Tool: e.Tool, Path: e.Path}
	if e.CallIndex >= 0 {
		i := e.CallIndex
		r.Index = &i
	}
	return r
}
