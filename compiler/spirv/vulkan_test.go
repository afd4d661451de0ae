package spirv

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

var (
	vkrunOnce sync.Once
	vkrunPath string
	vkrunErr  string
)

// vkrun returns the path of testdata/vkrun/vkrun.c (a Vulkan compute
// runner of a few screens, outside gpudiff: it creates a device on
// lavapipe with shaderFloat16, the 16-bit storage features and
// shaderSubgroupExtendedTypes, binds raw buffers at set 0 and dispatches
// a SPIR-V module) built once against the Vulkan headers
// (GPUDIFF_VULKAN_INCLUDE, else the system's: libvulkan-dev) and the
// system's libvulkan.so.1; a test fails when that cannot be done, saying
// how to install what is missing (`make deps` installs libvulkan-dev).
// It runs what no stack gpudiff links reads from SPIR-V (NagaGap).
func vkrun(t *testing.T) string {
	t.Helper()
	vkrunOnce.Do(func() { vkrunPath, vkrunErr = buildVkrun() })
	if vkrunErr != "" {
		t.Fatalf("testdata/vkrun does not build: %s (the Vulkan headers come with `make deps`: apt-get install libvulkan-dev, or set GPUDIFF_VULKAN_INCLUDE)", vkrunErr)
	}
	return vkrunPath
}

// vkrunAvailable reports whether vkrun builds, without skipping.
func vkrunAvailable() bool {
	vkrunOnce.Do(func() { vkrunPath, vkrunErr = buildVkrun() })
	return vkrunErr == ""
}

func buildVkrun() (string, string) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		return "", "no C compiler for testdata/vkrun"
	}
	dir, err := os.MkdirTemp("", "vkrun")
	if err != nil {
		return "", err.Error()
	}
	out := filepath.Join(dir, "vkrun")
	args := []string{"-O1", "-o", out, "testdata/vkrun/vkrun.c"}
	if inc := os.Getenv("GPUDIFF_VULKAN_INCLUDE"); inc != "" {
		args = append(args, "-I", inc)
	}
	lib := "-lvulkan"
	for _, p := range []string{"/usr/lib/x86_64-linux-gnu/libvulkan.so.1", "/usr/lib/aarch64-linux-gnu/libvulkan.so.1"} {
		if _, err := os.Stat(p); err == nil {
			lib = p
		}
	}
	if msg, err := exec.Command(cc, append(args, lib)...).CombinedOutput(); err != nil {
		return "", fmt.Sprintf("testdata/vkrun does not build (Vulkan headers: libvulkan-dev, or GPUDIFF_VULKAN_INCLUDE): %s", msg)
	}
	return out, ""
}

// vkRunBindings runs words' entry point through vkrun with harness-style
// bindings (all in group 0; a binding number no buffer has gets a small
// unused one) and returns the BindingStorage buffers' final bytes
// concatenated in bufs order, as harness.Device.Run does.
func vkRunBindings(t *testing.T, words []uint32, entry string, wg [3]uint32, bufs []harness.BufferBinding) []byte {
	t.Helper()
	n := 0
	for _, b := range bufs {
		require.Zero(t, b.Group, "vkrun binds group 0 only")
		n = max(n, int(b.Binding)+1)
	}
	vb := make([]vkBuffer, n)
	for i := range vb {
		vb[i].data = make([]byte, 4)
	}
	for _, b := range bufs {
		vb[b.Binding] = vkBuffer{uniform: b.Kind == harness.BindingUniform, data: b.Data}
	}
	res := vkRun(t, vkrun(t), words, entry, wg, vb)
	var out []byte
	for _, b := range bufs {
		if b.Kind == harness.BindingStorage {
			out = append(out, res[b.Binding]...)
		}
	}
	return out
}

// vkBuffer is one binding of a vkRun dispatch.
type vkBuffer struct {
	uniform bool
	data    []byte
}

