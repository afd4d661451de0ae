package main

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGlobalFlagsDoNotLeakBetweenRuns: the limits and --whitelist live in
// the globalFlags of one command line, so a run that sets them changes
// neither the next run in the same process nor one running beside it.
// sdf's kernel calls abs (refused by the whitelist max,min,length) and
// runs more than 3 interpreter steps per invocation.
func TestGlobalFlagsDoNotLeakBetweenRuns(t *testing.T) {
	sdf := repo("shaders/examples/sdf.wgsl")
	restricted := [][]string{
		{"exec", sdf, "--flat", "--no-gpu", "--whitelist", "max,min,length"},
		{"exec", sdf, "--no-gpu", "--max-steps", "3"},
	}
	plain := []string{"exec", sdf, "--flat", "--no-gpu"}
	for _, args := range restricted {
		code, _, errOut := gpudiff(t, args...)
		assert.NotEqual(t, 0, code, "%v: the restriction bites\n%s", args, errOut)
		code, _, errOut = gpudiff(t, plain...)
		assert.Equal(t, 0, code, "after %v, a plain run has the defaults again\n%s", args, errOut)
	}
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				codes[i], _, _ = gpudiff(t, restricted[0]...)
			} else {
				codes[i], _, _ = gpudiff(t, plain...)
			}
		}()
	}
	wg.Wait()
	for i, c := range codes {
		assert.Equal(t, i%2 == 0, c != 0, "concurrent run %d (restricted: %v) exited %d", i, i%2 == 0, c)
	}
}
