package main

import (
	"runtime/debug"
	"strings"
)

// buildVersion identifies the gpudiff build that made a report, case file,
// journal or Amber script: the module version when gpudiff was built from
// a tagged release (v1.2.3), else "devel"; then, when the
// build recorded its VCS state (go build in a git checkout stamps it),
// "+" and the first 12 hex digits of the commit, the commit time (UTC,
// RFC 3339) and " (modified)" when the work tree had uncommitted changes,
// e.g. "devel+ca78898c1234 2026-01-02T15:04:05Z (modified)". Everything
// that records a version calls this one function.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionOf(bi)
}

// versionOf is buildVersion for the build information bi.
func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, when string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	// Go stamps a build of an untagged commit with a pseudo-version
	// (v0.0.0-20260102150405-ca78898c1234+dirty) that repeats what follows.
	v = strings.TrimSuffix(v, "+dirty")
	if strings.Contains(v, rev) {
		v = "devel"
	}
	v += "+" + rev
	if when != "" {
		v += " " + when
	}
	if modified {
		v += " (modified)"
	}
	return v
}
