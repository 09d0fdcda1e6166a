package dialects

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/strictjson"
	"github.com/dialectkit/toolcall/internal/textlayer"
)

// ReasoningTags are the open and close markers of a reasoning wrapper.
type ReasoningTags struct{ Open, Close string }

// Think is the <think>…</think> wrapper used by Qwen3, DeepSeek-R1, GLM,
// MiniMax, Kimi-Thinking, Nemotron and others.
var Think = ReasoningTags{Open: "<think>", Close: "</think>"}

// ReasoningSplit says how SplitReasoning reads reasoning out of a text.
type ReasoningSplit struct {
	// Tags are the reasoning wrappers, the family's own first. A wrapper
	// with an empty tag is skipped; with none, nothing is reasoning.
	Tags []ReasoningTags
	// StartsOpen says the template opened a block of the first wrapper
	// (Options.ReasoningOpen): everything before its first closing tag is
	// reasoning, all the text when it never closes.
	StartsOpen bool
	// Implicit says a closing tag before any opening one of its kind ends
	// a block the template opened (ImplicitReasoning);
	// when false, such a tag is text.
	Implicit bool
}

// SplitReasoning separates reasoning from the rest of text, as s says.
//
// Every Open…Close block is reasoning; an Open never closed makes the rest
// of the text reasoning. Templates often open reasoning themselves, so the
// output holds only the closing tag: when s.StartsOpen is set (for the
// first wrapper), or when s.Implicit is and a Close appears before any Open
// of its kind, everything before that first Close is reasoning. With
// several wrappers, the implicit blocks are taken first, then the blocks
// of every wrapper in the order they stand in the text, so the reasoning
// reads as written; a wrapper inside another's block is text of it.
// Reasoning pieces are trimmed and concatenated; whitespace right after a
// removed block is dropped from the rest. With no block, rest is text
// itself, not a copy.
func SplitReasoning(text string, s ReasoningSplit) (reasoning, rest string) {
	tags, startsOpen, implicit := s.Tags, s.StartsOpen, s.Implicit
	var r strings.Builder
	for i, t := range tags {
		if t.Open == "" || t.Close == "" {
			continue
		}
		firstClose := strictjson.IndexTag(text, t.Close)
		firstOpen := strictjson.IndexTag(text, t.Open)
		if i == 0 && startsOpen || implicit && firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen) {
			if firstClose < 0 {
				r.WriteString(strings.TrimSpace(text))
				return r.String(), ""
			}
			r.WriteString(strings.TrimSpace(text[:firstClose]))
			text = strings.TrimLeft(text[firstClose+len(t.Close):], " \t\r\n")
		}
	}
	var c strings.Builder
	opened := false
	for {
		at, k := -1, -1
		for i, t := range tags {
			if t.Open == "" || t.Close == "" {
				continue
			}
			if j := strictjson.IndexTag(text, t.Open); j >= 0 && (at < 0 || j < at) {
				at, k = j, i
			}
		}
		if at < 0 {
			if !opened {
				return r.String(), text // no reasoning block: the rest as it is
			}
			c.WriteString(text)
			break
		}
		opened = true
		c.WriteString(text[:at])
		body := text[at+len(tags[k].Open):]
		j := strictjson.IndexTag(body, tags[k].Close)
		if j < 0 {
			r.WriteString(strings.TrimSpace(body))
			break
		}
		r.WriteString(strings.TrimSpace(body[:j]))
		text = strings.TrimLeft(body[j+len(tags[k].Close):], " \t\r\n")
	}
	return r.String(), c.String()
}

// TemplateBlockEnd returns where the reasoning block the template opened
// ends in text: just past the first closing tag, when startsOpen says the
// template opened a block of the first of tags (Options.ReasoningOpen), or
// when implicit says a closing tag before any opening one of its kind ends
// such a block (ImplicitReasoning); the same blocks SplitReasoning
// takes out. It returns 0 when there is none, and when no closing tag
// follows.
//
// This is the one rule for calls in such a block, which every engine that
// reads reasoning applies: everything before that first closing tag is
// reasoning, call markup included (a call drafted there is the model
// thinking, as in a block written with both tags); only in a block that
// never closes does a call end the reasoning and count.
func TemplateBlockEnd(text string, tags []ReasoningTags, startsOpen, implicit bool) int {
	end := 0
	for i, t := range tags {
		if t.Open == "" || t.Close == "" {
			continue
		}
		firstClose := strictjson.IndexTag(text, t.Close)
		if firstClose < 0 {
			continue
		}
		firstOpen := strictjson.IndexTag(text, t.Open)
		if i == 0 && startsOpen || implicit && (firstOpen < 0 || firstClose < firstOpen) {
			end = max(end, firstClose+len(t.Close))
		}
	}
	return end
}

// ImplicitReasoning reports whether, in text read by a dialect of syntax
// syn under opts, a closing reasoning tag before any opening one ends a
// block the template opened (ReasoningSplit.Implicit). ReasoningOpen says
// it does and ReasoningClosed that it does not. With neither, the start is
// settled outside reasoning when the dialect's family never opens a block
// (syn.ReasoningClosed), when text opens with a call (syn.Starts, or a '{'
// or '[' that syn.Bare lists): a model that reasons writes its reasoning
// first, so an output whose first bytes begin a call did not start inside
// a block; when it opens with a token that opens the answer (syn.Answer),
// for the same reason; or when the first reasoning tag in text, of any of
// the dialect's wrappers (firstTagOpens), is an opening one: the model
// opened a block of its own before closing any, so the template opened
// none, and a closing tag of another wrapper later on is text (Mistral's
// "<think>…</think> … [/THINK]"). Otherwise a closing tag decides.
//
// A caller with no text or no syntax to go by passes "" and nil: the
// options alone decide, and a closing tag ends a block unless
// ReasoningClosed says the template opened none. Dialects read their whole
// output's reasoning with this, and the stream engine learns it from them,
// so a stream and a one-shot parse settle the same question on the same
// bytes.
func ImplicitReasoning(text string, syn *Syntax, opts *Options) bool {
	switch {
	case opts != nil && opts.ReasoningOpen:
		return true
	case opts != nil && opts.ReasoningClosed:
		return false
	case syn == nil:
		return true
	case syn.ReasoningClosed:
		return false
	}
	return !textlayer.OpensCall(text, syn.Bare, syn.Starts) && !textlayer.OpensWith(text, syn.Answer) && !firstTagOpens(text, syn)
}

// firstTagOpens reports whether the first reasoning tag in text, of any
// of syn.Reasoning's wrappers or <think>…</think> (which every dialect
// reads), is an opening tag, in a dialect that reads two wrappers or more.
// (With one, a closing tag before any opening one of its own kind is what
// decides, as the dialect reads it.)
func firstTagOpens(text string, syn *Syntax) bool {
	own := false
	for _, t := range syn.Reasoning {
		own = own || t != Think && t.Open != "" && t.Close != ""
	}
	if !own {
		return false
	}
	first, opens := -1, false
	look := func(t ReasoningTags) {
		if t.Open == "" || t.Close == "" {
			return
		}
		if i := strictjson.IndexTag(text, t.Open); i >= 0 && (first < 0 || i < first) {
			first, opens = i, true
		}
		if i := strictjson.IndexTag(text, t.Close); i >= 0 && (first < 0 || i < first) {
			first, opens = i, false
		}
	}
	for _, t := range syn.Reasoning {
		look(t)
	}
	look(Think)
	return opens
}
