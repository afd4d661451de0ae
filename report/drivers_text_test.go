package report

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/drivers"
)

// TestDriversTextSaysWhenTwinsAreMissing: with --flat, a case whose twin
// flatten refused ran its original only, and the text says so in the
// header and beside "every adapter agrees" (issue 25: it claimed
// "original + twin … every adapter agrees").
func TestDriversTextSaysWhenTwinsAreMissing(t *testing.T) {
	rep := &drivers.Report{Flat: true, Mode: "portable", Cases: []*drivers.CaseResult{
		{Name: "a", Kernel: "a", FlattenError: "a.wgsl:2:10: flatten: builtin max is not in the whitelist\nsecond line"},
		{Name: "b", Kernel: "b"},
	}, Rules: []drivers.RuleSummary{{Rule: "r"}}}
	var b strings.Builder
	WriteDriversText(&b, rep, DriversTextOptions{})
	out := b.String()
	assert.Contains(t, out, "original + twin (no twin for 1 of 2 cases: flatten refused it; a: a.wgsl:2:10: flatten: builtin max is not in the whitelist …)")
	assert.Contains(t, out, "every adapter agrees on all 1 rules (originals only for the 1 cases whose twin flatten refused)")

	rep.Cases[0].FlattenError = ""
	b.Reset()
	WriteDriversText(&b, rep, DriversTextOptions{})
	assert.NotContains(t, b.String(), "no twin")
	assert.Contains(t, b.String(), "every adapter agrees on all 1 rules\n")
}