// vkDriver is a lavapipe build and configuration vkrun can use: the
// system's Mesa, and Mesa 25 where `make mesa25` unpacked it
// (build/mesa25, harness.DriverSets' "mesa25"), each also at
// LP_NATIVE_VECTOR_WIDTH 128 and 512 — subgroup sizes 4 and 16 beside
// the default 8 (with the shader cache off: Mesa 25.0.7's disk cache
// ignores the width, harness/dawn).
type vkDriver struct {
	name string
	env  []string
}

func vkDrivers() []vkDriver {
	sets := []vkDriver{{name: "system lavapipe"}}
	if root, err := filepath.Abs("../../build/mesa25"); err == nil {
		if _, err := os.Stat(filepath.Join(root, "VERSION")); err == nil {
			icd := filepath.Join(root, "lvp_icd.json")
			sets = append(sets, vkDriver{"lavapipe Mesa 25", []string{"LD_LIBRARY_PATH=" + filepath.Join(root, "root/usr/lib/x86_64-linux-gnu"),
				"VK_ICD_FILENAMES=" + icd, "VK_DRIVER_FILES=" + icd, "VK_ADD_DRIVER_FILES="}})
		}
	}
	var out []vkDriver
	for _, d := range sets {
		out = append(out, d)
		for _, w := range []string{"128", "512"} {
			out = append(out, vkDriver{d.name + " lp" + w, append(append([]string(nil), d.env...), "LP_NATIVE_VECTOR_WIDTH="+w, "MESA_SHADER_CACHE_DISABLE=true")})
		}
	}
	return out
}

// vkRun dispatches entry of the SPIR-V words on lavapipe through
// testdata/vkrun, with bufs at set 0, bindings 0…, and returns each
// storage buffer's contents after it (nil for uniforms).
func vkRun(t *testing.T, runner string, words []uint32, entry string, wg [3]uint32, bufs []vkBuffer) [][]byte {
	t.Helper()
	out, msg, err := vkRunOn(t, runner, vkDriver{}, words, entry, wg, bufs)
	require.NoError(t, err, "vkrun: %s", msg)
	return out
}

// vkRunOn is vkRun on driver d; it returns vkrun's output and error
// instead of failing (a driver that aborts compiling the module).
func vkRunOn(t *testing.T, runner string, d vkDriver, words []uint32, entry string, wg [3]uint32, bufs []vkBuffer) ([][]byte, string, error) {
	t.Helper()
	dir := t.TempDir()
	var spv bytes.Buffer
	require.NoError(t, binary.Write(&spv, binary.LittleEndian, words))
	mod := filepath.Join(dir, "m.spv")
	require.NoError(t, os.WriteFile(mod, spv.Bytes(), 0o644))
	args := []string{mod, entry, strconv.Itoa(int(wg[0])), strconv.Itoa(int(wg[1])), strconv.Itoa(int(wg[2]))}
	for i, b := range bufs {
		p := filepath.Join(dir, "b"+strconv.Itoa(i))
		require.NoError(t, os.WriteFile(p, b.data, 0o644))
		if b.uniform {
			p = "u:" + p
		}
		args = append(args, p)
	}
	cmd := exec.Command(runner, args...)
	cmd.Env = append(os.Environ(), d.env...)
	msg, err := cmd.CombinedOutput()
	if err != nil && bytes.Contains(msg, []byte("no llvmpipe")) {
		t.Skip("no lavapipe Vulkan device")
	}
	if err != nil {
		return nil, string(msg), err
	}
	out := make([][]byte, len(bufs))
	for i, b := range bufs {
		if !b.uniform {
			out[i], err = os.ReadFile(filepath.Join(dir, "b"+strconv.Itoa(i)+".out"))
			require.NoError(t, err)
		}
	}
	return out, string(msg), nil
}

