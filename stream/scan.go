package stream

import "strings"

// role says what a trigger means to the engine.
type role uint8

const (
	roleStart   role = iota + 1 // opens a call region
	roleEnd                     // closes a call region
	roleOpen                    // opens reasoning
	roleClose                   // closes reasoning
	roleToken                   // any other marker: hold output back
	roleBare                    // a byte that may begin an unmarked call
	roleStrip                   // a token the dialect deletes from the content
	roleCallEnd                 // ends one call inside a region: the calls before it are whole
)

// roles is a set of roles.
type roles uint16

func (rs roles) has(r role) bool { return rs&(1<<r) != 0 }

func rolesOf(rs ...role) roles {
	var s roles
	for _, r := range rs {
		s |= 1 << r
	}
	return s
}

// The role sets each state of the engine watches for.
var (
	wantMarked = rolesOf(roleStart, roleEnd, roleOpen, roleClose, roleToken, roleStrip)
	// Outside a region, a stray closing marker is held like a token: what
	// the dialect makes of it is settled at the end.
	wantLead    = rolesOf(roleStart, roleEnd, roleToken, roleBare, roleOpen, roleClose, roleStrip)
	wantReason  = rolesOf(roleOpen, roleClose, roleStart, roleEnd, roleToken, roleStrip)
	wantRegion  = rolesOf(roleEnd, roleStart, roleCallEnd)
	wantBetween = rolesOf(roleStart, roleEnd, roleToken, roleStrip)
)

// trigger is one marker the engine watches for.
type trigger struct {
	word string
	role role
	tag  int // the reasoning pair of an open or close trigger
	// exact says the word matches only as written: the dialect's parse
	// does not read it in another case.
	exact bool
	// cut says the word is the part of a marker before its first space
	// (a space in a dialect marker stands for optional whitespace): it
	// holds text back, but a match is not the whole marker.
	cut bool
	// strict says the word is compared byte for byte (equalWord).
	strict bool
}

// matcher finds triggers in text, comparing ASCII letters without regard to
// case (models vary the case of tags; matching more only holds back more).
// It looks at each byte once per call and compares marker text only at
// bytes that can begin a marker, so scanning a stream is linear in its
// length.
type matcher struct {
	triggers []trigger
	first    [256]bool // bytes that begin some trigger word
	bare     [256]bool // bytes that begin an unmarked call
	stop     [256]bool // first or bare: the bytes next looks at
	// byFirst holds, per byte, the triggers whose word begins with it in
	// either case, by their second byte, so that at compares only the few
	// that may match there.
	byFirst [256]*firstByte
}

// firstByte is the triggers whose word begins with one byte.
type firstByte struct {
	all []candidate // every one, for a text that ends after the byte
	// bySecond maps a second byte (in lower case) to the index in groups
	// of the words with that second byte, and the words of one byte.
	bySecond [256]uint8
	groups   [][]candidate // groups[0] holds the words of one byte only
}

// candidate is a trigger that may begin at a byte.
type candidate struct {
	role role
	k    uint16 // the trigger's index
}

func newMatcher(triggers []trigger, bare string) *matcher {
	m := &matcher{}
	for _, t := range triggers {
		// In dialect markers a space stands for optional whitespace: watch
		// for the part before it.
		if i := strings.IndexByte(t.word, ' '); i >= 0 {
			t.word, t.cut = t.word[:i], true
		}
		if t.word == "" {
			continue
		}
		t.strict = t.role == roleEnd || t.role == roleCallEnd || t.exact
		m.triggers = append(m.triggers, t)
		c := t.word[0]
		m.first[c], m.first[lower(c)], m.first[upper(c)] = true, true, true
		// (A closing marker's first byte in the other case is a harmless
		// extra candidate: equal rejects it.)
	}
	for k, t := range m.triggers {
		c := lower(t.word[0])
		f := m.byFirst[c]
		if f == nil {
			f = &firstByte{groups: [][]candidate{nil}}
			m.byFirst[c], m.byFirst[upper(c)] = f, f
		}
		cd := candidate{role: t.role, k: uint16(k)}
		f.all = append(f.all, cd)
		if len(t.word) == 1 {
			// A word of one byte is a candidate whatever follows it.
			for g := range f.groups {
				f.groups[g] = append(f.groups[g], cd)
			}
			continue
		}
		sc := lower(t.word[1])
		if f.bySecond[sc] == 0 {
			f.groups = append(f.groups, append([]candidate(nil), f.groups[0]...))
			f.bySecond[sc] = uint8(len(f.groups) - 1)
		}
		g := f.bySecond[sc]
		f.groups[g] = append(f.groups[g], cd)
	}
	for i := 0; i < len(bare); i++ {
		m.bare[bare[i]] = true
	}
	for c := range m.stop {
		m.stop[c] = m.first[c] || m.bare[c]
	}
	return m
}

