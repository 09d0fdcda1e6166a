package dialects

// proseWordByte reports whether c is a letter or digit, or a byte of a
// non-ASCII character.
func proseWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// atLineEnd reports whether only blanks stand between text[k:] and the
// end of its line.
func atLineEnd(text string, k int) bool {
	for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r') {
		k++
	}
	return k == len(text) || text[k] == '\n'
}

// isSpaceByte reports whether c is a space, a tab or a line break.
func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
