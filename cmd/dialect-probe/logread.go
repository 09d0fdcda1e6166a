package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// logRecord is one log record read back: its attributes by key, values as
// the JSON handler wrote them (strings, numbers as float64, lists) or, from
// the text handler, as strings.
type logRecord map[string]any

// readLogs reads the records of the named files, or of stdin when there are
// none (or a name is "-"), in order. Each line is a JSON object (slog's JSON
// handler) or a logfmt line (slog's text handler); other lines are skipped
// and counted.
func readLogs(names []string, stdin io.Reader) (recs []logRecord, skipped int, err error) {
	read := func(r io.Reader) error {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" {
				continue
			}
			if rec, ok := parseLogLine(line); ok {
				recs = append(recs, rec)
			} else {
				skipped++
			}
		}
		return sc.Err()
	}
	if len(names) == 0 {
		names = []string{"-"}
	}
	for _, n := range names {
		if n == "-" {
			if err := read(stdin); err != nil {
				return nil, 0, err
			}
			continue
		}
		f, err := os.Open(n)
		if err != nil {
			return nil, 0, err
		}
		err = read(f)
		f.Close()
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", n, err)
		}
	}
	return recs, skipped, nil
}

// parseLogLine reads one record in either form.
func parseLogLine(line string) (logRecord, bool) {
	if strings.HasPrefix(line, "{") {
		var rec logRecord
		if json.Unmarshal([]byte(line), &rec) != nil {
			return nil, false
		}
		return rec, rec["msg"] != nil
	}
	rec := logRecord{}
	for i := 0; i < len(line); {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i >= len(line) {
			break
		}
		eq := strings.IndexByte(line[i:], '=')
		if eq <= 0 || strings.ContainsAny(line[i:i+eq], " \"") {
			return nil, false
		}
		key := line[i : i+eq]
		i += eq + 1
		var val string
		if i < len(line) && line[i] == '"' {
			q, err := strconv.QuotedPrefix(line[i:])
			if err != nil {
				return nil, false
			}
			val, _ = strconv.Unquote(q)
			i += len(q)
		} else {
			end := strings.IndexByte(line[i:], ' ')
			if end < 0 {
				end = len(line) - i
			}
			val = line[i : i+end]
			i += end
		}
		rec[key] = val
	}
	return rec, rec["msg"] != nil && rec["level"] != nil
}

// str returns an attribute as a string.
func (r logRecord) str(key string) string {
	switch v := r[key].(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return ""
	}
	b, _ := json.Marshal(r[key])
	return string(b)
}

// num returns a numeric attribute, and whether it was there.
func (r logRecord) num(key string) (float64, bool) {
	switch v := r[key].(type) {
	case float64:
		return v, true
	case string:
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil
	}
	return 0, false
}

// list returns a list attribute: a JSON array, or the text handler's
// "[a b c]".
func (r logRecord) list(key string) []string {
	switch v := r[key].(type) {
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			out = append(out, fmt.Sprint(x))
		}
		return out
	case string:
		v = strings.TrimSpace(v)
		if v == "<nil>" {
			return nil
		}
		if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
			if v == "" {
				return nil
			}
			return []string{v}
		}
		return strings.Fields(v[1 : len(v)-1])
	}
	return nil
}

// time returns the record's time, and whether it has one.
func (r logRecord) time() (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, r.str("time"))
	return t, err == nil
}

func (r logRecord) msg() string { return r.str("msg") }
