package retry

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/client"
	"github.com/dialectkit/toolcall/config"
	"github.com/dialectkit/toolcall/internal/editdist"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
)

// MaxExcerpt is the most characters of the model's bad output quoted back
// to it in a re-ask by default (max_reflected_excerpt), and of a server's
// message quoted in one.
const MaxExcerpt = 500

// placeholders of the retry prompt template. Each is replaced by plain text;
// the model's output is never interpreted as a template.
var placeholders = []string{
	"tool_name",      // the name the model called ("(no name)" when it gave none)
	"call_id",        // the id the re-ask answers
	"error_code",     // TLP-004
	"error_message",  // the error, without argument values
	"error_position", // "byte N" for syntax errors
	"field_path",     // JSON Pointer of the offending value
	"expected",       // what the schema expected there
	"actual",         // what the model gave
	"missing_fields", // required properties not given
	"violations",     // every schema violation, one per line, when more than one
	"valid_tools",    // the declared tool names, when the name was unknown
	"suggestion",     // the declared name closest to an unknown one
	"malformed_json", // a bounded excerpt of what the model wrote
	"schema_example", // a correct call in the model's own format
	"dialect",        // that format's name
	"format_note",    // a note when the model wrote another format than its own
	"attempt",        // the number of the attempt that failed
	"retries_left",   // how many re-asks remain after this one
}

// Reflection is what a re-ask sends back about one failed call.
type Reflection struct {
	// CallID is the id of the call the text answers; empty for a problem
	// that belongs to no call, which is sent as a user message.
	CallID string `json:"call_id,omitempty"`
	// Tool is the name the model called.
	Tool string `json:"tool,omitempty"`
	// Code is the error code reflected.
	Code toolcall.Code `json:"code"`
	// Text is the tool result (or user message) sent.
	Text string `json:"-"`
}

// ReflectionData are the values of the placeholders for one failed call.
type ReflectionData map[string]string

// reflectionData fills the placeholders for err. example and dialect are
// the formatted correct call and its format; drift names the format the
// model wrote when it is not its own.
func reflectionData(err *toolcall.Error, callID, example, dialect, drift string, attempt, left, excerpt int) ReflectionData {
	d := ReflectionData{
		"tool_name":     err.Tool,
		"call_id":       callID,
		"error_code":    string(err.Code),
		"error_message": err.Message,
		"field_path":    err.Path,
		"expected":      err.Expected,
		"actual":        err.Actual,
		"attempt":       strconv.Itoa(attempt),
		"retries_left":  strconv.Itoa(left),
	}
	if d["tool_name"] == "" {
		d["tool_name"] = "(no name)"
	}
	if d["error_message"] == "" {
		d["error_message"] = err.Code.Summary()
	}
	if err.Offset >= 0 && syntaxCode(err.Code) {
		d["error_position"] = "byte " + strconv.Itoa(err.Offset)
	}
	if len(err.Missing) > 0 {
		d["missing_fields"] = strings.Join(err.Missing, ", ")
	}
	if len(err.Violations) > 1 {
		lines := make([]string, 0, len(err.Violations))
		for i, v := range err.Violations {
			if i == 10 {
				lines = append(lines, "- and "+strconv.Itoa(len(err.Violations)-10)+" more")
				break
			}
			lines = append(lines, "- "+v.Message)
		}
		d["violations"] = strings.Join(lines, "\n")
	}
	if err.Code == toolcall.CodeUnknownTool && len(err.Known) > 0 {
		d["valid_tools"] = strings.Join(err.Known, ", ")
		d["suggestion"] = closestName(err.Tool, err.Known)
	}
	d["malformed_json"] = Excerpt(err.Raw, excerpt)
	if example != "" {
		d["schema_example"] = example
		d["dialect"] = dialect
		if drift != "" && drift != dialect {
			d["format_note"] = "You wrote the " + drift + " format; this model calls tools in the " + dialect + " format."
		}
	}
	return d
}

