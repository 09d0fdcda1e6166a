package fuzzcheck

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/jsonscan"
)

// Nothing disappears: every byte of an output ends up in the content, the
// reasoning, a call or the raw text of a coded error. Checked on outputs
// built from a dialect's own markers and prose words that occur nowhere
// else, each word must come back in one of those places.

// Word is the prose word number i of a built output: letters only, so that
// no syntax splits it, and unlike anything a marker holds.
func Word(i int) string {
	const letters = "bcdfghjklmnpqrstvwxz"
	var b strings.Builder
	b.WriteString("qv")
	for n := i + 1; n > 0; n /= len(letters) {
		b.WriteByte(letters[n%len(letters)])
	}
	return b.String()
}

// Built is an output made of markers and prose words.
type Built struct {
	Text  string
	Words []string
}

// Build writes a random output from markers, prose words and the
// punctuation that syntaxes are made of, for the coverage property.
func Build(r *rand.Rand, markers []string) Built {
	pieces := []string{" ", "\n", "{", "}", "[", "]", `"`, ":", ",", "(", ")", "=", "<", ">", "/", "\n\n", "```", "`"}
	var b Built
	var sb strings.Builder
	n := 2 + r.IntN(14)
	for i := 0; i < n; i++ {
		switch k := r.IntN(10); {
		case k < 3 && len(markers) > 0:
			sb.WriteString(markers[r.IntN(len(markers))])
		case k < 7:
			w := Word(len(b.Words))
			b.Words = append(b.Words, w)
			if sb.Len() > 0 && r.IntN(2) == 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(w)
		default:
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
	}
	b.Text = sb.String()
	return b
}

// CheckCoverage reports the first of words that res lost: a word found
// neither in the content, the reasoning, a call's name or arguments, nor
// an error's raw text or message.
func CheckCoverage(res *toolcall.Result, words []string) error {
	var all strings.Builder
	all.WriteString(res.Content)
	all.WriteByte(0)
	all.WriteString(res.Reasoning)
	for _, c := range res.Calls {
		all.WriteByte(0)
		all.WriteString(c.Name)
		all.WriteByte(0)
		all.Write(c.Arguments)
	}
	for _, e := range res.Errors {
		all.WriteByte(0)
		all.WriteString(e.Raw)
		all.WriteByte(0)
		all.WriteString(e.Message)
		all.WriteByte(0)
		all.WriteString(e.Tool)
	}
	got := all.String()
	for _, w := range words {
		if !strings.Contains(got, w) {
			return fmt.Errorf("the word %q is in no content, reasoning, call or error", w)
		}
	}
	return nil
}

// WordsOf lists the prose words (see Word) written in text: the maximal
// runs of letters that start with "qv" and hold only Word's letters. A
// fuzz input that holds one must give it back (CheckWords).
func WordsOf(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		if !isLetter(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isLetter(text[j]) {
			j++
		}
		if w := text[i:j]; len(w) > 2 && w[:2] == "qv" && strings.Trim(w[2:], "bcdfghjklmnpqrstvwxz") == "" {
			out = append(out, w)
		}
		i = j
	}
	return out
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// CheckWords is CheckCoverage for the words WordsOf finds in text. It
// holds every input of every fuzz target to the property: the seeds in
// go test, and the inputs a fuzzer generates.
func CheckWords(res *toolcall.Result, text string) error {
	if res == nil {
		return nil
	}
	if slices.ContainsFunc(res.Repairs, func(r toolcall.Repair) bool {
		return r.Kind == toolcall.RepairComment || r.Kind == toolcall.RepairCodeFence
	}) {
		// Repair removes comments and a fence's info word by rule, and
		// records it: their words are syntax, not text that vanished.
		text = string(jsonscan.WithoutRemovableSyntax([]byte(text)))
	}
	return CheckCoverage(res, WordsOf(text))
}
