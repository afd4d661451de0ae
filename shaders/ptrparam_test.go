package shaders

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// ptrViewsSrc passes views into variables (WGSL #function-calls; the
// unrestricted_pointer_parameters language feature, which Tint ships): an
// array element whose index calls idx (evaluated once, at the call: calls
// counts 2 for two pointer calls), passed on by bump2 to bump twice, a
// struct member, and an element of a private array.
const ptrViewsSrc = `struct Acc {
  sum: i32,
  n: u32,
}

var<private> calls: u32;
var<private> g: array<i32, 4>;

fn idx(i: u32) -> u32 {
  calls += 1u;
  return i;
}

fn bump(p: ptr<function, i32>) -> i32 {
  *p = *p + 10;
  return *p;
}

fn bump2(p: ptr<function, i32>) -> i32 {
  return bump(p) + bump(p);
}

fn addf(p: ptr<function, i32>, v: i32) {
  *p += v;
}

fn gp(p: ptr<private, i32>, v: i32) {
  *p = *p * v;
}

fn k(x: i32) -> i32 {
  var arr = array<i32, 3>(1, 2, 3);
  let r = bump2(&arr[idx(u32(x) % 3u)]);
  var acc: Acc;
  addf(&acc.sum, x);
  addf(&acc.sum, r);
  g[2] = 3;
  gp(&g[idx(2u)], x);
  return arr[0] * 1000000 + arr[1] * 10000 + arr[2] * 100 + acc.sum + g[2] * 7 + i32(calls) * 100000000;
}
`

// ptrIndexOnceSrc: the view &arr[j] is formed at the call, before f
// stores 2 into j through q, so *p = 7 lands in arr[0] (WGSL
// #function-calls: arguments are evaluated before the callee runs).
const ptrIndexOnceSrc = `fn f(p: ptr<function, i32>, q: ptr<function, u32>) {
  *q = 2u;
  *p = 7;
}

fn k(x: i32) -> i32 {
  var arr = array<i32, 3>(0, 0, 0);
  var j = 0u;
  f(&arr[j], &j);
  return arr[0] * 100 + arr[2] * 10 + i32(j) + x;
}
`

// TestPointerParameterViews runs kernels whose pointer arguments are views
// into variables against hand-derived results: the reference, the twin in
// the reference, the canonical printer's round trip, and spirv-val on the
// SPIR-V of original and twin.
//
// ptrViewsSrc, x = 1: idx(1) (calls 1) views arr[1] = 2; bump makes it 12
// and 22, r = 34; acc.sum = 1 + 34 = 35; idx(2) (calls 2) views g[2] = 3,
// times 1 is 3: 1e6 + 22e4 + 300 + 35 + 21 + 2e8 = 201220356. x = 5:
// arr[2] 3 → 23, r = 36, sum 41, g[2] 15: 1e6 + 2e4 + 2300 + 41 + 105 +
// 2e8 = 201022446. x = 3: arr[0] 1 → 21, r = 32, sum 35, g[2] 9: 21e6 +
// 2e4 + 300 + 35 + 63 + 2e8 = 221020398.
// ptrIndexOnceSrc: arr = [7, 0, 0], j = 2: 700 + 0 + 2 + x.
func TestPointerParameterViews(t *testing.T) {
	cases := []struct {
		name, src string
		xs, want  []int32
	}{
		{"views", ptrViewsSrc, []int32{1, 5, 3}, []int32{201220356, 201022446, 221020398}},
		{"index once", ptrIndexOnceSrc, []int32{0, 1}, []int32{702, 703}},
	}
	val, err := exec.LookPath("spirv-val")
	require.NoError(t, err, "spirv-val (spirv-tools) is needed")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := wgsl.Parse("p.wgsl", []byte(c.src))
			require.NoError(t, err)
			printed := ir.Print(m)
			again, err := wgsl.Parse("p2.wgsl", []byte(printed))
			require.NoError(t, err, printed)
			assert.Equal(t, printed, ir.Print(again), "the canonical printer round-trips")

			args := make([][]ir.Value, len(c.xs))
			for i, x := range c.xs {
				args[i] = []ir.Value{ir.I32Val(x)}
			}
			twin, err := flatten.Function(m, "k", flatten.Options{})
			require.NoError(t, err)
			for _, kernel := range []string{"k", twin.Name} {
				inv, err := interp.Run(m, kernel, args, interp.Options{})
				require.NoError(t, err)
				for i, w := range c.want {
					require.NoError(t, inv[i].Err)
					assert.Equal(t, w, inv[i].Outputs[0].Value.I32(), "%s(%d)", kernel, c.xs[i])
				}
				words, err := spirv.Emit(m, kernel, spirv.Options{})
				require.NoError(t, err)
				path := filepath.Join(t.TempDir(), kernel+".spv")
				require.NoError(t, os.WriteFile(path, unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), 4*len(words)), 0o644))
				out, err := exec.Command(val, "--target-env", "vulkan1.1", path).CombinedOutput()
				assert.NoError(t, err, "spirv-val %s: %s", kernel, out)
			}
		})
	}
}
