package spirv

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
)

// TestLaidOutTypesDecoratedOnce emits modules in which different WGSL
// types become one SPIR-V type in a buffer, or one type is laid out in
// several places, and requires spirv-val to accept them and every
// (target, member, decoration) to be decorated at most once. atomic<u32>,
// bool and u32 are each a u32 in a buffer, so array<atomic<u32>, N>,
// array<bool, N> (kernel ABI) and array<u32, N> are one OpTypeArray,
// which once carried one ArrayStride per WGSL type (spirv-val: "ID '3'
// decorated with ArrayStride multiple times is not allowed";
// shaders/compute/conformance_atomic_rmw_u32.wgsl). The cases also cover
// structs with atomic fields beside identical plain structs (Offsets),
// runtime-sized arrays, one type in both a uniform and a storage binding,
// matrix members (ColMajor, MatrixStride) and workgroup variables whose
// logical arrays must stay undecorated.
func TestLaidOutTypesDecoratedOnce(t *testing.T) {
	cases := []struct{ name, kernel, src string }{
		{"atomic array beside plain array", "main", `@group(0) @binding(0) var<storage,read_write> a: array<atomic<u32>,2>;
@group(0) @binding(1) var<storage,read_write> b: array<u32,2>;
@compute @workgroup_size(1) fn main() { b[0] = atomicLoad(&a[0]); }`},
		{"nested and runtime-sized atomic arrays", "main", `@group(0) @binding(0) var<storage, read_write> a: array<array<atomic<i32>, 2>, 3>;
@group(0) @binding(1) var<storage, read_write> b: array<array<i32, 2>, 3>;
@group(0) @binding(2) var<storage, read_write> ra: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> rb: array<u32>;
var<workgroup> w: array<atomic<u32>, 2>;
var<workgroup> wp: array<u32, 2>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) li: u32) {
  atomicAdd(&w[li], 1u);
  wp[li] = li;
  workgroupBarrier();
  b[li][1] = atomicMax(&a[li][0], b[li + 1u][0]) + i32(atomicLoad(&w[li]) + wp[1u - li]);
  rb[li] = atomicOr(&ra[li], rb[arrayLength(&rb) - 1u]) + arrayLength(&ra);
}`},
		{"struct with atomic fields beside identical plain struct", "main", `struct C {
  n: atomic<u32>,
  v: array<atomic<u32>, 4>,
  s: vec3<f32>,
}
struct P {
  n: u32,
  v: array<u32, 4>,
  s: vec3<f32>,
}
@group(0) @binding(0) var<storage, read_write> c: C;
@group(0) @binding(1) var<storage, read_write> p: P;
@group(0) @binding(2) var<storage, read_write> cs: array<C, 2>;
@group(0) @binding(3) var<storage, read_write> ps: array<P, 2>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) li: u32) {
  p.n = atomicAdd(&c.n, 1u) + atomicXor(&c.v[li], p.v[li]);
  ps[li].v[2] = atomicMin(&cs[li].v[3], ps[1u - li].n);
  ps[li].s = p.s + c.s + cs[li].s;
  p.v[3] = atomicExchange(&cs[li].n, p.v[0]);
}`},
		{"one type in uniform and storage bindings", "main", `struct U {
  a: array<vec3<f32>, 2>,
  m: mat4x4<f32>,
  x: vec4<f32>,
  b: array<vec4<u32>, 2>,
}
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> s: U;
@group(0) @binding(2) var<uniform> ua: array<vec3<f32>, 3>;
@group(0) @binding(3) var<storage, read_write> sa: array<vec3<f32>, 3>;
@group(0) @binding(4) var<storage, read_write> us: array<U, 2>;
@group(0) @binding(5) var<uniform> ub: array<vec4<u32>, 2>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) li: u32) {
  sa[li] = ua[li] + u.a[li] + s.a[li] + u.m[li].xyz + s.x.xyz;
  us[li] = u;
  us[1u - li].b[li] = s.b[li] + ub[li];
}`},
		{"matrix members in storage, uniform and arrays", "main", `struct M {
  m: mat3x3<f32>,
  n: array<mat2x4f, 2>,
  k: mat4x3<f32>,
}
struct N {
  m: mat3x3<f32>,
  n: array<mat2x4f, 2>,
  k: mat4x3<f32>,
}
@group(0) @binding(0) var<uniform> um: M;
@group(0) @binding(1) var<storage, read_write> sm: M;
@group(0) @binding(2) var<storage, read_write> sn: array<N, 2>;
@group(0) @binding(3) var<storage, read_write> a: array<mat3x2<f32>, 2>;
@group(0) @binding(4) var<storage, read_write> b: array<mat3x2<f32>, 2>;
@group(0) @binding(5) var<uniform> ua: array<mat2x4f, 2>;
@group(0) @binding(6) var<storage, read_write> ra: array<mat2x4f>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) li: u32) {
  sm = um;
  sn[li].m = um.m * sm.m;
  sn[li].n[1] = ua[li] + um.n[li] + ra[li];
  ra[li] = sn[1u - li].n[0];
  b[li] = a[li] * 2.0;
  sn[li].k = transpose(transpose(um.k)) * mat4x4<f32>();
}`},
		{"kernel with bool and u32 arrays", "k", `struct B {
  f: bool,
  v: array<vec2<bool>, 2>,
}
struct V {
  f: u32,
  v: array<vec2<u32>, 2>,
}
var<private> g: array<bool, 2>;
fn k(a: array<bool, 2>, b: array<u32, 2>, c: array<array<bool, 3>, 2>, d: array<array<u32, 3>, 2>, x: B, y: V, m: array<mat2x3f, 2>) -> array<u32, 2> {
  g = a;
  if (a[1] && c[1][2] && x.v[1].y && x.f) {
    return array<u32, 2>(b[0] + d[1][2] + y.v[0].x + y.f, u32(m[1][1].z));
  }
  return b;
}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := wgsl.Parse("layout.wgsl", []byte(c.src))
			require.NoError(t, err)
			for _, o := range bothModes {
				words := emitValid(t, m, c.kernel, o)
				dis, err := Disassemble(words)
				require.NoError(t, err)
				requireDecoratedOnce(t, dis)
			}
		})
	}
}

// requireDecoratedOnce fails when a disassembled module decorates one
// target (or one member of it) with one decoration more than once.
func requireDecoratedOnce(t *testing.T, dis string) {
	t.Helper()
	seen := map[string]bool{}
	for _, line := range strings.Split(dis, "\n") {
		f := strings.Fields(line)
		var key string
		switch {
		case len(f) >= 3 && f[0] == "OpDecorate":
			key = f[1] + " " + f[2]
		case len(f) >= 4 && f[0] == "OpMemberDecorate":
			key = f[1] + " " + f[2] + " " + f[3]
		default:
			continue
		}
		require.False(t, seen[key], "decorated twice: %s\n%s", line, dis)
		seen[key] = true
	}
}
