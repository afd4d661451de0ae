package main

import (
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStrictOnEveryTwinBuildingCommand: --strict is accepted wherever a
// twin is built, not only by flatten (issue 25), and means flatten's
// residual check (flatten.Options.Strict) there.
func TestStrictOnEveryTwinBuildingCommand(t *testing.T) {
	for name, mk := range map[string]func(*globalFlags) *cobra.Command{
		"exec": newExecCmd, "view": newViewCmd, "emit": newEmitCmd, "flatten": newFlattenCmd,
		"repro": newReproCmd, "export-amber": newAmberCmd, "drivers": newDriversCmd,
	} {
		g := &globalFlags{lim: defaultLimits}
		cmd := mk(g)
		require.NoError(t, cmd.ParseFlags([]string{"--strict"}), name)
		assert.True(t, g.flatOptions().Strict, name)
		g = &globalFlags{lim: defaultLimits}
		require.NoError(t, mk(g).ParseFlags(nil), name)
		assert.False(t, g.flatOptions().Strict, name)
	}
}
