package markers

import "github.com/dialectkit/toolcall/dialects"

// ReadCost is the number of bytes the readings of Reader r have read so
// far: the tests hold it to a small multiple of the output's length.
func ReadCost(r dialects.Reader) int { return r.(*reader).tried }
