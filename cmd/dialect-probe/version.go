package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// version describes the build: the module version ("(devel)" when built
// from a clone), the VCS revision and time it was built from (with
// "modified" when the work tree had changes), and the Go version.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information)"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var vcs []string
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		vcs = append(vcs, "revision "+rev)
	}
	if t := settings["vcs.time"]; t != "" {
		vcs = append(vcs, t)
	}
	if settings["vcs.modified"] == "true" {
		vcs = append(vcs, "modified")
	}
	if len(vcs) > 0 {
		v += " (" + strings.Join(vcs, ", ") + ")"
	}
	return fmt.Sprintf("%s %s", v, info.GoVersion)
}
