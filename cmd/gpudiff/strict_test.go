package main

import (
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
)

// TestStrictOnEveryTwinBuildingCommand: --strict is accepted wherever a
// twin is built, not only by flatten (issue 25), and means flatten's
// residual check (flatten.Options.Strict) there.
func TestStrictOnEveryTwinBuildingCommand(t *testing.T) {
	for name, mk := range map[string]func(*globalFlags) *cobra.Command{
		"exec": newExecCmd, "view": newViewCmd, "emit": newEmitCmd, "flatten": newFlattenCmd,
		"repro": newReproCmd, "export-amber": newAmberCmd, "drivers": newDriversCmd, "run": newRunCmd,
	} {
		g := &globalFlags{lim: check.DefaultLimits}
		cmd := mk(g)
		require.NoError(t, cmd.ParseFlags([]string{"--strict"}), name)
		assert.True(t, g.flattenOptions().Strict, name)
		g = &globalFlags{lim: check.DefaultLimits}
		require.NoError(t, mk(g).ParseFlags(nil), name)
		assert.False(t, g.flattenOptions().Strict, name)
	}
}

// TestRunStrictReachesTheCampaign: run --strict is journaled in the
// campaign's Spec, whose flatten.Options (Spec.Flatten) every program's
// twin is built with; a campaign without it journals none.
func TestRunStrictReachesTheCampaign(t *testing.T) {
	dir := t.TempDir()
	for _, strict := range []bool{true, false} {
		log := filepath.Join(dir, map[bool]string{true: "strict.jsonl", false: "plain.jsonl"}[strict])
		args := []string{"run", "--seed", "3", "--count", "2", "--no-gpu", "--size", "8", "--log", log, "--corpus", filepath.Join(dir, "cases")}
		if strict {
			args = append(args, "--strict")
		}
		code, out, errOut := gpudiff(t, args...)
		require.Contains(t, []int{0, 1}, code, "%s\n%s", out, errOut)
		h, _, _ := readJournal(t, log)
		assert.Equal(t, strict, h.Strict)
		assert.Equal(t, strict, h.Flatten().Strict)
	}
}
