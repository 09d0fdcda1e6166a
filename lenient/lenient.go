// Package lenient turns almost-JSON into JSON.
//
// Repair runs a staged pipeline, fastest first:
//
//  1. valid JSON is returned byte for byte;
//  2. a JSON string whose content is a JSON object or array (double
//     encoding) is unwrapped;
//  3. a BOM, code fences (```json … ```) and prose around one value are
//     stripped, and a valid value inside is returned byte for byte;
//  4. a linear repair scanner handles the rest: JSON5 (single quotes,
//     unquoted keys, trailing commas, comments, hex numbers, read without
//     guessing), Python and JavaScript spellings (triple-quoted strings
//     included), truncation, unbalanced brackets, unescaped inner quotes,
//     raw newlines in strings, missing commas and colons, stray text.
//
// Every change is recorded as a toolcall.Repair with its kind and byte
// offset. The output is strict JSON that keeps the model's key order;
// repair is deterministic and idempotent, and when the scanner cannot tell
// what the model meant it fails with a coded error rather than invent.
package lenient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/jsonscan"
)

// Default limits.
const (
	DefaultMaxSize  = 1 << 20
	DefaultMaxDepth = 64
	DefaultTimeout  = 100 * time.Millisecond
)

// maxUnwrap bounds how many layers of string encoding are taken off. Each
// layer escapes the quotes and backslashes of the one inside, so a
// document under the size limit cannot hold more than about twenty.
const maxUnwrap = 32

// clockFreeSize is the input size below which the time budget is not
// checked: the work bound alone keeps such a repair far under a
// millisecond, and reading the clock would cost more than the check saves.
const clockFreeSize = 4 << 10

// Options configure Repair. The zero value means the defaults; a negative
// value means no limit.
type Options struct {
	// MaxSize is the largest input accepted, in bytes; checked before
	// parsing (TLP-009).
	MaxSize int
	// MaxDepth is the deepest nesting of objects and arrays accepted
	// (TLP-013).
	MaxDepth int
	// Timeout is the time budget of one repair (TLP-007).
	Timeout time.Duration
}

// Result is the outcome of Repair.
type Result struct {
	// Output is strict JSON, or nil when Err is set. When the input was
	// valid JSON it is the input itself.
	Output []byte
	// Original is the input as given.
	Original []byte
	// Attempted reports whether repair ran (false when the input was valid).
	Attempted bool
	// Repairs lists what was changed, in the order the changes were made.
	Repairs []toolcall.Repair
	// Kept is Output before the earlier values of a key given twice were
	// dropped (LastKeyWins, recorded as duplicate_key): strict JSON that
	// holds every word of the input repair kept, which is what a check
	// that repair dropped no word reads. It is Output when no key repeats,
	// and the input itself when only duplicates were dropped.
	Kept []byte
	// Err is set when no valid JSON could be produced: TLP-003 (repair
	// failed), TLP-007 (time budget), TLP-009 (too large) or TLP-013 (too
	// deep), a *toolcall.Error (errors.As reaches it) whose Offset points
	// into the input when it can.
	Err error
}

// config is Options with the defaults applied; 0 means no limit.
type config struct {
	maxSize  int
	maxDepth int
	timeout  time.Duration
	// now reads the clock the time budget is measured on; nil is
	// time.Now (a test gives a clock of its own).
	now func() time.Time
}

// readClock reads the clock now is: time.Now when now is nil.
func readClock(now func() time.Time) time.Time {
	if now != nil {
		return now()
	}
	return time.Now()
}

func (o *Options) config() config {
	c := config{maxSize: DefaultMaxSize, maxDepth: DefaultMaxDepth, timeout: DefaultTimeout}
	if o == nil {
		return c
	}
	c.maxSize = pick(o.MaxSize, c.maxSize)
	c.maxDepth = pick(o.MaxDepth, c.maxDepth)
	c.timeout = time.Duration(pick(int(o.Timeout), int(c.timeout)))
	return c
}

