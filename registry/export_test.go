package registry

// SetPrefilter turns detection's marker prefilter on or off, for the
// differential test; it returns the previous setting.
func SetPrefilter(on bool) bool {
	old := prefilter
	prefilter = on
	return old
}
