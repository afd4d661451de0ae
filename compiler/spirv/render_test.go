package spirv

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// renderPairSrc is a vertex and a fragment entry point of one module that
// use every IO form the SPIR-V backend emits: vertex_index,
// instance_index, a bare @location attribute and a struct of them; a
// struct result with the position and varyings of every interpolation
// the subset takes; fragment position, front_facing, varyings bare and in
// a struct with a builtin, discard; a uniform buffer, a read-only storage
// buffer, a texture and a sampler used in both stages.
const renderPairSrc = `
struct Uniforms {
  scale: vec2f,
  tint: vec4f,
}
@group(0) @binding(0) var<uniform> u: Uniforms;
@group(0) @binding(1) var<storage, read> offsets: array<vec2f>;
@group(0) @binding(2) var tex: texture_2d<f32>;
@group(0) @binding(3) var samp: sampler;

struct VIn {
  @location(1) color: vec3f,
  @location(2) id: u32,
}

struct VOut {
  @builtin(position) pos: vec4f,
  @location(0) color: vec3f,
  @location(1) @interpolate(flat) id: u32,
  @location(2) @interpolate(linear) fade: f32,
  @location(3) @interpolate(flat, either) side: i32,
  @location(4) @interpolate(perspective, center) uv: vec2f,
}

@vertex
fn vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32, @location(0) xy: vec2f, v: VIn) -> VOut {
  var o: VOut;
  let off = offsets[ii % arrayLength(&offsets)];
  o.pos = vec4f(xy * u.scale + off, 0.5, 1.0);
  o.color = v.color;
  o.id = v.id + vi;
  o.fade = f32(vi) * 0.5;
  o.side = i32(ii) - 1;
  o.uv = textureSampleLevel(tex, samp, xy, 0.0).xy;
  return o;
}

struct FIn {
  @location(1) @interpolate(flat) id: u32,
  @builtin(front_facing) front: bool,
}

fn keep(id: u32) -> bool {
  if (id == 7u) {
    discard;
  }
  return id != 9u;
}

@fragment
fn fs(@builtin(position) p: vec4f, @location(0) color: vec3f, f: FIn, @location(2) @interpolate(linear) fade: f32,
      @location(3) @interpolate(flat, either) side: i32, @location(4) uv: vec2f) -> @location(0) vec4f {
  if (!keep(f.id)) {
    discard;
  }
  var c = vec4f(color * fade, 1.0) * u.tint;
  if (!f.front) {
    c = c.bgra;
  }
  c += textureSample(tex, samp, uv);
  c.w += offsets[0].y;
  return c + vec4f(f32(side), p.x, dpdx(uv.x), 0.0);
}
`

func parseRender(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := wgsl.Parse("render.wgsl", []byte(src))
	require.NoError(t, err)
	return m
}

// renderOptions are the option sets every render test emits under: both
// modes, both discard lowerings (the zero value is DiscardDemote).
var renderOptions = []Options{
	{Mode: Portable, DebugNames: true},
	{Mode: Raw, Discard: DiscardKill},
	{Mode: Portable, Discard: DiscardDemote},
	{Mode: Raw, DebugNames: true, Discard: DiscardKill},
}

func optName(o Options) string {
	d := o.Discard
	if d == "" {
		d = DiscardDemote
	}
	return fmt.Sprintf("%s/%s/names=%v", o.Mode, d, o.DebugNames)
}

// TestRenderIOVariables: each stage's Input and Output variables are
// what WGSL's IO and Vulkan's interface rules give, derived by hand:
// vertex_index and instance_index are u32 Inputs BuiltIn VertexIndex and
// InstanceIndex; @builtin(position) is an Output BuiltIn Position in the
// vertex stage and an Input BuiltIn FragCoord in the fragment stage;
// front_facing an Input bool BuiltIn FrontFacing; each @location(n) leaf
// (bare or a struct member) one variable at Location n. Interpolation
// (WGSL #interpolation; Vulkan §15.1.7): vertex inputs and fragment
// outputs undecorated (VUID-StandaloneSpirv-Flat-06201/06202); varyings
// flat → Flat (flat, either too: Vulkan's provoking vertex is the
// first), linear → NoPerspective, perspective (written or not) → none.
// Every variable is in the entry point's interface.
func TestRenderIOVariables(t *testing.T) {
	m := parseRender(t, renderPairSrc)
	want := map[string][]string{
		"vs": {
			"in BuiltIn InstanceIndex u32",
			"in BuiltIn VertexIndex u32",
			"in Location 0 vec2<f32>",
			"in Location 1 vec3<f32>",
			"in Location 2 u32",
			"out BuiltIn Position vec4<f32>",
			"out Location 0 vec3<f32>",
			"out Location 1 u32 Flat",
			"out Location 2 f32 NoPerspective",
			"out Location 3 i32 Flat",
			"out Location 4 vec2<f32>",
		},
		"fs": {
			"in BuiltIn FragCoord vec4<f32>",
			"in BuiltIn FrontFacing bool",
			"in Location 0 vec3<f32>",
			"in Location 1 u32 Flat",
			"in Location 2 f32 NoPerspective",
			"in Location 3 i32 Flat",
			"in Location 4 vec2<f32>",
			"out Location 0 vec4<f32>",
		},
	}
	for _, o := range renderOptions {
		for _, ep := range []string{"vs", "fs"} {
			t.Run(ep+"/"+optName(o), func(t *testing.T) {
				mf := readFacts(t, emitValid(t, m, ep, o))
				var got []string
				for _, v := range mf.stageIO(t) {
					got = append(got, v.String())
					assert.True(t, v.inIface, "%s is not in the interface", v)
				}
				assert.Equal(t, want[ep], got)
				assert.Len(t, mf.entries[0].iface, len(want[ep]), "the interface lists each IO variable once")
			})
		}
	}
}

