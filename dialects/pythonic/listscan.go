package pythonic

// listScan reads the elements of a call list as its text arrives: the
// blanks between them, and each element, a callee name and its arguments
// or (objects) a call object, to the bracket that closes it (brackets). It
// is the family's one list reader: a list read whole (scanList), a call
// list in the answer text (list, readprose.go), a declared tool's call on
// its line (line), the calls of a block given before the block closes
// (seqScan.run) and the end of a block's list (seqScan) read their
// elements through it, and each decides what the bytes between elements
// mean (listEvent).
type listScan struct {
	i       int  // the next byte to read
	start   int  // the element being read starts here, -1 between elements
	nameEnd int  // and its name ends here, once its arguments are read
	sep     byte // in a name, its last byte when that is a '.' or '-' (nameStep)
	object  bool
	args    bool // in the element's brackets
	b       brackets
}

// listEvent is what listScan.next read.
type listEvent uint8

const (
	// leMore: the text so far is read (or a byte waits for the next).
	leMore listEvent = iota
	// leByte: a byte between elements that is neither a blank nor the
	// start of an element (a separator, a bracket, other text), at at,
	// not consumed: the caller passes it (skip) or stops.
	leByte
	// leStart: an element starts at at.
	leStart
	// leElem: the element [start, at) ended with its closing bracket.
	leElem
	// leNotCall: the name that starts at start is not a callee's (no '('
	// right after it); at is the byte after it.
	leNotCall
)

// newListScan returns a scan that starts reading at i.
func newListScan(i int) listScan { return listScan{i: i, start: -1} }

// skip passes the byte next returned as leByte.
func (s *listScan) skip() { s.i++ }

// inArgs reports whether an element left open stands in its arguments.
func (s *listScan) inArgs() bool { return s.start >= 0 && s.args }

// next reads on from where the scan stopped and returns what it read.
func (s *listScan) next(text string, objects, final bool) (ev listEvent, at int) {
	for s.i < len(text) {
		i := s.i
		c := text[i]
		switch {
		case s.args:
			if !s.b.feed(text, i, final) {
				return leMore, i
			}
			s.i++
			if s.b.closed() {
				s.args = false
				return leElem, s.i
			}
		case s.start >= 0: // in a callee name (readName, a byte at a time)
			if sep, ok := nameStep(s.sep, c, true); ok {
				s.sep = sep
				s.i++
				continue
			}
			if c != '(' || s.sep != 0 {
				return leNotCall, i
			}
			s.nameEnd, s.args, s.b = i, true, brackets{}
		case c == ' ' || c == '\t' || c == '\r':
			s.i++
		case c == '{' && objects:
			s.start, s.nameEnd, s.object, s.args, s.b = i, i, true, true, brackets{}
			return leStart, i
		case isIdentStart(c):
			s.start, s.object, s.sep = i, false, 0
			s.i++
			return leStart, i
		default:
			return leByte, i
		}
	}
	return leMore, s.i
}

// elem returns the element the scan is reading, or has read (leElem), as
// it stands when its text ends at end: complete when its brackets closed.
func (s *listScan) elem(end int) element {
	return element{start: s.start, end: end, nameEnd: s.nameEnd, object: s.object, complete: !s.args, depth: s.b.deepest}
}

// done ends the element that leElem reported: the scan is between
// elements again.
func (s *listScan) done() { s.start = -1 }