// hit is what next found.
type hit struct {
	at int // where the trigger starts; -1 when nothing was found
	// partial says text[at:] is an unfinished prefix of a trigger: the text
	// from at on must wait for more input.
	partial bool
	t       trigger
}

// next finds the first trigger with a role in want that starts at or after
// from. When none is complete, it reports the first position from which the
// rest of text could still become one, or at = -1.
func (m *matcher) next(text string, from int, want roles) hit {
	for i := from; i < len(text); i++ {
		if !m.stop[text[i]] {
			continue
		}
		if h, ok := m.at(text, i, want); ok {
			return h
		}
	}
	return hit{at: -1}
}

// at reports the trigger with a role in want that starts at i: the longest
// complete one, unless a longer one may still complete there (then a
// partial hit: whatever starts later lies inside this unfinished prefix,
// and the longer trigger takes precedence).
func (m *matcher) at(text string, i int, want roles) (hit, bool) {
	c := text[i]
	if want.has(roleBare) && m.bare[c] {
		return hit{at: i, t: trigger{word: text[i : i+1], role: roleBare}}, true
	}
	f := m.byFirst[c]
	if f == nil {
		return hit{}, false
	}
	best, partial := -1, 0
	rest := text[i:]
	cands := f.all
	if len(rest) > 1 {
		// The second byte rules out most candidates at once (compared in
		// lower case: a strict word is compared exactly below).
		cands = f.groups[f.bySecond[lower(rest[1])]]
	}
	for _, cd := range cands {
		if !want.has(cd.role) {
			continue
		}
		k := int(cd.k)
		t := &m.triggers[k]
		switch n := len(t.word); {
		case len(rest) >= n:
			if equalWord(rest[:n], t.word, t) && (best < 0 || n > len(m.triggers[best].word) ||
				// A word that is also a plain token has its other role.
				n == len(m.triggers[best].word) && m.triggers[best].role == roleToken && t.role != roleToken) {
				best = k
			}
		case n > partial && equalWord(rest, t.word[:len(rest)], t):
			partial = n
		}
	}
	if best >= 0 && len(m.triggers[best].word) >= partial {
		return hit{at: i, t: m.triggers[best]}, true
	}
	if partial > 0 {
		return hit{at: i, partial: true}, true
	}
	return hit{}, false
}

// endPrefix reports whether s is a proper prefix of a marker that closes a
// call region.
func (m *matcher) endPrefix(s string) bool { return m.prefixOf(s, roleEnd) }

// startPrefix reports whether s is a proper prefix of a marker that opens a
// call region.
func (m *matcher) startPrefix(s string) bool { return m.prefixOf(s, roleStart) }

func (m *matcher) prefixOf(s string, r role) bool {
	for k := range m.triggers {
		t := &m.triggers[k]
		if t.role == r && len(s) < len(t.word) && equalWord(s, t.word[:len(s)], t) {
			return true
		}
	}
	return false
}

// equalWord compares text with word (a trigger t's word, or a prefix of
// it): exactly for a closing marker, whose case the dialect's own parse is
// strict about (closing a region early would cut a call in two), and with
// ASCII case folded for the others, which only hold text back.
func equalWord(text, word string, t *trigger) bool {
	// Most text writes a marker as the dialect does: compared whole first.
	return text == word || !t.strict && foldEqual(text, word)
}

// foldEqual compares a and b, equal in length, ignoring the case of ASCII
// letters only: multi-byte markers (DeepSeek's U+FF5C) compare byte for
// byte, also when a delta cut one in the middle.
func foldEqual(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] && lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}
