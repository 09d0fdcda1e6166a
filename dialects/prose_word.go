package dialects

// WordAround reports whether text[j-1] ends a word and text[end:] starts
// with blanks and then a word: a marker standing between j and end, with
// blanks around it, is a word of a sentence ("between [TOOL_CALLS] and
// [ARGS]"), not the start of a call, which follows its marker with a name,
// a value or a line break. j is where the blanks before the marker start.
func WordAround(text string, j, end int) bool {
	if j == 0 || !proseWordByte(text[j-1]) {
		return false
	}
	k := end
	for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	return k > end && k < len(text) && proseWordByte(text[k])
}

// proseWordByte reports whether c is a letter or digit, or a byte of a
// non-ASCII character.
func proseWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
