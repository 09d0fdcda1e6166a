package tagged

import (
	"strings"

	"github.com/dialectkit/toolcall/internal/textlayer"
)

// normalizeFunc is a hook that rewrites the text before calls are read:
// when the text shows the need, or force says an earlier stretch of the
// output did. It returns the rewritten text and, for each of its bytes
// (and one past the end), the offset of the byte it came from, so that
// spans and offsets can be taken back to the text as written; ok is false
// when nothing changed.
type normalizeFunc func(text string, force bool) (norm string, back []int, ok bool)

// rewrite is one literal replaced by another.
type rewrite struct{ from, to string }

// cpmRewrites are MiniCPM 5's tokenizer artefacts as its reference parser
// undoes them: byte-level BPE symbols left in the decoded text (Ġ for a
// space, Ċ for a newline), and tags whose space was lost with them.
var cpmRewrites = []rewrite{
	{"<functionname=", "<function name="},
	{"<paramname=", "<param name="},
	{"Ġ", " "},
	{"Ċ", "\n"},
}

// cpmArtefacts are the signs that the markup itself carries tokenizer
// artefacts. Without one, or a Ġ or Ċ glued to the end of a word (see
// glued), Ġ and Ċ are letters (Maltese writes both) and stay as written.
var cpmArtefacts = []string{"<functionname=", "<paramname=", "<functionĠ", "<paramĠ", ">Ċ<", ">ĊĊ<"}

// normalizeMiniCPM undoes MiniCPM 5's tokenizer artefacts when its markup
// shows them (or force says the output did before).
func normalizeMiniCPM(text string, force bool) (string, []int, bool) {
	if !force && !containsAny(text, cpmArtefacts) && !glued(text) {
		return text, nil, false
	}
	return applyRewrites(text, cpmRewrites)
}

// glued reports whether a Ġ or Ċ stands right after a lower-case ASCII
// letter, a digit or punctuation that ends a word ("NewĠYork", "1.Ċ2"):
// there it cannot be a Maltese letter, which starts words or follows
// letters of its own script.
func glued(text string) bool {
	for _, sym := range []string{"Ġ", "Ċ"} {
		for i := strings.Index(text, sym); i >= 0; {
			if i > 0 {
				c := text[i-1]
				if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || textlayer.ClosingPunct(c) {
					return true
				}
			}
			j := strings.Index(text[i+len(sym):], sym)
			if j < 0 {
				break
			}
			i += len(sym) + j
		}
	}
	return false
}

// applyRewrites replaces every occurrence of each rewrite's literal, in one
// pass, earlier rewrites first at any position, and maps every output byte
// back to its source.
func applyRewrites(text string, rws []rewrite) (string, []int, bool) {
	var b strings.Builder
	b.Grow(len(text))
	back := make([]int, 0, len(text)+1)
	changed := false
	for i := 0; i < len(text); {
		matched := false
		for _, rw := range rws {
			if strings.HasPrefix(text[i:], rw.from) {
				b.WriteString(rw.to)
				for j := range len(rw.to) {
					back = append(back, i+min(j, len(rw.from)-1))
				}
				i += len(rw.from)
				matched, changed = true, true
				break
			}
		}
		if !matched {
			b.WriteByte(text[i])
			back = append(back, i)
			i++
		}
	}
	back = append(back, len(text))
	if !changed {
		return text, nil, false
	}
	return b.String(), back, true
}
