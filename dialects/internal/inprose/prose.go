// Package inprose holds the one rule for markup written as a word of a
// sentence: a marker or a special token that prose names, rather than
// uses, is text. The dialect engines ask it where a marker stands.
package inprose

import (
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/internal/coded"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// Mentioned reports whether the marker text[at:end], which opened only the
// calls given and all of them failed to read (none cut off by the end of
// the output), is a word of a sentence: a word and a blank stand right
// before it on its line, and a blank and a word right after it ("put the
// name between [TOOL_CALLS] and [ARGS]"). Engines keep such a marker as
// content, with no error to re-ask about; a call that reads stays a call
// wherever it stands, and one that follows its marker directly keeps its
// error.
func Mentioned(text string, at, end int, calls []dialects.RawCall) bool {
	if len(calls) == 0 {
		return false
	}
	for _, rc := range calls {
		e := coded.As(rc.Err)
		if e == nil || e.Code == toolcall.CodeTruncated || rc.AtEnd {
			return false
		}
	}
	return InSentence(text, at, end)
}

// InSentence reports whether text[at:end] stands inside a sentence on its
// line: a word and a blank right before it, a blank and a word right after
// it ("try it like [f(a=1)] to see"). It is the shape Mentioned checks for
// markers.
func InSentence(text string, at, end int) bool {
	j := at
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	return j < at && wordAround(text, j, end)
}

// wordAround reports whether text[j-1] ends a word and text[end:] starts
// with blanks and then a word: a marker standing between j and end, with
// blanks around it, is a word of a sentence ("between [TOOL_CALLS] and
// [ARGS]"), not the start of a call, which follows its marker with a name,
// a value or a line break. j is where the blanks before the marker start.
func wordAround(text string, j, end int) bool {
	if j == 0 || !textlayer.WordByte(text[j-1]) {
		return false
	}
	k := end
	for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	return k > end && k < len(text) && textlayer.WordByte(text[k])
}

// maxNamedGroup bounds the run of bytes TokenNamed reads around a token,
// so that a text of tokens written without blanks costs linear time.
const maxNamedGroup = 256

// TokenNamed reports whether the special token text[at:end] of a framing
// format (harmony's <|channel|>, glimmer's <|message|>) is named in prose
// rather than used: a word of a sentence, which the text keeps as written.
// It extends InSentence, the one rule for markers named in a sentence, to
// the ways prose names a format's tokens:
//   - the token, or the group of tokens and words written without blanks
//     that holds it when that group begins and ends with a token
//     ("<|channel|>final<|message|>"), stands in a sentence: before it, a
//     blank after a word or after list punctuation (',', ';', ':'); after
//     it, a blank and a word, list punctuation (',', ';') and a blank, or
//     closing punctuation ("…<|end|>, then", "… and <|eot|>.") followed by
//     a blank and a word or by the end of the line.
//
// Output that uses the tokens glues them to the message text around them
// (a group of it begins or ends with a word: "answer.<|end|><|start|>…")
// and follows a token with a name, a body or the next token, never with a
// blank and prose, nor with list punctuation.
//
// A token of a group is any special token written "<|name|>" (the group
// "<|start|>assistant<|channel|>final<|message|>Hi<|end|>" names harmony's
// format in any dialect's reading).
func TokenNamed(text string, at, end int) bool {
	if InSentence(text, at, end) || proseAround(text, at, end) {
		return true
	}
	// The group: the run of bytes with no blank around the token.
	gs := at
	for gs > 0 && at-gs < maxNamedGroup && !textlayer.IsSpace(text[gs-1]) {
		gs--
	}
	ge := end
	for ge < len(text) && ge-end < maxNamedGroup && !textlayer.IsSpace(text[ge]) {
		ge++
	}
	if gs > 0 && !textlayer.IsSpace(text[gs-1]) || ge < len(text) && !textlayer.IsSpace(text[ge]) {
		return false // longer than the bound: not a word of a sentence
	}
	for ge > end && textlayer.ClosingPunct(text[ge-1]) {
		ge--
	}
	if gs == at && ge == end {
		return false // the token alone: decided above
	}
	// It begins and ends with a token.
	lastEnd := -1
	for p := gs; p < ge; {
		if n := specialTokenAt(text, p); n > 0 {
			p += n
			lastEnd = p
			continue
		}
		if p == gs {
			return false
		}
		p++
	}
	return lastEnd == ge && proseAround(text, gs, ge)
}

// MayBeNamed reports whether the special token at text[at] may be named
// in prose (TokenNamed): the run of bytes with no blank that holds it,
// read back no further than TokenNamed reads, is preceded by a blank
// after a word or after list punctuation (',', ';', ':'). A reader that
// gets false needs to read no further to know the token is used; one
// that gets true asks TokenNamed once the text after the token is in.
func MayBeNamed(text string, at int) bool {
	gs := at
	for gs > 0 && at-gs < maxNamedGroup && !textlayer.IsSpace(text[gs-1]) {
		gs--
	}
	if gs == 0 || text[gs-1] != ' ' && text[gs-1] != '\t' {
		return false
	}
	j := gs - 1
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	if j == 0 {
		return false
	}
	c := text[j-1]
	return textlayer.WordByte(c) || c == ',' || c == ';' || c == ':'
}

// proseAround reports whether text[at:end] stands in prose as TokenNamed
// describes it: a blank after a word or list punctuation before it; after
// it, a blank and a word, list punctuation and a blank, or closing
// punctuation followed by a blank and a word or the end of the line.
func proseAround(text string, at, end int) bool {
	j := at
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	if j == at || j == 0 {
		return false
	}
	if c := text[j-1]; !textlayer.WordByte(c) && c != ',' && c != ';' && c != ':' {
		return false
	}
	if end+1 < len(text) && (text[end] == ',' || text[end] == ';') && (text[end+1] == ' ' || text[end+1] == '\t') {
		return true // an item of a list
	}
	k := end
	for k < len(text) && textlayer.ClosingPunct(text[k]) {
		k++
	}
	if k > end && textlayer.AtLineEnd(text, k) {
		return true
	}
	b := k
	for b < len(text) && (text[b] == ' ' || text[b] == '\t') {
		b++
	}
	return b > k && b < len(text) && textlayer.WordByte(text[b])
}

// specialTokenAt returns the length of the special token "<|name|>" at
// text[i:] (a name of ASCII letters, digits, '_', '-' and '.', at most 32
// bytes), or 0.
func specialTokenAt(text string, i int) int {
	if !strings.HasPrefix(text[i:], "<|") {
		return 0
	}
	for j := i + 2; j < len(text) && j-i <= 34; j++ {
		c := text[j]
		switch {
		case c == '|':
			if j > i+2 && j+1 < len(text) && text[j+1] == '>' {
				return j + 2 - i
			}
			return 0
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c == '.':
		default:
			return 0
		}
	}
	return 0
}
