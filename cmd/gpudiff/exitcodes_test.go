package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
)

// TestWorstExit: the worst exit of several entry points ranks 3 > 1 > 4 >
// 2 > 0, and a signal's status outranks them all (README "Several entry
// points").
func TestWorstExit(t *testing.T) {
	worst := func(codes ...int) int {
		w := 0
		for _, c := range codes {
			w = worstExit(w, c)
		}
		return w
	}
	assert.Equal(t, 0, worst(0, 0))
	assert.Equal(t, 2, worst(0, 2, 0))
	assert.Equal(t, 4, worst(2, 4, 0))
	assert.Equal(t, 1, worst(2, 1, 4))
	assert.Equal(t, 3, worst(1, 3, 2))
	assert.Equal(t, 130, worst(3, 130))
}

// TestExitCodesTableIsTheREADMEs: the README's "Exit codes" table lists
// exactly the codes of exitCodes (and the signals' 130, 143), each of
// check's exit classes and each replay outcome has a code, and they are
// the codes the README gives them.
func TestExitCodesTableIsTheREADMEs(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, sec, ok := strings.Cut(string(data), "\n## Exit codes\n")
	require.True(t, ok, "README has an Exit codes section")
	sec, _, _ = strings.Cut(sec, "\n## ")
	var readme []int
	for _, m := range regexp.MustCompile(`(?m)^\| (\d+)(?:, (\d+))? \|`).FindAllStringSubmatch(sec, -1) {
		for _, s := range m[1:] {
			if s != "" {
				n, _ := strconv.Atoi(s)
				readme = append(readme, n)
			}
		}
	}
	var table []int
	for _, e := range exitCodes {
		table = append(table, e.code)
	}
	assert.Equal(t, append(table, exitInterrupted, 143), readme)
	for _, c := range []check.Exit{check.ExitPass, check.ExitFound, check.ExitFlatten, check.ExitNoOutputs, check.ExitShader} {
		_, ok := exitOfClass[c]
		assert.True(t, ok, "exit class %d has a code", c)
	}
	assert.Equal(t, map[string]int{check.ReplayFixed: 0, check.ReplayReproduces: 1, check.ReplayDifferent: 4}, exitOfReplay, "README: repro exits 0 fixed, 1 reproduces, 4 differently")
}
