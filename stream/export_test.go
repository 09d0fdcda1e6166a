package stream

// Diverged reports whether anything p streamed disagreed with its final
// result; the invariant tests require it never does.
func Diverged(p *Parser) string { return p.diverged }