// subgroupVulkanWGSL computes, per invocation of one workgroup of 32,
// every subgroup and quad builtin on values derived from
// local_invocation_index li (v = li + 1), with the invocation's
// subgroup_invocation_id and subgroup_size, so the expectations follow
// from the partition the run used (as the WebGPU CTS does).
const subgroupVulkanWGSL = `enable f16;
enable subgroups;
diagnostic(off, subgroup_uniformity);
struct R {
  sid: u32, n: u32, add: u32, excl: u32, imul: u32, elect: u32, bcast: u32, first: u32,
  shuf: u32, xor1: u32, up1: u32, down2: u32, qx: u32, qy: u32, qd: u32, qb: u32,
  all_: u32, any_: u32, and_: u32, or_: u32, xor_: u32, smin: i32, fmax: f32, div: u32,
  ballot: vec4<u32>,
}
@group(0) @binding(0) var<storage, read_write> out: array<R, 32>;
@group(0) @binding(1) var<storage, read_write> hout: array<vec4<f16>, 32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32, @builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) n: u32) {
  let v = li + 1u;
  var r: R;
  r.sid = sid;
  r.n = n;
  r.add = subgroupAdd(v);
  r.excl = subgroupExclusiveAdd(v);
  r.imul = subgroupInclusiveMul(2u);
  r.elect = u32(subgroupElect());
  r.bcast = subgroupBroadcast(v, 3u);
  r.first = subgroupBroadcastFirst(v);
  r.shuf = subgroupShuffle(v, (sid + 5u) % n);
  r.xor1 = subgroupShuffleXor(v, 1u);
  r.up1 = subgroupShuffleUp(v, 1u);
  r.down2 = subgroupShuffleDown(v, 2u);
  r.qx = quadSwapX(v);
  r.qy = quadSwapY(v);
  r.qd = quadSwapDiagonal(v);
  r.qb = quadBroadcast(v, 2u);
  r.all_ = u32(subgroupAll(v > 0u));
  r.any_ = u32(subgroupAny(li == 5u));
  r.and_ = subgroupAnd(~(1u << sid));
  r.or_ = subgroupOr(1u << sid);
  r.xor_ = subgroupXor(v);
  r.smin = subgroupMin(i32(li) - 10);
  r.fmax = subgroupMax(f32(li) * 0.5);
  if ((li & 1u) == 0u) {
    r.div = subgroupAdd(1u);
  } else {
    r.div = subgroupAdd(10u);
  }
  r.ballot = subgroupBallot(li % 3u == 0u);
  out[li] = r;
  let h = f16(li) * 0.25h;
  hout[li] = vec4<f16>(subgroupAdd(h), subgroupMax(h), h * 1.5h, f16(i32(h * 4.0h)));
}
`

// TestSubgroupAndF16OnVulkan runs gpudiff's SPIR-V of subgroupVulkanWGSL
// on lavapipe through Vulkan directly (testdata/vkrun: no stack gpudiff
// links reads subgroups or f16 from SPIR-V, NagaGap), in both modes, and
// checks every result against its hand derivation from the observed
// partition: invocations with equal li - sid form one subgroup (of n
// lanes, all active at the top level), lane l of it holding li = base + l.
func TestSubgroupAndF16OnVulkan(t *testing.T) {
	runner := vkrun(t)
	m := parseRender(t, subgroupVulkanWGSL)
	const wgSize = 32
	rt := m.Shared[0].T
	stride := hostStride(rt)
	sizes := map[int]bool{}
	for _, d := range vkDrivers() {
		for _, o := range bothModes {
			t.Run(d.name+"/"+string(o.Mode), func(t *testing.T) {
				words := emitValid(t, m, "main", o)
				outs, msg, err := vkRunOn(t, runner, d, words, "main", [3]uint32{1, 1, 1},
					[]vkBuffer{{data: make([]byte, hostSize(rt))}, {data: make([]byte, 8*wgSize)}})
				require.NoError(t, err, "vkrun: %s", msg)
				sizes[checkSubgroupRun(t, outs, rt, stride, wgSize)] = true
			})
		}
	}
	t.Logf("subgroup sizes run: %v", sizes)
}

