// Package redact hides secrets in tool call arguments and in model text
// before they reach a log: values of keys that name a secret (password,
// token, api_key, …) and strings shaped like credentials (bearer tokens,
// sk-… keys, GitHub and Slack tokens, AWS key ids, JWTs, private keys).
package redact

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Redacted replaces a secret value.
const Redacted = "[REDACTED]"

// secretKeyWords mark a key whose value is a secret, matched in the key
// lower-cased with everything but letters and digits removed.
var secretKeyWords = []string{
	"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey",
	"privatekey", "authorization", "credential", "cookie", "sessionid", "bearer",
}

func secretKey(key string) bool {
	var b strings.Builder
	for _, r := range strings.ToLower(key) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	k := b.String()
	if k == "auth" || k == "pwd" || k == "pin" {
		return true
	}
	for _, w := range secretKeyWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// secretValues match secrets by their shape, wherever they appear.
var secretValues = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`(?i)\b(bearer|basic|token)\s+[A-Za-z0-9\-._~+/]{8,}=*`), "$1 " + Redacted},
	{regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{8,}`), Redacted},
	{regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{16,}`), Redacted},
	{regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), Redacted},
	{regexp.MustCompile(`\bAKIA[0-9A-Z]{16}\b`), Redacted},
	{regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}`), Redacted},
	{regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), Redacted},
	{regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z ]*PRIVATE KEY-----|$)`), Redacted},
}

// secretPairs match "key": value pairs (JSON, Python, YAML-ish, tagged
// parameters) whose key names a secret, in text that is not JSON.
var secretPairs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(["']?[A-Za-z0-9_.\-]*(?:password|passwd|passphrase|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|authorization|credential|cookie)[A-Za-z0-9_.\-]*["']?\s*[:=]\s*)("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|[^\s,;}\])]+)`),
	regexp.MustCompile(`(?is)(<(?:parameter|param|arg|argument)\b[^>]*(?:password|passwd|secret|token|key|authorization|credential)[^>]*>)(.*?)(</|$)`),
	regexp.MustCompile(`(?is)(<arg_key>[^<]*(?:password|passwd|secret|token|key|authorization|credential)[^<]*</arg_key>\s*<arg_value>)(.*?)(</arg_value>|$)`),
}

// JSON returns args with secret values replaced by "[REDACTED]": the value
// of every key that names a secret (password, token, api_key, secret,
// authorization, …), at any depth, and any string that looks like a
// credential (bearer tokens, sk-… keys, GitHub and Slack tokens, AWS key
// ids, JWTs, private keys). Keys and their order are kept. Text that is not
// JSON is redacted as text and returned as a JSON string.
func JSON(args json.RawMessage) json.RawMessage {
	if !gjson.ValidBytes(args) {
		return json.RawMessage(strconv.Quote(Text(string(args))))
	}
	var b bytes.Buffer
	redactValue(&b, gjson.ParseBytes(args), false)
	return b.Bytes()
}

func redactValue(b *bytes.Buffer, v gjson.Result, secret bool) {
	switch {
	case secret:
		b.WriteString(`"` + Redacted + `"`)
	case v.IsObject():
		b.WriteByte('{')
		first := true
		v.ForEach(func(k, val gjson.Result) bool {
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(k.Raw)
			b.WriteByte(':')
			redactValue(b, val, secretKey(k.String()))
			return true
		})
		b.WriteByte('}')
	case v.IsArray():
		b.WriteByte('[')
		for i, item := range v.Array() {
			if i > 0 {
				b.WriteByte(',')
			}
			redactValue(b, item, false)
		}
		b.WriteByte(']')
	case v.Type == gjson.String:
		s := v.String()
		if red := redactShapes(s); red != s {
			out, _ := json.Marshal(red)
			b.Write(out)
			return
		}
		b.WriteString(v.Raw)
	default:
		b.WriteString(v.Raw)
	}
}

func redactShapes(s string) string {
	for _, p := range secretValues {
		s = p.re.ReplaceAllString(s, p.repl)
	}
	return s
}

// Text redacts secrets in text that may not be JSON (a model's raw
// output, a server message): values of keys that name a secret, in JSON,
// Python, key=value or tagged-parameter syntax, and credential-shaped
// strings.
func Text(s string) string {
	for _, re := range secretPairs[:1] {
		s = re.ReplaceAllString(s, `${1}"`+Redacted+`"`)
	}
	for _, re := range secretPairs[1:] {
		s = re.ReplaceAllString(s, `${1}`+Redacted+`${3}`)
	}
	return redactShapes(s)
}
