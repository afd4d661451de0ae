package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A buffer or a regular file is no terminal: no colours, no progress bar.
func TestTerminal(t *testing.T) {
	var b bytes.Buffer
	assert.False(t, terminal(&b))
	assert.False(t, colorOn(&b))
	assert.Nil(t, progressBar(&b, 10))
	f, err := os.Create(t.TempDir() + "/f")
	assert.NoError(t, err)
	defer f.Close()
	assert.False(t, terminal(f))
	t.Setenv("NO_COLOR", "1")
	assert.False(t, colorOn(os.Stdout))
}
