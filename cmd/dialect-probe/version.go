package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// release is the version of dialectkit this source tree is: the next
// release with "-dev" while its changes are listed under "Unreleased" in
// CHANGELOG.md, the release itself in the tree that is tagged.
const release = "v0.1.0-dev"

// version describes the build: the release, the module version when the
// go command gave it another one (a pseudo-version or a tag), the VCS
// revision and time it was built from (with "modified" when the work tree
// had changes), and the Go version.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return release + " (no build information)"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	var detail []string
	if v := info.Main.Version; v != "" && v != "(devel)" && v != release {
		detail = append(detail, "module "+v)
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		detail = append(detail, "revision "+rev)
	}
	if t := settings["vcs.time"]; t != "" {
		detail = append(detail, t)
	}
	if settings["vcs.modified"] == "true" {
		detail = append(detail, "modified")
	}
	v := release
	if len(detail) > 0 {
		v += " (" + strings.Join(detail, ", ") + ")"
	}
	return fmt.Sprintf("%s %s", v, info.GoVersion)
}