// TestRenderEntryPoints: the vertex entry point is an OpEntryPoint
// Vertex under its own name without execution modes (OriginUpperLeft is
// the fragment stage's), the fragment one an OpEntryPoint Fragment with
// OriginUpperLeft; each module has that one entry point; the bindings
// both stages use carry their @group/@binding, the uniform a Uniform
// Block and the read-only storage buffer a NonWritable StorageBuffer one.
func TestRenderEntryPoints(t *testing.T) {
	m := parseRender(t, renderPairSrc)
	for _, c := range []struct {
		ep    string
		model uint32
		modes []uint32
	}{
		{"vs", executionModelVertex, nil},
		{"fs", executionModelFragment, []uint32{executionModeOriginUpperLeft}},
	} {
		mf := readFacts(t, emitValid(t, m, c.ep, DefaultOptions()))
		require.Len(t, mf.entries, 1, c.ep)
		en := mf.entries[0]
		assert.Equal(t, c.model, en.model, c.ep)
		assert.Equal(t, c.ep, en.name)
		assert.Equal(t, c.modes, mf.modes[en.fn], c.ep)
		bindings := map[string][2]uint32{}
		classes := map[string]uint32{}
		nonWritable := map[string]bool{}
		for id, v := range mf.vars {
			d := mf.decos[id]
			if set, ok := d[decorationDescriptorSet]; ok {
				name := mf.names[id]
				bindings[name] = [2]uint32{set[0], d[decorationBinding][0]}
				classes[name] = v.class
				_, nonWritable[name] = d[decorationNonWritable]
			}
		}
		assert.Equal(t, map[string][2]uint32{"u": {0, 0}, "offsets": {0, 1}, "tex": {0, 2}, "samp": {0, 3}}, bindings, c.ep)
		assert.Equal(t, storageClassUniform, classes["u"], c.ep)
		assert.Equal(t, storageClassStorageBuffer, classes["offsets"], c.ep)
		assert.Equal(t, storageClassUniformConstant, classes["tex"], c.ep)
		assert.True(t, nonWritable["offsets"], "%s: a read-only storage binding is NonWritable", c.ep)
		assert.False(t, nonWritable["u"], c.ep)
	}
}

// TestRenderInterfacesMatch: for each of the fragment stage's @location
// inputs the vertex module has an Output at that Location with the same
// type and the same interpolation decorations — what Vulkan's interface
// matching (§15.1.3) and wgpu's stage check (the two interpolations
// equal) ask of the two modules of one pipeline.
func TestRenderInterfacesMatch(t *testing.T) {
	m := parseRender(t, renderPairSrc)
	for _, o := range renderOptions {
		vs := readFacts(t, emitValid(t, m, "vs", o)).stageIO(t)
		fs := readFacts(t, emitValid(t, m, "fs", o)).stageIO(t)
		outs := map[string]ioVar{}
		for _, v := range vs {
			if v.class == "out" {
				outs[v.what] = v
			}
		}
		n := 0
		for _, in := range fs {
			if in.class != "in" || !strings.HasPrefix(in.what, "Location") {
				continue
			}
			n++
			out, ok := outs[in.what]
			if assert.True(t, ok, "%s: no vertex output for %s", optName(o), in) {
				assert.Equal(t, in.typ, out.typ, in.what)
				assert.Equal(t, in.interp, out.interp, in.what)
			}
		}
		assert.Equal(t, 5, n)
	}
}