// syntaxCode reports codes whose offset points at a place in the text,
// rather than at the call as a whole.
func syntaxCode(c toolcall.Code) bool {
	switch c {
	case toolcall.CodeInvalidJSON, toolcall.CodeRepairFailed, toolcall.CodeMalformedCall, toolcall.CodeTooDeep:
		return true
	}
	return false
}

// RenderReflection replaces the placeholders ({tool_name}, …) of template
// with data. Replacement is plain text in one pass: a value holding
// "{tool_name}" stays as it is, and braces that are not a known placeholder
// (JSON in the template) are kept. A template line whose placeholders all
// have empty values is left out, so optional details take no room.
func RenderReflection(template string, data ReflectionData) string {
	lines := strings.Split(template, "\n")
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		rendered, used, filled := renderLine(line, data)
		if used > 0 && filled == 0 {
			continue
		}
		out = append(out, rendered)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// renderLine replaces the known placeholders of one line and counts them,
// and how many had a value.
func renderLine(line string, data ReflectionData) (string, int, int) {
	var b strings.Builder
	used, filled := 0, 0
	for {
		open := strings.IndexByte(line, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(line[open+1:], '}')
		if end < 0 {
			break
		}
		name := line[open+1 : open+1+end]
		if !isPlaceholder(name) {
			b.WriteString(line[:open+1])
			line = line[open+1:]
			continue
		}
		b.WriteString(line[:open])
		used++
		if v := data[name]; v != "" {
			filled++
			b.WriteString(v)
		}
		line = line[open+end+2:]
	}
	b.WriteString(line)
	return b.String(), used, filled
}

// Placeholders returns the names the retry prompt template may use, each
// written in braces: {tool_name}, {error_message}, …
func Placeholders() []string { return append([]string(nil), placeholders...) }

func isPlaceholder(name string) bool {
	for _, p := range placeholders {
		if p == name {
			return true
		}
	}
	return false
}

// Excerpt bounds s to at most limit characters (runes): longer text keeps
// its start and its end, where truncation and closing errors show, around
// a marker saying how much was left out.
func Excerpt(s string, limit int) string {
	n := utf8.RuneCountInString(s)
	if n <= limit {
		return s
	}
	marker := " …[" + strconv.Itoa(n) + " characters, middle omitted]… "
	keep := limit - utf8.RuneCountInString(marker)
	if keep < 2 {
		return string([]rune(s)[:limit])
	}
	runes := []rune(s)
	head := keep * 3 / 5
	tail := keep - head
	return string(runes[:head]) + marker + string(runes[n-tail:])
}

// closestName returns the declared name an unknown one most likely meant:
// one that contains it or is contained in it (models add prefixes such as
// "functions." or "tool:"), else the nearest by edit distance when it is
// close enough to be a typo.
func closestName(name string, known []string) string {
	lower := strings.ToLower(name)
	if lower == "" {
		return ""
	}
	best, bestDist := "", -1
	for _, k := range known {
		kl := strings.ToLower(k)
		if strings.Contains(lower, kl) || strings.Contains(kl, lower) {
			return k
		}
		if d := editdist.Distance(lower, kl); bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	if bestDist >= 0 && bestDist <= max(2, utf8.RuneCountInString(best)/3) {
		return best
	}
	return ""
}

// Fixed texts of the other re-asks.
const (
	// acceptedNote answers a valid call of a turn that also had failed
	// calls: it will run once the others are fixed.
	acceptedNote = "Accepted: this call is valid and will run together with the corrected calls. Do not repeat it."
	// noCallNote asks for a tool call when one was required.
	noCallNote = "Your answer did not call a tool. Call one of the declared tools: {valid_tools}."
	// shorterNote asks for a shorter answer after truncation.
	shorterNote = "Your previous answer was cut off at the output length limit before it was complete, so it was discarded. Answer again, more briefly: keep any text short and give each tool call complete, compact arguments."
	// rejectedNote tells the model the server refused the request.
	rejectedNote = "The server rejected the request that followed your last answer ({status}): {message}\nAnswer again. If you call a tool, use a declared tool name and a JSON object as arguments."
)

// reflect sends the failed calls of t back to the model as their tool
// results, answers the valid calls with a note that they will run, and
// keeps them for the final message. Problems that belong to no call go
// back as a user message. What is sent is bounded whatever the answer:
// at most max_reflected_calls failed calls (and loose problems) are
// reflected and as many valid calls echoed, the others counted in one
// note, and the answer's text is echoed up to max_reflected_content.
func (r *run) reflect(t *turn, att *Attempt) {
	left := r.cfg.MaxRetries - r.used.reflections
	limit := r.cfg.MaxReflectedCalls
	if limit <= 0 {
		limit = config.Default().MaxReflectedCalls
	}
	sent := client.Message{Role: "assistant", Content: clipContent(t.res.Content, r.cfg.MaxReflectedContent), Reasoning: clipContent(t.res.Reasoning, r.cfg.MaxReflectedContent)}
	kept := client.Message{Role: "assistant", Content: t.res.Content, Reasoning: t.res.Reasoning}
	var sentResults, keptResults, notes []client.Message
	var reflected, echoed, moreValid int
	var moreFailed []*toolcall.Error
	for i, c := range t.calls {
		e := t.errs[i]
		if e == nil {
			r.keep(t, c)
			if echoed >= limit {
				moreValid++
				continue
			}
			echoed++
			sent.ToolCalls = append(sent.ToolCalls, c)
			sentResults = append(sentResults, client.Message{Role: "tool", Content: acceptedNote, ToolCallID: c.ID, ToolName: c.Name})
			continue
		}
		if reflected >= limit {
			moreFailed = append(moreFailed, e)
			continue
		}
		reflected++
		text := r.reflectionText(e, c.ID, t, att.Number, left)
		msg := client.Message{Role: "tool", Content: text, ToolCallID: c.ID, ToolName: c.Name}
		asked := c
		if t.written[i] != nil {
			// The re-ask shows the call as the model made it; the
			// history keeps {} (see collect).
			asked.Arguments = t.written[i]
		}
		sent.ToolCalls = append(sent.ToolCalls, asked)
		kept.ToolCalls = append(kept.ToolCalls, c)
		sentResults = append(sentResults, msg)
		keptResults = append(keptResults, msg)
		att.Reflections = append(att.Reflections, Reflection{CallID: c.ID, Tool: e.Tool, Code: e.Code, Text: text})
	}
	for _, e := range t.loose {
		if reflected >= limit {
			moreFailed = append(moreFailed, e)
			continue
		}
		reflected++
		text := r.reflectionText(e, "", t, att.Number, left)
		if e.Code == toolcall.CodeMissingFunction && e.CallIndex < 0 && len(e.Known) > 0 {
			text = strings.ReplaceAll(noCallNote, "{valid_tools}", strings.Join(e.Known, ", "))
		}
		notes = append(notes, client.Message{Role: "user", Content: text})
		att.Reflections = append(att.Reflections, Reflection{Tool: e.Tool, Code: e.Code, Text: text})
	}
	if len(moreFailed) > 0 || moreValid > 0 {
		text := omittedNote(moreFailed, moreValid)
		notes = append(notes, client.Message{Role: "user", Content: text})
		code := toolcall.CodeRetriesExhausted
		if len(moreFailed) > 0 {
			code = moreFailed[0].Code
		}
		att.Reflections = append(att.Reflections, Reflection{Code: code, Text: text})
	}
	if len(sent.ToolCalls) > 0 || sent.Content != "" {
		r.sent = append(r.sent, sent)
	}
	r.sent = append(append(r.sent, sentResults...), notes...)
	if len(kept.ToolCalls) > 0 || kept.Content != "" {
		r.history = append(r.history, kept)
	}
	r.history = append(append(r.history, keptResults...), notes...)
}

// omittedNote counts the failed calls and valid calls a re-ask left out,
// with the codes of the failed ones, most frequent first.
func omittedNote(failed []*toolcall.Error, valid int) string {
	var b strings.Builder
	if len(failed) > 0 {
		counts := map[toolcall.Code]int{}
		var codes []toolcall.Code
		for _, e := range failed {
			if counts[e.Code] == 0 {
				codes = append(codes, e.Code)
			}
			counts[e.Code]++
		}
		slices.SortStableFunc(codes, func(a, b toolcall.Code) int { return counts[b] - counts[a] })
		parts := make([]string, 0, min(len(codes), 5))
		for _, c := range codes[:min(len(codes), 5)] {
			parts = append(parts, fmt.Sprintf("%d × %s (%s)", counts[c], c, c.Summary()))
		}
		if len(codes) > 5 {
			parts = append(parts, "…")
		}
		fmt.Fprintf(&b, "%d more calls of your answer failed and are not shown here: %s. Fix the calls above; make the others again only once they are correct.", len(failed), strings.Join(parts, ", "))
	}
	if valid > 0 {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%d more valid calls were accepted and will run: do not repeat them.", valid)
	}
	return b.String()
}

// clipContent cuts text echoed back in a re-ask to at most limit bytes
// (on a UTF-8 boundary), saying how much was left out.
func clipContent(text string, limit int) string {
	if limit < 0 || len(text) <= limit {
		return text
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + fmt.Sprintf("\n[… %d more bytes of this answer left out]", len(text)-cut)
}

// reflectionText renders the re-ask for one error.
func (r *run) reflectionText(e *toolcall.Error, callID string, t *turn, attempt, left int) string {
	dialect, drift := r.exampleDialect(t)
	example := ""
	if tool := r.exampleTool(e); tool != nil {
		args := ExampleArguments(tool, topKeys(e)...)
		example = formatCall(r.reg, dialect, tool.Name, args, t.sample)
	}
	label := dialect
	if label == NativeDialect {
		label = "a native tool call: name and JSON arguments"
	}
	data := reflectionData(e, callID, example, label, drift, attempt, left, r.cfg.MaxReflectedExcerpt)
	return RenderReflection(r.cfg.RetryPromptTemplate, data)
}

// exampleTool picks the tool a correct example should call: the one named,
// the declared name closest to an unknown one, or the only tool declared.
func (r *run) exampleTool(e *toolcall.Error) *schema.Tool {
	if r.tools == nil || r.tools.Len() == 0 {
		return nil
	}
	if tool, ok := r.tools.Lookup(e.Tool); ok {
		return tool
	}
	if name, ok := r.tools.LookupFold(e.Tool); ok {
		tool, _ := r.tools.Lookup(name)
		return tool
	}
	if s := closestName(e.Tool, r.tools.Names()); s != "" {
		tool, _ := r.tools.Lookup(s)
		return tool
	}
	if r.tools.Len() == 1 {
		tool, _ := r.tools.Lookup(r.tools.Names()[0])
		return tool
	}
	return nil
}

// topKeys are the top-level properties an error is about, so that the
// example shows them even when they are optional.
func topKeys(e *toolcall.Error) []string {
	var keys []string
	add := func(path string) {
		if path == "" || path[0] != '/' {
			return
		}
		k := path[1:]
		if i := strings.IndexByte(k, '/'); i >= 0 {
			k = k[:i]
		}
		keys = append(keys, strings.ReplaceAll(strings.ReplaceAll(k, "~1", "/"), "~0", "~"))
	}
	add(e.Path)
	for _, v := range e.Violations {
		add(v.Path)
	}
	return keys
}

// exampleDialect is the format the example is written in — the model's
// own: native calls, the dialect the caller named, the one the chat
// template names, else the one the model just wrote — and the format the
// model wrote when it differs.
func (r *run) exampleDialect(t *turn) (own, wrote string) {
	if t.native {
		return NativeDialect, ""
	}
	wrote = t.res.Dialect
	own = r.opts.Dialect
	if own == "" && r.opts.Template != "" {
		if !r.hintDone {
			r.hintDone = true
			r.hint = r.reg.Detect("", &registry.Options{Template: r.opts.Template}).Dialect
		}
		own = r.hint
	}
	if own == "" {
		own = wrote
	}
	if own == "" {
		own = "json"
	}
	return own, wrote
}
