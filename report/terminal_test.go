package report

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A buffer or a regular file is no terminal: no colours, no progress bar.
func TestTerminal(t *testing.T) {
	var b bytes.Buffer
	assert.False(t, Terminal(&b))
	assert.False(t, Color(&b))
	assert.Nil(t, ProgressBar(&b, 10))
	f, err := os.Create(t.TempDir() + "/f")
	assert.NoError(t, err)
	defer f.Close()
	assert.False(t, Terminal(f))
	t.Setenv("NO_COLOR", "1")
	assert.False(t, Color(os.Stdout))
}
