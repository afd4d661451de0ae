package spirv

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
)

// std140Shader copies every column of the matCx2 matrices of two uniform
// bindings — one bare, one a struct holding a matrix member, an array of
// matrices and an array of structs holding matrices — to a storage output,
// by constant and by dynamic (storage-read) indices, as whole matrices,
// single columns, single elements and whole structs, and through a
// ptr<uniform> parameter. WGSL offsets of U
// (#alignment-and-size, uniform constraints): a 0, m 8..32 (mat3x2: align
// 8, size 24), arr 32..64 (array<mat2x2f, 2>: align 16 in uniform, stride
// 16), s 64..160 (array<S, 2>, S: before 0, m 8..32, after 32, size 48).
const std140Shader = `struct S {
  before: f32,
  m: mat3x2f,
  @align(16) after: f32,
}
struct U {
  a: f32,
  m: mat3x2f,
  arr: array<mat2x2f, 2>,
  s: array<S, 2>,
}
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<uniform> bare: mat4x2f;
@group(0) @binding(2) var<storage, read> ix: array<u32, 4>;
@group(0) @binding(3) var<storage, read_write> o: array<vec2f, 24>;
@group(0) @binding(4) var<storage, read_write> e: array<f32, 4>;

fn col(p: ptr<uniform, mat3x2f>, j: u32) -> vec2f { return (*p)[j]; }

@compute @workgroup_size(1)
fn main() {
  o[0] = u.m[0];
  o[1] = u.m[1];
  o[2] = u.m[2];
  for (var j = 0u; j < 3u; j++) {
    o[3u + j] = u.m[ix[j]];
  }
  let p = &u.arr;
  o[6] = (*p)[0][1];
  o[7] = (*p)[ix[1]][ix[0]];
  let whole = u.arr[1];
  o[8] = whole[0];
  o[9] = whole[1];
  let s1 = u.s[1];
  o[10] = s1.m[0];
  o[11] = u.s[ix[0]].m[ix[2]];
  let all = u;
  o[12] = all.s[1].m[2];
  o[13] = vec2f(all.a, all.s[0].after);
  for (var j = 0u; j < 4u; j++) {
    o[14u + j] = bare[ix[j]];
  }
  o[18] = bare[3];
  let b = bare;
  o[19] = b[1];
  e[0] = u.m[2].y;
  e[1] = u.m[ix[1]][ix[1]];
  e[2] = bare[ix[3]].x;
  e[3] = u.s[1].m[1][0];
  o[20] = col(&u.s[1].m, ix[2]);
  o[21] = col(&u.m, 1u);
}`

