package check

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEachCasePath: a failing entry point's case goes beside
// --save-case's path, named after it; a pass saves none.
func TestEachCasePath(t *testing.T) {
	assert.Equal(t, "out.sel.wgsl", EachCasePath("out.wgsl", "sel", ExitFound))
	assert.Equal(t, "d/out.sel.wgsl", EachCasePath("d/out", "sel", ExitShader))
	assert.Equal(t, "", EachCasePath("out.wgsl", "sel", ExitPass))
	assert.Equal(t, "", EachCasePath("", "sel", ExitFound))
}
