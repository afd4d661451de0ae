package ir

import (
	"math"
	"testing"
)

// The largest f32 prints as an exact hexadecimal literal: its shortest
// decimal, 3.4028235e+38, exceeds it, and Tint refuses that literal as
// not representable (a campaign's twin, whose subgroupMin identity is
// the largest f32, was refused on Dawn).
func TestFormatF32Largest(t *testing.T) {
	for _, c := range []struct {
		f    float32
		want string
	}{{math.MaxFloat32, "0x1.fffffep+127f"}, {-math.MaxFloat32, "-0x1.fffffep+127f"}, {1.5, "1.5f"}, {3.4028233e38, "3.4028233e+38f"}} {
		if got := FormatF32(c.f); got != c.want {
			t.Errorf("FormatF32(%g) = %s, want %s", c.f, got, c.want)
		}
	}
}
