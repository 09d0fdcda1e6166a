// Package shown tells whether a place in a model's output is shown rather
// than written to be run: inside inline code, a quotation, or a fence that
// the prose before it presents as an example (ShownScan). Every family's
// engine and the detecting stream read it here, so a marker that one of
// them takes for a call is not text to another.
package shown
