package dialects

// A Peeker is a Reader that can tell, between two Writes, what Close would
// return if the output ended there, without ending it: detection decides
// the dialect of an output from its candidates' own readings of the output
// so far, and goes on reading with the Reader it chose.
//
// Peek returns the pieces Close would return now. The Reader is left as it
// was: what it returns to later Writes and to Close is what it would have
// returned had Peek not been called. The pieces Write returned so far and
// those Peek returns are the Extraction Read would give of the output so
// far. The slice Peek returns, and the calls it points to, may be reused
// by the Reader's next Write, Close or Peek. Peek costs about what Close
// would: the work on what the Reader holds, not on what it already
// decided.
type Peeker interface {
	Reader
	Peek() []Piece
}
