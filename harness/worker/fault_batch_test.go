package worker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFaultMatchesAnyLabelOfABatch: a dispatch whose label lists several
// programs' labels (a batch module) gets the fault of any of them.
func TestFaultMatchesAnyLabelOfABatch(t *testing.T) {
	faults, err := parseFaults("crash@p5/,hang@p9/kernel_flat/")
	require.NoError(t, err)
	cases := []struct {
		label string
		want  string
	}{
		{"p4/kernel/wgsl|p4/kernel_flat/wgsl|p5/kernel/wgsl", faultCrash},
		{"p5/kernel/spirv", faultCrash},
		{"p8/kernel/wgsl|p9/kernel_flat/wgsl", faultHang},
		{"p8/kernel/wgsl|p9/kernel/wgsl", ""},
		{"p15/kernel/wgsl|p55/kernel/wgsl", ""},
	}
	for _, c := range cases {
		f := matchFault(faults, c.label)
		if c.want == "" {
			assert.Nil(t, f, c.label)
			continue
		}
		if assert.NotNil(t, f, c.label) {
			assert.Equal(t, c.want, f.kind, c.label)
		}
	}
}