// TestDiscardLowering: under DiscardDemote each discard is one
// OpDemoteToHelperInvocation (opcode 5380), with its capability and
// SPV_EXT_demote_to_helper_invocation, and nothing terminates the
// invocation (no OpKill); under DiscardKill no demote, no capability, no
// extension, a Private bool initialized false, set at each discard, and
// one OpKill (in the entry point's function, which tests the flag after
// the call and stores the outputs only when it is false).
func TestDiscardLowering(t *testing.T) {
	m := parseRender(t, renderPairSrc)
	for _, o := range renderOptions {
		t.Run(optName(o), func(t *testing.T) {
			mf := readFacts(t, emitValid(t, m, "fs", o))
			if o.Discard == DiscardKill {
				assert.Zero(t, mf.opCount[opDemoteToHelperInvocation])
				assert.False(t, mf.caps[capabilityDemoteToHelperInvocation])
				assert.Empty(t, mf.exts)
				assert.Equal(t, 1, mf.opCount[opKill])
				var flags []uint32
				for id, v := range mf.vars {
					if v.class == storageClassPrivate && mf.typeName(v.pointee) == "bool" {
						flags = append(flags, id)
					}
				}
				assert.Len(t, flags, 1, "one discard flag")
				return
			}
			assert.Equal(t, 2, mf.opCount[opDemoteToHelperInvocation], "the source has two discards")
			assert.True(t, mf.caps[capabilityDemoteToHelperInvocation])
			assert.Equal(t, []string{"SPV_EXT_demote_to_helper_invocation"}, mf.exts)
			assert.Zero(t, mf.opCount[opKill])
		})
	}
	// A module without discard needs neither.
	mf := readFacts(t, emitValid(t, m, "vs", DefaultOptions()))
	assert.False(t, mf.caps[capabilityDemoteToHelperInvocation])
	assert.Empty(t, mf.exts)
}

// TestNagaGapDemote: wgpu 0.19.4's SPIR-V front end refuses the
// DemoteToHelperInvocation capability, so NagaGap names it for a module
// emitted under DiscardDemote, and not for the same entry point under
// DiscardKill.
func TestNagaGapDemote(t *testing.T) {
	m := parseRender(t, renderPairSrc)
	assert.Contains(t, NagaGap(emitValid(t, m, "fs", DefaultOptions())), "DemoteToHelperInvocation")
	assert.Empty(t, NagaGap(emitValid(t, m, "fs", Options{Discard: DiscardKill})))
	assert.Empty(t, NagaGap(emitValid(t, m, "vs", DefaultOptions())))
}

// TestRenderRefusals: what Emit refuses, positioned: discard in a
// function kernel (the kernel ABI, compute or fragment: only a fragment
// entry point's call graph may discard), a discarding fragment entry
// point with a writable storage binding under DiscardKill (unsupported:
// its stores would land), and an unknown discard lowering.
func TestRenderRefusals(t *testing.T) {
	k := parseRender(t, `
fn k(a: u32) -> u32 {
  if (a == 3u) {
    discard;
  }
  return a + 1u;
}
`)
	for _, o := range []Options{{}, {Fragment: true}} {
		_, err := Emit(k, "k", o)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "render.wgsl:4:5: spirv: discard outside a fragment entry point", "Fragment=%v", o.Fragment)
	}

	// The front end refuses writable storage in the fragment stage (v1):
	// the binding is made writable in the IR.
	w := parseRender(t, `
@group(0) @binding(0) var<storage, read> hits: array<u32, 4>;

@fragment
fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
  if (p.y > f32(hits[u32(p.x) % 4u])) {
    discard;
  }
  return p;
}
`)
	w.Shared[0].Access = ir.AccessReadWrite
	_, err := Emit(w, "fs", Options{Discard: DiscardKill})
	require.Error(t, err)
	assert.True(t, IsUnsupported(err), "%v", err)
	assert.Contains(t, err.Error(), "render.wgsl:2:")
	assert.Contains(t, err.Error(), "line 7")
	// Demotion drops a helper invocation's stores (Vulkan: they have no
	// effect), so DiscardDemote takes the binding.
	words := emitValid(t, w, "fs", DefaultOptions())
	assert.Equal(t, 1, readFacts(t, words).opCount[opDemoteToHelperInvocation])

	_, err = Emit(w, "fs", Options{Discard: "terminate"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown discard lowering "terminate"`)
	var list ir.ErrorList
	assert.True(t, errors.As(err, &list))
}

// TestRenderUnsupportedSampling: an interpolation sampling without a
// SPIR-V lowering here (centroid and sample are not ir values, which the
// front end refuses; an out-of-range one stands for them) is refused,
// positioned at the member, as unsupported.
func TestRenderUnsupportedSampling(t *testing.T) {
	m := parseRender(t, `
struct FIn {
  @location(0) @interpolate(linear) a: f32,
}

@fragment
fn fs(@builtin(position) p: vec4f, in: FIn) -> @location(0) vec4f {
  return p + vec4f(in.a);
}
`)
	m.Func("fs").Params[1].T.Struct.Fields[0].Interp.Sampling = ir.SamplingEither + 1
	require.NoError(t, ir.Verify(m))
	_, err := Emit(m, "fs", DefaultOptions())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "render.wgsl:3:")
	assert.Contains(t, err.Error(), "interpolation sampling")
	assert.True(t, IsUnsupported(err), "%v", err)
}
