// Package coded moves between the error interface of the API and the
// *toolcall.Error the packages build, without the typed-nil trap.
package coded

import (
	"errors"

	"github.com/dialectkit/toolcall"
)

// As returns the *toolcall.Error in err's chain, or nil.
func As(err error) *toolcall.Error {
	// The common cases, no error and a *toolcall.Error itself, without
	// errors.As, whose target escapes: an allocation on every call.
	switch e := err.(type) {
	case nil:
		return nil
	case *toolcall.Error:
		return e
	}
	var e *toolcall.Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// Err returns e as an error: nil when e is nil, never an interface holding
// a nil pointer.
func Err(e *toolcall.Error) error {
	if e == nil {
		return nil
	}
	return e
}
