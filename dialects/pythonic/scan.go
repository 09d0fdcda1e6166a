package pythonic

import "github.com/dialectkit/toolcall/internal/textlayer"

// The scanner finds the extent of call expressions without parsing them, so
// that the grammar only ever sees text that is shaped like a call, one call
// at a time: a broken call then costs its own error and not its siblings.
// Every function here is a single forward pass.

// A callee name is Python identifiers joined by '.' (tools.lookup) or by
// '-' (list-files, as MCP tools are named): identStart, identByte and
// nameStep are the family's one rule for it, which readName applies to a
// whole text and listScan to a text that arrives in pieces. An argument's
// keyword is such a name without dots (readIdent), as the grammar's Ident.

// isIdentStart reports whether c may start an identifier: an ASCII letter
// or '_', as Python's.
func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// isIdentByte reports whether c may go on with an identifier.
func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// nameStep reads c, the next byte of a name whose last byte read was sep
// ('.' or '-' that must be followed by more of the name, 0 after an
// identifier's byte). It returns the new sep, and false when c does not go
// on with the name: the name then ends before sep.
func nameStep(sep, c byte, dots bool) (byte, bool) {
	switch {
	case sep == '.':
		return 0, isIdentStart(c)
	case isIdentByte(c):
		return 0, true
	case sep == 0 && (c == '-' || c == '.' && dots):
		return c, true
	}
	return sep, false
}

// readName returns the end of the callee name that starts at s[i], or i
// when none does.
func readName(s string, i int) int { return nameEnd(s, i, true) }

// readIdent returns the end of the keyword that starts at s[i], or i.
func readIdent(s string, i int) int { return nameEnd(s, i, false) }

// namePrefix reports whether s is the start of a callee name: a name cut
// anywhere, after a separator too ("tools.").
func namePrefix(s string) bool {
	n := readName(s, 0)
	rest := s[n:]
	return rest == "" || n > 0 && (rest == "." || rest == "-")
}

// nameEnd reads a name (dots: joined by '.' too) from s[i].
func nameEnd(s string, i int, dots bool) int {
	if i >= len(s) || !isIdentStart(s[i]) {
		return i
	}
	var sep byte
	j := i + 1
	for ; j < len(s); j++ {
		var ok bool
		if sep, ok = nameStep(sep, s[j], dots); !ok {
			break
		}
	}
	if sep != 0 {
		j--
	}
	return j
}

// callAt reports whether a call expression starts at s[i]: a name
// immediately followed by '('. It returns the name's end.
func callAt(s string, i int) (nameEnd int, ok bool) {
	ne := readName(s, i)
	return ne, ne > i && ne < len(s) && s[ne] == '('
}

// matchClose finds the bracket that closes the one at s[i] ('(', '[' or
// '{'), skipping strings, as brackets reads them. Any closer closes the
// innermost opener: the grammar reports mismatches later, with a
// position. It returns the index just past the close, whether one was
// found before the text ended, and the deepest nesting seen.
func matchClose(s string, i int) (end int, closed bool, maxDepth int) {
	var b brackets
	for j := i; j < len(s); j++ {
		b.feed(s, j, true)
		if b.closed() {
			return j + 1, true, b.deepest
		}
	}
	return len(s), false, b.deepest
}

// element is one item of a call list: a call expression name(...) or, where
// the dialect allows it, a call object {...}. Offsets are into the scanned
// string.
type element struct {
	start, end int
	nameEnd    int  // end of the callee name; == start for objects
	object     bool // a {...} call object rather than a call expression
	complete   bool // the closing bracket was found
	depth      int  // deepest bracket nesting inside the element
	noComma    bool // in a bracketed list, no comma separated it from the previous element
}

// list is what scanList found.
type list struct {
	elems []element
	// next is the index just past what the list consumed: the closing ']'
	// of a bracketed list, or the end of the last element of a bare one.
	next int
	// closed reports that a bracketed list found its ']'.
	closed bool
	// junk is the index of the first thing that is neither an element nor
	// a separator (or the list's end), -1 when there is none.
	junk int
}

// scanList reads call-list elements from s[i:], whole, with listScan. A
// bracketed list (i just past its '[') runs to its ']'; a bare list runs
// until something that is not an element. Elements are separated by
// commas, whitespace or, with semis, by semicolons (Llama 3's
// "{...}; {...}").
func scanList(s string, i int, bracketed, objects, semis bool) list {
	l := list{junk: -1}
	ls := newListScan(i)
	separated := true
	end := func(junk int) list {
		l.junk, l.next = junk, len(s)
		if junk >= 0 {
			l.next = junk
		}
		if !bracketed && len(l.elems) > 0 {
			l.next = l.elems[len(l.elems)-1].end
		}
		return l
	}
	add := func(el element) {
		el.noComma = bracketed && !separated && len(l.elems) > 0
		l.elems = append(l.elems, el)
		separated = false
	}
	for {
		ev, at := ls.next(s, objects, true)
		switch ev {
		case leMore:
			switch {
			case ls.inArgs():
				add(ls.elem(len(s))) // the text ends inside it
				return end(-1)
			case ls.start >= 0:
				return end(ls.start) // the text ends inside a name
			}
			return end(-1)
		case leNotCall:
			return end(ls.start)
		case leElem:
			add(ls.elem(at))
			ls.done()
		case leByte:
			switch c := s[at]; {
			case c == '\n':
			case c == ',' || semis && c == ';':
				separated = true
			case bracketed && c == ']':
				l.next, l.closed = at+1, true
				return l
			default:
				return end(at)
			}
			ls.skip()
		}
	}
}

// restOfLineBlank reports whether only blanks (textlayer.IsBlank) follow
// s[i] up to the end of its line.
func restOfLineBlank(s string, i int) bool {
	for ; i < len(s) && s[i] != '\n'; i++ {
		if !textlayer.IsBlank(s[i]) {
			return false
		}
	}
	return true
}
