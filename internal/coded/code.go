package coded

import "github.com/dialectkit/toolcall"

// Code returns the code of the *toolcall.Error in err's chain, or "" when
// there is none.
func Code(err error) toolcall.Code {
	if e := As(err); e != nil {
		return e.Code
	}
	return ""
}
