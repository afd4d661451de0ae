package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestVersionOfBuildInfo pins the version string's shape for each kind of
// build.
func TestVersionOfBuildInfo(t *testing.T) {
	vcs := func(rev, when, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: when}, {Key: "vcs.modified", Value: modified}}
	}
	rev := "ca78898d6171a415654c3e3f0dd16e3bdebe3640"
	for _, c := range []struct {
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		{"(devel)", nil, "devel"},
		{"", nil, "devel"},
		{"v1.2.0", nil, "v1.2.0"},
		{"(devel)", vcs(rev, "2026-01-02T15:04:05Z", "false"), "devel+ca78898d6171 2026-01-02T15:04:05Z"},
		{"v0.0.0-20260102150405-ca78898d6171+dirty", vcs(rev, "2026-01-02T15:04:05Z", "true"), "devel+ca78898d6171 2026-01-02T15:04:05Z (modified)"},
		{"v1.2.0", vcs(rev, "2026-01-02T15:04:05Z", "false"), "v1.2.0+ca78898d6171 2026-01-02T15:04:05Z"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/gpudiff/gpudiff", Version: c.main}, Settings: c.settings}
		assert.Equal(t, c.want, versionOf(bi), "%s %v", c.main, c.settings)
	}
}