// TestUniformMatCx2OnLavapipeAndSwiftShader runs std140Shader from
// gpudiff's SPIR-V (portable and raw; spirv-val clean) on lavapipe and
// SwiftShader with every f32 of both uniform buffers equal to its index
// (the float at byte 4k is k), and ix = 0, 1, 2, 3. So a column j of a
// matrix at byte offset off is (off/4 + 2j, off/4 + 2j + 1): u.m's
// columns (2, 3), (4, 5), (6, 7); u.arr[a][j] = (8 + 4a + 2j, 9 + 4a + 2j);
// u.s[k].m[j] = (18 + 12k + 2j, 19 + 12k + 2j), u.s[0].after = 24;
// bare[j] = (2j, 2j + 1). A matrix read with WGSL's 8-byte column stride
// into a 16-byte one (the layout Vulkan would otherwise force) reads
// other floats.
func TestUniformMatCx2OnLavapipeAndSwiftShader(t *testing.T) {
	m, err := wgsl.Parse("std140.wgsl", []byte(std140Shader))
	require.NoError(t, err)
	iota := func(n int) []byte {
		b := make([]byte, 4*n)
		for k := range n {
			binary.LittleEndian.PutUint32(b[4*k:], math.Float32bits(float32(k)))
		}
		return b
	}
	ix := make([]byte, 16)
	for k := range 4 {
		binary.LittleEndian.PutUint32(ix[4*k:], uint32(k))
	}
	col := func(off, j int) [2]float32 { return [2]float32{float32(off/4 + 2*j), float32(off/4 + 2*j + 1)} }
	um := func(j int) [2]float32 { return col(8, j) }
	arr := func(a, j int) [2]float32 { return col(32+16*a, j) }
	sm := func(k, j int) [2]float32 { return col(64+48*k+8, j) }
	bare := func(j int) [2]float32 { return col(0, j) }
	want := [][2]float32{
		um(0), um(1), um(2), um(0), um(1), um(2),
		arr(0, 1), arr(1, 0), arr(1, 0), arr(1, 1),
		sm(1, 0), sm(0, 2), sm(1, 2), {0, 24},
		bare(0), bare(1), bare(2), bare(3), bare(3), bare(1),
		sm(1, 2), um(1), {}, {},
	}
	wantE := []float32{um(2)[1], um(1)[1], bare(3)[0], sm(1, 1)[0]}

	for _, name := range []string{"vulkan:llvmpipe", "vulkan:swiftshader"} {
		dev := gpu(t)
		if name != "vulkan:llvmpipe" {
			var err error
			dev, err = harness.Open(name)
			require.NoError(t, err, "SwiftShader's Vulkan ICD is needed (make deps)")
			defer dev.Close()
		}
		for _, o := range bothModes {
			words := emitValid(t, m, "main", o)
			got, err := dev.Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: "main"}, harness.Dispatch{
				Buffers: []harness.BufferBinding{
					{Group: 0, Binding: 0, Kind: harness.BindingUniform, Data: iota(40)},
					{Group: 0, Binding: 1, Kind: harness.BindingUniform, Data: iota(8)},
					{Group: 0, Binding: 2, Kind: harness.BindingReadOnly, Data: ix},
					{Group: 0, Binding: 3, Kind: harness.BindingStorage, Data: make([]byte, 8*24)},
					{Group: 0, Binding: 4, Kind: harness.BindingStorage, Data: make([]byte, 16)},
				},
				Workgroups: [3]uint32{1, 1, 1},
			})
			require.NoError(t, err, "%s, %s", dev.Info().Name, o.Mode)
			require.Len(t, got, 8*24+16)
			f := func(k int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(got[4*k:])) }
			for i, w := range want {
				assert.Equal(t, w, [2]float32{f(2 * i), f(2*i + 1)}, "%s, %s: o[%d]", dev.Info().Name, o.Mode, i)
			}
			for i, w := range wantE {
				assert.Equal(t, w, f(48+i), "%s, %s: e[%d]", dev.Info().Name, o.Mode, i)
			}
		}
	}
}

// TestUniformMatCx2Layout checks the decorations of the split layout in
// the disassembly: U's Block (the first Block, binding 0) has members a,
// m_0, m_1, m_2, arr, s at Offsets 0, 8, 16, 24, 32, 64 (WGSL's offsets of
// a, of m's three columns, of arr and s), the mat2x2_f32_std140 struct
// arr holds has columns at 0 and 8, arr's ArrayStride is 16, and no member
// carries a MatrixStride (no matrix is left in U: Vulkan §15.6.4 forbids
// MatrixStride 8 in a Uniform Block, and a MatrixStride on a member that
// holds no matrix would be meaningless).
func TestUniformMatCx2Layout(t *testing.T) {
	m, err := wgsl.Parse("std140.wgsl", []byte(std140Shader))
	require.NoError(t, err)
	words := emitValid(t, m, "main", Options{})
	asm, err := Disassemble(words)
	require.NoError(t, err)
	assert.NotContains(t, asm, "MatrixStride")
	block := regexp.MustCompile(`OpDecorate (%\d+) Block`).FindStringSubmatch(asm)
	require.NotNil(t, block, asm)
	for i, off := range []int{0, 8, 16, 24, 32, 64} {
		assert.Contains(t, asm, fmt.Sprintf("OpMemberDecorate %s %d Offset %d\n", block[1], i, off))
	}
	assert.NotContains(t, asm, fmt.Sprintf("OpMemberDecorate %s 6 ", block[1]))
	arr := regexp.MustCompile(`(%\d+) = OpTypeStruct (%\d+) (%\d+) (%\d+) (%\d+) (%\d+) (%\d+)\n`).FindStringSubmatch(asm)
	require.NotNil(t, arr, asm)
	assert.Equal(t, arr[1], block[1])
	assert.Contains(t, asm, fmt.Sprintf("OpDecorate %s ArrayStride 16\n", arr[6]))
	elem := regexp.MustCompile(arr[6] + ` = OpTypeArray (%\d+) `).FindStringSubmatch(asm)
	require.NotNil(t, elem, asm)
	assert.Contains(t, asm, fmt.Sprintf("OpMemberDecorate %s 1 Offset 8\n", elem[1]))
}