// pick applies the Options convention: 0 is the default, negative is none.
func pick(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// Repair turns input into strict JSON. opts may be nil.
func Repair(input []byte, opts *Options) Result {
	return repairWith(input, opts.config())
}

// repairWith is Repair with the options applied.
func repairWith(input []byte, cfg config) Result {
	if cfg.maxSize > 0 && len(input) > cfg.maxSize {
		return Result{Original: input, Err: tooLarge(len(input), cfg.maxSize)}
	}
	// One pass decides the common case: syntax, UTF-8, depth and repeated
	// keys at once.
	v, at := validate(input, cfg.maxDepth)
	return repairChecked(input, cfg, v, at, nil)
}

func tooLarge(n, limit int) *toolcall.Error {
	return toolcall.NewError(toolcall.CodeTooLarge,
		fmt.Sprintf("input of %d bytes is larger than the limit of %d bytes", n, limit))
}

// RepairString is Repair for a string. Result.Original is a copy of s.
func RepairString(s string, opts *Options) Result {
	cfg := opts.config()
	if cfg.maxSize > 0 && len(s) > cfg.maxSize {
		return Result{Original: []byte(s), Err: tooLarge(len(s), cfg.maxSize)}
	}
	// The string is checked where it lies; only then is it copied. Text
	// that needs repair is copied into a buffer that also holds the room
	// for the output: one allocation instead of two.
	v, at := validate(unsafe.Slice(unsafe.StringData(s), len(s)), cfg.maxDepth)
	if !v.invalid() {
		return repairChecked([]byte(s), cfg, v, at, nil)
	}
	n := len(s)
	buf := make([]byte, n, n+outCap(n))
	copy(buf, s)
	return repairChecked(buf[:n:n], cfg, v, at, buf[n:n])
}

// repairChecked is Repair once validate has given input the verdict v
// (at: its offset). out, when not nil, is room for the scanner's output
// that nothing else uses.
func repairChecked(input []byte, cfg config, v verdict, at int, out []byte) Result {
	res := Result{Original: input}
	// Valid JSON nested past the limit is refused here; other text goes on
	// to the pipeline, whose scanner stops at the same bracket.
	switch v {
	case verdictTooDeep:
		if len(input) <= maxIterativeCheck && validJSON(input) {
			res.Err = tooDeep(at)
			return res
		}
	case verdictValid:
		if !isJSONString(input) {
			res.Output, res.Kept = input, input
			return res
		}
	case verdictDuplicates:
		if !isJSONString(input) {
			res.Output, res.Repairs = LastKeyWins(input)
			res.Kept = input
			res.Attempted = len(res.Repairs) > 0
			return res
		}
	}
	p := pipeline{cfg: cfg, out: out}
	switch v {
	case verdictTrailing:
		p.tail = at
	case verdictInvalid:
		p.fastFits = fastMayRead(input, at)
	}
	if cfg.timeout > 0 && len(input) >= clockFreeSize {
		p.deadline = readClock(cfg.now).Add(cfg.timeout)
	}
	out, repairs, err := p.repair(input, 0)
	if err != nil {
		res.Attempted = true
		res.Err = err
		return res
	}
	if sameSlice(out, p.unique) {
		res.Output, res.Repairs = out, repairs
		res.Kept = out
	} else {
		deduped, dupRepairs := LastKeyWins(out)
		res.Output, res.Kept = deduped, out
		res.Repairs = append(repairs, dupRepairs...)
	}
	res.Attempted = len(res.Repairs) > 0 || !bytes.Equal(out, input)
	return res
}

// sameSlice reports whether a and b are the same bytes in memory.
func sameSlice(a, b []byte) bool {
	return len(a) > 0 && len(a) == len(b) && &a[0] == &b[0]
}

func tooDeep(at int) *toolcall.Error {
	e := toolcall.NewError(toolcall.CodeTooDeep, "nesting deeper than the limit")
	e.Offset = at
	return e
}

// pipeline runs the stages on one input.
type pipeline struct {
	cfg      config
	deadline time.Time
	// unique is the last scanner output known to repeat no key in any
	// object, so that Repair need not look for duplicates in it again.
	unique []byte
	// out is room for the output of the first scanner run, or nil.
	out []byte
	// tail is where the validator found text after a whole value at the
	// start of the input, or 0.
	tail int
	// fastFits is false when the validator stopped, on the input of level
	// 0, at damage the fast path does not read: it is not tried then.
	fastFits bool
}

func (p *pipeline) expired() bool {
	return !p.deadline.IsZero() && readClock(p.cfg.now).After(p.deadline)
}

func timeoutError() *toolcall.Error {
	return toolcall.NewError(toolcall.CodeRepairTimeout, "repair ran past its time budget")
}

// repair runs the stages after the fast path. level counts the layers of
// double encoding already taken off.
func (p *pipeline) repair(input []byte, level int) ([]byte, []toolcall.Repair, *toolcall.Error) {
	// Repair has checked the input of level 0 already.
	if (level > 0 || isJSONString(input)) && validJSON(input) {
		if at := depthExceeded(input, p.cfg.maxDepth); at >= 0 {
			return nil, nil, tooDeep(at)
		}
		return p.finish(input, nil, level)
	}
	if p.expired() {
		return nil, nil, timeoutError()
	}
	if at := bytes.IndexByte(input, 0); at >= 0 {
		e := toolcall.NewError(toolcall.CodeRepairFailed, "NUL byte in the input: binary data, not JSON")
		e.Offset = at
		return nil, nil, e
	}
	// The one value a reply holds, past a BOM, a fence and prose, is
	// returned byte for byte when it is JSON. Text that starts with an
	// opener holds such a value only when the validator read one whole
	// there and stopped at the text after it (p.tail); no search is made
	// for it otherwise.
	var core coreText
	if level > 0 || !startsWithOpener(input) {
		core = extractCore(input)
	} else if p.tail > 0 {
		core = coreBefore(input, p.tail)
	}
	// A core that is the whole input is known to be invalid already.
	if core.text != nil && core.n > 0 && validJSON(core.text) {
		if at := depthExceeded(core.text, p.cfg.maxDepth); at >= 0 {
			return nil, nil, tooDeep(at + core.start)
		}
		return p.finish(core.text, core.repairs(), level)
	}
	if p.expired() {
		return nil, nil, timeoutError()
	}
	if doc, ok := unescapeDocument(input); ok && level < maxUnwrap {
		if out, reps, err := p.repair(doc, level+1); err == nil {
			return out, unwrapped(reps), nil
		}
	}
	s := getScannerInto(trimFinalBreak(input), 0, p.cfg, p.deadline, p.out)
	p.out = nil
	var out []byte
	taken, unique := false, false
	if level > 0 || p.fastFits {
		taken, unique = s.fast()
	}
	if taken {
		out = s.out
		if unique {
			// Valid, within the depth limit and with no repeated key by
			// construction: no check to make.
			repairs := s.rec.repairs()
			putScanner(s)
			p.unique = out
			return p.finish(out, repairs, level)
		}
	} else {
		var err *toolcall.Error
		if out, err, _ = s.run(); err != nil {
			putScanner(s)
			return nil, nil, err
		}
	}
	repairs := s.rec.repairs()
	putScanner(s)
	// A bug guard: the scanner is meant to write JSON, but fuzzing still
	// finds rare structures it writes wrong, and an error is better than
	// invalid JSON returned as a success. The same pass checks the depth,
	// as the scanner counts depth as it reads but the array it wraps
	// around concatenated values is added afterwards, one level above them
	// all, and tells whether any object repeats a key.
	if limit := p.cfg.maxDepth; limit > 0 && limit <= onePassDepth {
		switch v, _ := validate(out, limit); v {
		case verdictInvalid, verdictTrailing:
			return nil, nil, toolcall.NewError(toolcall.CodeRepairFailed, "repair did not produce valid JSON")
		case verdictTooDeep:
			return nil, nil, tooDeep(-1)
		case verdictValid:
			p.unique = out
		}
		return p.finish(out, repairs, level)
	}
	if !validJSON(out) {
		return nil, nil, toolcall.NewError(toolcall.CodeRepairFailed, "repair did not produce valid JSON")
	}
	if out[0] == '[' && depthExceeded(out, p.cfg.maxDepth) >= 0 {
		return nil, nil, tooDeep(-1)
	}
	return p.finish(out, repairs, level)
}

// trimFinalBreak drops the one line break at the very end of the input:
// the one a terminal or a file adds after the last line. After a whole
// value it is layout anyway; in a text that the end of the input cut off
// it is no content of the string, key or word the cut fell inside
// ({"path": "notes.txt⏎, {"a": 1, "b⏎, {"ok": t⏎).
func trimFinalBreak(b []byte) []byte {
	n := len(b)
	if n > 0 && b[n-1] == '\n' {
		n--
		if n > 0 && b[n-1] == '\r' {
			n--
		}
	}
	return b[:n]
}

// finish takes valid output and unwraps it when it is a JSON string whose
// content is a JSON object or array, so that repairing the output again
// changes nothing.
func (p *pipeline) finish(out []byte, repairs []toolcall.Repair, level int) ([]byte, []toolcall.Repair, *toolcall.Error) {
	if !isJSONString(out) || level >= maxUnwrap {
		return out, repairs, nil
	}
	var inner string
	if json.Unmarshal(out, &inner) != nil {
		return out, repairs, nil
	}
	content := bytes.TrimSpace([]byte(inner))
	if len(content) == 0 || content[0] != '{' && content[0] != '[' && content[0] != '"' {
		return out, repairs, nil
	}
	in, reps, err := p.repair(content, level+1)
	// A string inside a string is unwrapped only when an object or array
	// comes out in the end.
	if err != nil || guessed(reps) || isJSONString(in) {
		// Text that only looks like JSON stays the string it was: a
		// string is valid JSON, and reading it as a value must not guess.
		return out, repairs, nil
	}
	return in, append(repairs, unwrapped(reps)...), nil
}

// guessed reports whether any repair reinterpreted the text.
func guessed(reps []toolcall.Repair) bool {
	for _, r := range reps {
		if guessKind(r.Kind) && r.Kind != toolcall.RepairDoubleEncoded {
			return true
		}
	}
	return false
}

// unwrapped marks repairs made inside a decoded string: their offsets
// refer to the decoded text, so they are dropped, and the unwrapping
// itself is recorded first.
func unwrapped(reps []toolcall.Repair) []toolcall.Repair {
	out := make([]toolcall.Repair, 0, len(reps)+1)
	out = append(out, toolcall.Repair{Kind: toolcall.RepairDoubleEncoded, Offset: -1, CallIndex: -1})
	for _, r := range reps {
		r.Offset = -1
		out = append(out, r)
	}
	return out
}

// validJSON reports whether b is JSON as RFC 8259 has it, UTF-8 included.
// One pass of validate decides it for text nested up to onePassDepth; deeper
// text is checked by encoding/json, which keeps a word per level where
// validate keeps a frame: a megabyte of brackets costs it less.
func validJSON(b []byte) bool {
	switch v, _ := validate(b, onePassDepth); v {
	case verdictValid, verdictDuplicates:
		return true
	case verdictTooDeep:
		return json.Valid(b) && utf8.Valid(b)
	}
	return false
}

// onePassDepth is the deepest nesting validJSON checks in one pass.
const onePassDepth = 512

// Valid reports whether b is JSON as RFC 8259 has it, UTF-8 included,
// nested no deeper than 10 000 levels, the most encoding/json decodes. Use
// it rather than gjson.Valid on text a model wrote: gjson's validator
// recurses once per level of nesting, and a few megabytes of brackets
// overflow the goroutine stack, which is a fatal error no recover catches.
// Valid never recurses; it checks syntax and UTF-8 in one pass, faster than
// gjson.Valid, and hands text nested deeper than a few hundred levels to
// encoding/json.
func Valid(b []byte) bool { return validJSON(b) }

// ValidString is Valid for a string. It does not copy s.
func ValidString(s string) bool {
	return validJSON(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// maxIterativeCheck bounds the text whose validity is checked only to
// tell a too-deep error's code: encoding/json's stack costs a word per
// level, so past this size the pipeline's scanner, which stops at the
// depth limit, answers instead.
const maxIterativeCheck = 64 << 10

// Check reports whether input is strict JSON (RFC 8259, UTF-8 encoded)
// within the size and depth limits of opts, without repairing anything:
// nil, or TLP-009 (larger than MaxSize, checked before reading it),
// TLP-013 (nested deeper than MaxDepth, with the offset of the bracket) or
// TLP-002 (not valid JSON). Arguments are checked with it when repair is
// off. opts may be nil; its Timeout is not used, as the check is linear.
// A failure is a *toolcall.Error.
func Check(input []byte, opts *Options) error {
	_, e := check(input, opts)
	return coded.Err(e)
}

// CheckKeys is Check that also reports, for input that passes, whether
// some object in it repeats a key (the same single pass finds it): input
// that passes with unique true needs no LastKeyWins.
func CheckKeys(input []byte, opts *Options) (unique bool, err error) {
	v, e := check(input, opts)
	return e == nil && v == verdictValid, coded.Err(e)
}

// check is Check with the concrete error; it returns the validator's
// verdict too.
func check(input []byte, opts *Options) (verdict, *toolcall.Error) {
	cfg := opts.config()
	if cfg.maxSize > 0 && len(input) > cfg.maxSize {
		return verdictInvalid, toolcall.NewError(toolcall.CodeTooLarge,
			fmt.Sprintf("input of %d bytes is larger than the limit of %d bytes", len(input), cfg.maxSize))
	}
	switch v, at := validate(input, cfg.maxDepth); v {
	case verdictTooDeep:
		return v, tooDeep(at)
	case verdictInvalid, verdictTrailing:
		// Nesting past the limit is reported even in text that is not
		// JSON further on.
		if at := depthExceeded(input, cfg.maxDepth); at >= 0 {
			return verdictTooDeep, tooDeep(at)
		}
		return v, toolcall.NewError(toolcall.CodeInvalidJSON, "not valid JSON")
	default:
		return v, nil
	}
}

// isJSONString reports whether b, valid JSON, is a string.
func isJSONString(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return c == '"'
		}
	}
	return false
}

// unescapeDocument recognises a document whose quotes are all escaped,
// {\"a\": \"b\"}, as JSON written inside a string, and returns it with one
// layer of escaping taken off. The layer is taken off escape by escape, not
// by a JSON decoder: a value holding an escaped quote of its own was
// written \\\" by a careful model and \\" by a careless one, and both
// must come out as \" in the document.
func unescapeDocument(input []byte) ([]byte, bool) {
	escaped := 0
	for i := bytes.IndexByte(input, '"'); i >= 0; {
		if i == 0 || input[i-1] != '\\' {
			return nil, false
		}
		escaped++
		j := bytes.IndexByte(input[i+1:], '"')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if escaped < 2 {
		return nil, false
	}
	out := make([]byte, 0, len(input))
	for i := 0; i < len(input); i++ {
		c := input[i]
		if c != '\\' || i+1 >= len(input) {
			out = append(out, c)
			continue
		}
		switch e := input[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		default:
			// \uXXXX and unknown escapes stay as written: the document
			// reads them.
			out = append(out, c, e)
		}
		i++
	}
	if !utf8.Valid(out) {
		return nil, false
	}
	return out, true
}

// fastMayRead reports whether the fast path may read input, which the
// validator found is not JSON from offset at on: the first damage must be
// of a kind the fast path reads — a single quote, a letter (an unquoted
// key, True, False, None), a closer after a comma, or the end of the input
// after a whole token (containers left open). A string the validator
// refused (at is its quote), a number, a missing comma or colon, text
// after the value: the fast path would read up to there and give up.
func fastMayRead(input []byte, at int) bool {
	if at >= len(trimFinalBreak(input)) {
		return true
	}
	c := input[at]
	return c == '\'' || c == '}' || c == ']' || isLetter(c) || c == '_' || c == '$'
}

// startsWithOpener reports whether input, past ASCII whitespace, starts
// with '{' or '['.
func startsWithOpener(input []byte) bool {
	for _, c := range input {
		if !isSpace(c) {
			return c == '{' || c == '['
		}
	}
	return false
}

// depthExceeded returns the offset of the first bracket of valid JSON b
// nested deeper than limit, or -1. It counts brackets first: most
// documents have fewer than the limit in total. Then it walks the
// structure, skipping each string with a vectorised search for its
// closing quote.
func depthExceeded(b []byte, limit int) int {
	if limit <= 0 {
		return -1
	}
	if bytes.Count(b, []byte{'{'})+bytes.Count(b, []byte{'['}) <= limit {
		return -1
	}
	depth := 0
	for i := 0; i < len(b); i++ {
		switch structural[b[i]] {
		case 0:
		case '"':
			// Most strings are short keys: look at a few bytes inline before
			// paying for a call to the vectorised search, which reads
			// the string from its start once an escape shows.
			j, end := i+1, min(i+17, len(b))
			for j < end && b[j] != '"' && b[j] != '\\' {
				j++
			}
			if j < end && b[j] == '"' {
				i = j
				continue
			}
			i = jsonscan.StringEnd(b, i)
		case '{':
			depth++
			if depth > limit {
				return i
			}
		case '}':
			depth--
		}
	}
	return -1
}

// structural classes the bytes that matter to depthExceeded: '"', '{' for
// both openers and '}' for both closers; 0 for the rest.
var structural = func() (t [256]byte) {
	t['"'] = '"'
	t['{'], t['['] = '{', '{'
	t['}'], t[']'] = '}', '}'
	return t
}()
