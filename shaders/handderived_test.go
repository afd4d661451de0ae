package shaders

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// handDerived are example outputs worked out by hand from the kernels'
// source and the WGSL rules, a second derivation beside the native
// implementations: both must agree with NAME.expected.json.
var handDerived = []struct {
	example    string
	invocation int
	want       string // the reference element, JSON form
}{
	// shade(0.5): 0.5 > 0.5 is false, so x is returned.
	{"shade", 2, `0.5`},
	// shade(0.50000006): x = 0.5 + 2^-24 > 0.5, 2x = 1 + 2^-23, whose
	// shortest round-tripping decimal is 1.0000001.
	{"shade", 3, `1.0000001`},
	// shade(-0.0): not > 0.5, returned as is.
	{"shade", 10, `-0`},
	// pcg_hash(0): state = 2891336453 = 0xAC564B05; state >> 28 = 10, so
	// the shift is 14: 0xAC564B05 >> 14 = 0x2B159; xor = 0xAC54FA5C;
	// * 277803737 mod 2^32 = 0x07BB2FFC = 129708028; >> 22 = 30;
	// 129708028 ^ 30 = 129708002 (low bits 11100 ^ 11110 = 00010).
	{"pcg_hash", 0, `129708002`},
	// tonemap((64, 32, 16), 1): all <= 64 stay; luma = (2*64 + 5*32 + 16)/8
	// = 38; 64 | 32<<8 | 16<<16 | 38<<24 = 64 + 8192 + 1048576 + 637534208.
	{"tonemap", 1, `638591040`},
	// tonemap((4095, 4095, 4095), 1): shoulder = min(192 + 3647/8, 255)
	// = 255 per channel, luma = 8*255/8 = 255: every byte 0xFF.
	{"tonemap", 6, `4294967295`},
	// tonemap((13, 13, 13), -1): max(-13, 0) = 0 everywhere.
	{"tonemap", 15, `0`},
	// scene((8, 0)): box d = (0, 0) - (3, 2) = (-3, -2): length(0, 0) = 0
	// plus max(-3, -2) = -2; circle |(16, 0)| - 5 = 11; min = -2.
	{"sdf", 0, `-2`},
	// scene((14.5, 14)): box d = (6.5 - 3, 14 - 2) = (3.5, 12),
	// length = sqrt(12.25 + 144) = sqrt(156.25) = 12.5; circle
	// |(22.5, 14)| = sqrt(702.25) = 26.5, minus 5 = 21.5; min = 12.5.
	{"sdf", 8, `12.5`},
	// collatz(6): 6 3 10 5 16 8 4 2 1, 8 steps.
	{"collatz", 4, `8`},
	// collatz(27): the classic 111 steps (peak 9232).
	{"collatz", 7, `111`},
	// collatz(2^31): 31 halvings.
	{"collatz", 15, `31`},
	// collatz(0xAAAAAAAA): /2 = 0x55555555 (odd); 3n + 1 = 2^32 wraps to
	// 0 <= 1: 2 steps, and n = 0 is not > 1.
	{"collatz", 16, `2`},
	// bit_twiddle(0, 0): no bits; firstLeadingBit/firstTrailingBit of 0 are
	// 0xFFFFFFFF; insertBits(0, ~0, 0, 12) = 0xFFF; i32 firstLeadingBit(0)
	// = -1.
	{"bit_twiddle", 0, `[0, 0, 4294967295, 4294967295, 0, 4095, 0, 0, 0, 0, 4294967295, 0]`},
	// bit_twiddle(0x80000000, 31): off = 15; bits 15..22 are 0;
	// insertBits puts the low 12 bits of ~31 (0xFE0) at bit 15:
	// 0x80000000 | 0x07F00000 = 0x87F00000; rotl by 31 = x >> 1 =
	// 0x40000000; x >> 31 = 1, x << 31 = 0; INT_MIN >> 31 = -1; the most
	// significant bit differing from the sign of INT_MIN is 30.
	{"bit_twiddle", 3, `[1, 1, 31, 31, 0, 2280652800, 1073741824, 1, 0, 4294967295, 30, 0]`},
	// bit_twiddle(0x7FFFFFFF, 32): shift counts mod 32 make every shift by
	// 32 a shift by 0; off = 0: low byte 0xFF (i32: -1); insertBits of the
	// low 12 bits of ~32 (0xFDF) at 0: 0x7FFFFFDF.
	{"bit_twiddle", 6, `[31, 4294967294, 30, 0, 255, 2147483615, 2147483647, 2147483647, 2147483647, 2147483647, 30, 4294967295]`},
	// step_particle({(8, 1), (0, -4), 0, alive}): vel.y = -4 - 2 = -6;
	// pos = (8, 1 - 3) = (8, -2) is below the floor: pos.y = 1,
	// vel.y = 3, one bounce; still alive.
	{"particle", 2, `{"pos": [8, 1], "vel": [0, 3], "bounces": 1, "alive": true}`},
	// step_particle of a dead particle: unchanged.
	{"particle", 11, `{"pos": [4, 7], "vel": [1, 1], "bounces": 4, "alive": false}`},
	// tri_setup(0, x, y): n = x × y = z; d = -dot(z, 0) = -0 (WGSL lets
	// an implementation ignore the sign of a zero); area2 = 1*1 - 0*0.
	{"tri_setup", 0, `{"plane": [0, 0, 1, -0], "bbox_min": [0, 0, 0], "bbox_max": [1, 1, 0], "area2": 1, "front": true, "degenerate": false}`},
	// clip_class((0, 0), (639, 479)): both corners inside: 0.
	{"clip_class", 0, `0`},
	// clip_class((-1, -1), (-1, -1)): a point outside: 1.
	{"clip_class", 6, `1`},
	// clip_class((320, 240), (320, 240)): a point inside: 6.
	{"clip_class", 7, `6`},
	// clip_class((INT_MIN, INT_MAX), (0, 0)): codes 1|8 and 0 share no bit;
	// the outside endpoint is a, whose left bit wins: 2.
	{"clip_class", 10, `2`},
	// primes(10): 2, 3, 5, 7.
	{"primes", 7, `[4, 7]`},
	// primes(97): 97 is the 25th prime, where the budget stops the scan.
	{"primes", 15, `[25, 97]`},
	// lights((0, 1, 0)): n.l = 1, 1, -1: terms 1, 1, 0; 0.25 + 1*1 +
	// 1*0.5 = 1.75; two lights hit; strongest 1; ambient only read.
	{"lights", 0, `{"ret": 1.75, "lit_count": 2, "strongest": 1, "ambient": 0.25}`},
	// lights((-2, -4, 8)): n.l = -4, -6, 4 + 16 = 20: 0.25 + 20*0.25.
	{"lights", 15, `{"ret": 5.25, "lit_count": 1, "strongest": 20, "ambient": 0.25}`},
	// blend multiply(255, 255): (65025 + 127) / 255 = 255.
	{"blend", 2, `255`},
	// blend mode 9 (no case): default keeps dst.
	{"blend", 19, `42`},
	// blend multiply(0xFFFFFFFF, 0xFFFFFFFF): the product wraps to 1;
	// (1 + 127) / 255 = 0.
	{"blend", 24, `0`},
	// divmod(-7, 2): trunc -3 r -1; floored -4 r 1; as u32 0xFFFFFFF9 / 2
	// = 2147483644 r 1; gcd(7, 2) = 1.
	{"divmod", 1, `{"quot": -3, "rem": -1, "floor_quot": -4, "floor_mod": 1, "uquot": 2147483644, "urem": 1, "gcd": 1}`},
	// divmod(5, 0): x / 0 = x, x % 0 = 0 (so no floor adjustment); gcd(5, 0)
	// = 5.
	{"divmod", 5, `{"quot": 5, "rem": 0, "floor_quot": 5, "floor_mod": 0, "uquot": 5, "urem": 0, "gcd": 5}`},
	// divmod(INT_MIN, -1): INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0; as u32
	// 2^31 / (2^32 - 1) = 0 r 2^31; gcd(|INT_MIN| = 2^31, 1) = 1.
	{"divmod", 7, `{"quot": -2147483648, "rem": 0, "floor_quot": -2147483648, "floor_mod": 0, "uquot": 0, "urem": 2147483648, "gcd": 1}`},
	// gradient(0.5): x = 3.5, stop 3, f = 0.5, w = 0.25 * (3 - 1) = 0.5:
	// the midpoint of (0.875, 0.125, 0.5, 1) and (1, 0.375, 0.25, 1).
	{"gradient", 2, `{"out_color": [0.9375, 0.25, 0.375, 1], "out_stop": 3}`},
	// gradient(1e10): i32(7e10) saturates to 2147483520, clamped to 6;
	// f = clamp(7e10 - 6, 0, 1) = 1: the last stop.
	{"gradient", 15, `{"out_color": [1, 1, 1, 0.5], "out_stop": 6}`},
}

// TestExamplesHandDerived checks the hand-derived values against the
// golden files.
func TestExamplesHandDerived(t *testing.T) {
	for _, h := range handDerived {
		t.Run(fmt.Sprintf("%s/%d", h.example, h.invocation), func(t *testing.T) {
			nat := nativeFor(h.example)
			require.NotNil(t, nat)
			ex := loadExample(t, h.example, true)
			require.Less(t, h.invocation, len(ex.expected.Reference))
			got := ex.decodeReference(t, h.invocation, nat.outputs)
			want := expectedFile{Reference: []json.RawMessage{json.RawMessage(h.want)}}
			wantVals := example{name: "hand", expected: want}.decodeReference(t, 0, nat.outputs)
			for j, o := range nat.outputs {
				assert.True(t, ir.Equal(wantVals[j], got[j]), "output %s: hand-derived %s, golden %s",
					o.name, ir.MarshalValue(wantVals[j]), ir.MarshalValue(got[j]))
			}
		})
	}
}