// checkSubgroupRun checks one run of subgroupVulkanWGSL (see
// TestSubgroupAndF16OnVulkan) and returns its subgroup size.
func checkSubgroupRun(t *testing.T, outs [][]byte, rt *ir.Type, stride, wgSize int) int {
	offs := hostOffsets(rt.Elem.Struct)
	field := func(li, f int) uint32 { return binary.LittleEndian.Uint32(outs[0][li*stride+offs[f]:]) }
	idx := map[string]int{}
	for i, fd := range rt.Elem.Struct.Fields {
		idx[fd.Name] = i
	}
	get := func(li int, name string) uint32 { return field(li, idx[name]) }
	n := int(get(0, "n"))
	require.Contains(t, []int{4, 8, 16, 32}, n, "subgroup size")
	for li := 0; li < wgSize; li++ {
		sid := int(get(li, "sid"))
		require.Equal(t, uint32(n), get(li, "n"), "subgroup_size is uniform")
		base := li - sid
		require.True(t, base >= 0 && base%n == 0 && sid < n, "li %d: sid %d", li, sid)
		v := func(lane int) uint32 { return uint32(base + lane + 1) }
		want := map[string]uint32{
			"add": 0, "excl": 0, "imul": 1 << (sid + 1), "elect": b2u(sid == 0), "bcast": v(3), "first": v(0),
			"shuf": v((sid + 5) % n), "xor1": v(sid ^ 1), "qx": v(sid ^ 1), "qy": v(sid ^ 2), "qd": v(sid ^ 3),
			"qb": v(sid&^3 | 2), "all_": 1, "any_": b2u(base <= 5 && 5 < base+n), "and_": ^uint32(0) &^ (1<<n - 1),
			"or_": 1<<n - 1, "xor_": 0, "smin": uint32(int32(base - 10)), "fmax": f32bits(float32(base+n-1) * 0.5),
		}
		for l := 0; l < n; l++ {
			want["add"] += v(l)
			want["xor_"] ^= v(l)
			if l < sid {
				want["excl"] += v(l)
			}
		}
		if sid >= 1 {
			want["up1"] = v(sid - 1)
		}
		if sid+2 < n {
			want["down2"] = v(sid + 2)
		}
		// Each arm's active set: the lanes of its parity.
		if li%2 == 0 {
			want["div"] = uint32(n / 2)
		} else {
			want["div"] = uint32(10 * n / 2)
		}
		for name, w := range want {
			if name == "up1" && sid == 0 || name == "down2" && sid+2 >= n {
				continue
			}
			require.Equal(t, w, get(li, name), "li %d (lane %d of %d): %s", li, sid, n, name)
		}
		var ballot [4]uint32
		for l := 0; l < n; l++ {
			if (base+l)%3 == 0 {
				ballot[l/32] |= 1 << (l % 32)
			}
		}
		for c := 0; c < 4; c++ {
			require.Equal(t, ballot[c], binary.LittleEndian.Uint32(outs[0][li*stride+offs[idx["ballot"]]+4*c:]), "li %d: ballot[%d]", li, c)
		}
		// f16: h = li / 4, all exact in binary16.
		hsum := float32(0)
		for l := 0; l < n; l++ {
			hsum += float32(base+l) / 4
		}
		wantH := []float32{hsum, float32(base+n-1) / 4, float32(li) * 0.375, float32(li)}
		for c, w := range wantH {
			got := ir.F16Bits(binary.LittleEndian.Uint16(outs[1][8*li+2*c:]))
			require.Equal(t, ir.F16Val(w).Bits, got.Bits, "li %d: hout[%d] = %v, want %v", li, c, got.F16(), w)
		}
	}
	return n
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func f32bits(f float32) uint32 { return ir.F32Val(f).Bits }

// broadcastFirstQuirkWGSL calls subgroupBroadcastFirst on a u32 → f32
// conversion under a branch on the same value: Mesa 22.3.6's lavapipe
// (LLVM 15) aborts compiling it — "LLVM ERROR: Cannot select: v8i32 =
// X86ISD::VBROADCAST … f32 = uint_to_fp" — taking the process down;
// Mesa 25.0.7's compiles and runs it. Found by
// crosscheck's TestSubgroupProgramsMatchInterpOnVulkan (program 15 of
// the subgroups profile) and reduced by hand.
const broadcastFirstQuirkWGSL = `enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read> inp: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> out: array<f32, 8>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32) {
  let x = inp[li];
  var r = 0.0f;
  if (x > 5u) {
    r = subgroupBroadcastFirst(f32(x));
  }
  out[li] = r;
}
`

// lavapipeQuirk is the abort broadcastFirstQuirkWGSL gives on Mesa 22.3.
const lavapipeQuirk = "LLVM ERROR: Cannot select"

// TestLavapipeBroadcastFirstQuirk shows broadcastFirstQuirkWGSL's module
// (valid: spirv-val) on every lavapipe vkrun has: each either aborts
// with lavapipeQuirk (logged: the old driver's own bug, not gpudiff's —
// no stack gpudiff links sends subgroups to Mesa 22.3) or computes WGSL's
// result for inp[i] = i: 0 where x <= 5, and for lanes 6 and 7 the value
// of the lowest active one, 6 (or 7 for lane 7, were it alone). Mesa 25
// must compute it.
func TestLavapipeBroadcastFirstQuirk(t *testing.T) {
	runner := vkrun(t)
	words := emitValid(t, parseRender(t, broadcastFirstQuirkWGSL), "main", DefaultOptions())
	in := make([]byte, 32)
	for i := 0; i < 8; i++ {
		binary.LittleEndian.PutUint32(in[4*i:], uint32(i))
	}
	for _, d := range vkDrivers() {
		t.Run(d.name, func(t *testing.T) {
			outs, msg, err := vkRunOn(t, runner, d, words, "main", [3]uint32{1, 1, 1}, []vkBuffer{{data: in}, {data: make([]byte, 32)}})
			if err != nil && strings.Contains(msg, lavapipeQuirk) {
				require.NotContains(t, d.name, "Mesa 25", "Mesa 25 compiles it")
				t.Logf("%s aborts: %s", d.name, strings.SplitN(msg, "\n", 2)[0])
				return
			}
			require.NoError(t, err, "vkrun: %s", msg)
			for i := 0; i < 8; i++ {
				got := math.Float32frombits(binary.LittleEndian.Uint32(outs[1][4*i:]))
				switch {
				case i <= 5:
					require.Equal(t, float32(0), got, "lane %d", i)
				case i == 6:
					require.Equal(t, float32(6), got, "lane %d", i)
				default:
					require.Contains(t, []float32{6, 7}, got, "lane %d", i)
				}
			}
		})
	}
}

// TestF16PortableConversionsOnVulkan runs portable mode's f16 → i32 and
// u32 conversions on lavapipe (vkrun) for the inputs where the clamp
// matters, hand-derived from WGSL #floating-point-conversion (truncate,
// then clamp to the values representable in both types: every finite
// f16, so ±∞ become ±65504 and negatives 0 for u32): +∞ → 65504 and
// 65504; -∞ → -65504 and 0; -3.75 → -3 and 0; 0.99 → 0 and 0; 65504 →
// 65504 both.
func TestF16PortableConversionsOnVulkan(t *testing.T) {
	vkrun(t)
	r := ir.Vec(2, ir.U32)
	h := param("h", ir.F16)
	m := module(fn("k", params("h", ir.F16), r, ret(cons(r, bitcast(ir.U32, conv(ir.I32, h)), conv(ir.U32, h)))))
	words := emitValid(t, m, "k", DefaultOptions())
	in := []ir.Value{ir.F16Bits(0x7c00), ir.F16Bits(0xfc00), ir.F16Val(-3.75), ir.F16Val(0.99), ir.F16Val(65504)}
	want := [][2]int64{{65504, 65504}, {-65504, 0}, {-3, 0}, {0, 0}, {65504, 65504}}
	args := make([][]ir.Value, len(in))
	for i, v := range in {
		args[i] = []ir.Value{v}
	}
	got := runUnverified(t, m, words, args)
	for i := range in {
		assert.Equal(t, uint32(int32(want[i][0])), got[i][0].Elems[0].Bits, "i32(%v)", in[i])
		assert.Equal(t, uint32(want[i][1]), got[i][0].Elems[1].Bits, "u32(%v)", in[i])
	}
}
