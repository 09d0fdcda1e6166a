package stream

// Reused tells the tests whether Close read the regions the stream had
// already parsed as stand-ins rather than parsing them again; a dialect's
// own Reader reads each region once, by construction.
func Reused(p *Parser) bool { return p.old == nil || p.old.reused }

// Held tells the tests whether the parser stopped streaming and holds the
// rest of the output to the end.
func Held(p *Parser) bool { return p.old != nil && p.old.state == stHeld }

// StartSplits tells the tests whether the profile's start marker ends the
// call before it inside a section.
func StartSplits(p *Profile) bool { return p.startSplits }

// Settles tells the tests whether the profile settles the reasoning start
// on an output that opens with a start marker, '{' or '['.
func Settles(p *Profile) (start, brace, bracket bool) {
	return p.startSettles, p.bareSettles[0], p.bareSettles[1]
}

// OwnReader tells the tests whether the parser streams its dialect with
// the dialect's own Reader, which never reads the text again at Close.
func OwnReader(p *Parser) bool { return p.eng != nil }
