package stream

// OwnReader tells the tests whether the parser streams its dialect with
// the dialect's own Reader, which never reads the text again at Close.
func OwnReader(p *Parser) bool { return p.eng != nil }
