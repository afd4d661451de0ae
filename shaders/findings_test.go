package shaders

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/drivers"
	"github.com/gpudiff/gpudiff/oracle"
)

// findings lists each finding under findings/: its reference per
// invocation, derived by hand in findings/README.md (not copied from the
// interpreter), the runs it implicates, and whether the flattened twin
// sidesteps the bug there.
var findings = map[string]kernelFinding{
	"lavapipe_loop_exit_wrap.wgsl":                  {[]string{`2`}, onAdapter("wgpu-vulkan:llvmpipe"), true},
	"lavapipe_switch_in_loop.wgsl":                  {[]string{`{"ret": 0, "g0": 1}`}, onAdapter("wgpu-vulkan:llvmpipe"), true},
	"swiftshader_zero_init_i32_vector_compare.wgsl": {[]string{`1`}, onDriver("swiftshader"), false},
	"swiftshader_zero_init_bool_vector_not.wgsl":    {[]string{`{"ret": 1, "g": false}`}, onDriver("swiftshader"), false},
	"wgpu_gl_first_leading_bit_or.wgsl":             {[]string{`4294967295`, `4294967295`, `4294967295`, `4294967295`}, onAdapter("wgpu-gl:llvmpipe"), false},
	// Mesa's GLSL ES precision on naga's GLSL of gpudiff's SPIR-V: wgpu-gl,
	// SPIR-V only (naga's WGSL path passes the literal through a variable).
	"wgpu_gl_spirv_extract_bits_literal.wgsl": {[]string{`65536`, `32768`, `1`, `0`},
		func(r oracle.Judged) bool { return r.Adapter == "wgpu-gl:llvmpipe" && r.Format == "spirv" }, false},
	// naga's WGSL front end: every wgpu adapter, WGSL only (gpudiff's
	// SPIR-V re-zeroes the variable and passes).
	"loop_local_var_not_rezeroed.wgsl": {[]string{`0`}, func(r oracle.Judged) bool { return r.Format == "wgsl" }, true},
	// Tint's front end: every Dawn backend (a dynamically indexed swizzle
	// of a reference is loaded after the index's call).
	"tint_swizzle_value_after_call.wgsl": {[]string{
		`{"ret": 0, "g": [0, 5, 0]}`, `{"ret": 1, "g": [1, 5, 1]}`,
		`{"ret": -1, "g": [-1, 5, -1]}`, `{"ret": 7, "g": [7, 5, 7]}`,
	}, func(r oracle.Judged) bool { return strings.HasPrefix(r.Adapter, "dawn-") }, true},
}

// kernelFinding is one function-kernel finding: its reference per
// invocation, derived by hand in findings/README.md, the runs it
// implicates, and whether the flattened twin sidesteps the bug there.
type kernelFinding struct {
	reference   []string
	implicates  func(r oracle.Judged) bool
	twinEscapes bool
}

// crashFindings lists each finding under findings/ where a stack crashes on
// valid WGSL: the implicated runs have no outputs to compare (the case
// file records them as verdict crash with "outputs": [] and the crash's
// message), so the finding is the crash itself. The reference is still
// derived by hand: every run the finding does not implicate must give it.
var crashFindings = map[string]kernelFinding{
	// naga's SPIR-V backend aborts (a Rust panic in naga::back::spv) on a
	// pointer to a struct member passed as an argument: every wgpu Vulkan
	// adapter, WGSL only (gpudiff's SPIR-V passes); the twin inlines the
	// call and passes.
	"naga_spv_member_pointer_argument.wgsl": {[]string{`[0, 1, 2, 3]`, `[1, 1, 2, 3]`, `[-1, 1, 2, 3]`},
		func(r oracle.Judged) bool { return r.Format == "wgsl" && strings.HasPrefix(r.Adapter, "wgpu-vulkan:") }, true},
}

// computeFindings lists each finding under findings/compute/: a compute
// entry point as written (NAME.wgsl with NAME.inputs.json, or an entry
// case file), its reference — the final read_write bindings, derived by
// hand in findings/README.md, not copied from the interpreter (nor from
// NAME.expected.json, which must agree with it) — the runs it implicates,
// and whether the twin sidesteps it.
var computeFindings = map[string]struct {
	reference   string
	implicates  func(r oracle.Judged) bool
	twinEscapes bool
}{
	// naga 29's SPIR-V backend panics on an array of structs holding a
	// mat2x2<f16> passed by value (issue 40): Deno's Vulkan adapters that
	// take f16 crash, original and twin (the twin copies the array too);
	// Dawn agrees; wgpu-native (naga 0.19) and SwiftShader skip every f16
	// run, for their declared reasons.
	"naga29_spv_f16_struct_array_argument.wgsl": {`{"out": [9, 0]}`,
		func(r oracle.Judged) bool { return strings.HasPrefix(r.Adapter, "deno-vulkan:") }, false},
	// naga 29's WGSL front end refuses bitcast<u32>(vec2<f16>) (issue 40):
	// a compile error on Deno's Vulkan adapters that take f16, original
	// and twin; Dawn agrees.
	"naga29_wgsl_f16_vector_bitcast.wgsl": {`{"o": [3221241344, 3221242112, 3221242624, 3221243008], "h": [[-1.25, 3.5], [-1.25, 3.5], [-1.25, 3.875], [-1.25, 4.25]]}`,
		func(r oracle.Judged) bool { return strings.HasPrefix(r.Adapter, "deno-vulkan:") }, false},
	// wgpu 0.19.4's SPIR-V reader (naga 0.19.2) moves a workgroup load
	// past the next barrier: gpudiff's SPIR-V on wgpu, every driver (it was
	// wrong on SwiftShader; lavapipe's one SIMD group of 8 hides it), the
	// twin alike. gpudiff's emitter now avoids it (workarounds.barrierBlock),
	// so the implicated runs pass; they are logged, not asserted.
	"naga_spv_in_load_after_barrier.wgsl": {`{"out": [37, 26, 17, 10, 5, 2, 1, 50]}`,
		func(r oracle.Judged) bool { return r.Format == "spirv" && strings.HasPrefix(r.Adapter, "wgpu-") }, false},
	// wgpu 0.19.4's GLSL backend (naga 0.19.2) cannot write
	// atomicCompareExchangeWeak's result struct (gfx-rs/wgpu#7578): a
	// compile error on wgpu-gl, original and twin; the Vulkan runs agree.
	"naga_glsl_compare_exchange_result.wgsl": {`{"a": [7], "out": [7, 0, 7]}`,
		onAdapter("wgpu-gl:llvmpipe"), false},
	// Mesa's spirv_to_nir rewrites transpose(A) * transpose(B) as
	// transpose(B * A) with the bounds of A^T * B^T: lavapipe loses the
	// device on a non-square product, WGSL and gpudiff's SPIR-V, original
	// and twin (the twin makes the same product).
	"lavapipe_transpose_times_transpose.wgsl": {`{"out": [7, 15, 23, 10, 22, 34]}`,
		onAdapter("wgpu-vulkan:llvmpipe"), false},
	// SwiftShader through wgpu (naga's SPIR-V and gpudiff's): a select
	// on a loop-carried bool that picks the next per-invocation index is
	// wrong for lanes 1, 2, 4, 5, 6, original and twin; Dawn's SwiftShader
	// (Tint's SPIR-V) agrees.
	"swiftshader_select_loop_carried_bool.wgsl": {`{"found": [0, 1, 2, 3, 4, 5, 6, 7]}`,
		onAdapter("wgpu-vulkan:swiftshader"), false},
	// Mesa's GLSL compiler grafts a shared load past the barrier() after
	// it: Tint's GLSL on Mesa (Dawn's GL and GLES backends), original and
	// twin; naga's GLSL (with memoryBarrierShared) and every Vulkan run
	// agree.
	"mesa_glsl_shared_load_after_barrier.wgsl": {`{"out": [22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37,
		38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64,
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]}`,
		func(r oracle.Judged) bool { return strings.HasPrefix(r.Adapter, "dawn-gl") }, false},
	// naga's SPIR-V reader resolves OpImageQuerySizeLod of an arrayed
	// image as (width, height) and rejects the extraction of its layer
	// count (textureNumLayers): a compile error for gpudiff's SPIR-V on
	// every wgpu adapter, original and twin; naga's GLSL of the WGSL
	// does not compile either (wgpu-gl); the other WGSL runs agree.
	"naga_spv_in_num_layers.wgsl": {`{"out": [3, 2]}`,
		func(r oracle.Judged) bool {
			return r.Adapter == "wgpu-gl:llvmpipe" || r.Format == "spirv" && strings.HasPrefix(r.Adapter, "wgpu-")
		}, false},
	// wgpu's GL backend makes a one-layer 2d texture a GL_TEXTURE_2D, so
	// its texture_2d_array binding reads zeros: wgpu-gl WGSL, original and
	// twin. gpudiff's SPIR-V of the textureLoad (its bounds clamp queries
	// the arrayed size) meets naga_spv_in_num_layers on every wgpu
	// adapter; Dawn, GL included, agrees.
	"wgpu_gl_one_layer_array.wgsl": {`{"out": [10, 11, 12, 13]}`,
		func(r oracle.Judged) bool {
			return r.Adapter == "wgpu-gl:llvmpipe" || r.Format == "spirv" && strings.HasPrefix(r.Adapter, "wgpu-")
		}, false},
	// naga's GLSL writer ignores struct member @align and @size
	// (gfx-rs/wgpu#4374): every run through naga's GLSL — wgpu-gl (WGSL
	// and gpudiff's SPIR-V, which naga's SPIR-V reader takes to the same
	// GLSL writer) and deno-gl (naga 29) — reads zeros, original and twin.
	"naga_glsl_struct_member_offset.wgsl": {`{"out": [2, 3, 4]}`,
		func(r oracle.Judged) bool {
			return strings.HasPrefix(r.Adapter, "wgpu-gl:") || strings.HasPrefix(r.Adapter, "deno-gl:")
		}, false},
	// naga writes raw i32 / and % as GLSL's (undefined for b = 0,
	// INT_MIN / -1 and negative %): wgpu-gl and deno-gl, original and twin;
	// naga 0.19's SPIR-V writer does not polyfill them either, which the
	// twin's raw operators meet on wgpu's Vulkan adapters.
	"naga_glsl_signed_div_rem.wgsl": {`{"out": [7, 0, -2147483648, 0, -3, -1, 0, -8]}`,
		func(r oracle.Judged) bool {
			return strings.HasPrefix(r.Adapter, "wgpu-") || strings.HasPrefix(r.Adapter, "deno-gl:")
		}, false},
	// SwiftShader on Tint's SPIR-V: a bool splat of an array element
	// compared with (false, false) is wrong on dawn-vulkan:swiftshader
	// alone (Tint's SPIR-V is right on lavapipe, naga's on SwiftShader);
	// the twin passes.
	"swiftshader_tint_bool_splat_equal.wgsl": {`{"out": [0, 0, 0, 0]}`, onAdapter("dawn-vulkan:swiftshader"), true},
	// naga's GLSL writer lays a uniform mat4x2 out by std140 (16-byte
	// columns, WGSL's are 8; gfx-rs/wgpu#4371): wgpu-gl and deno-gl, WGSL
	// only (gpudiff's SPIR-V passes), original and twin.
	"naga_glsl_uniform_matcx2.wgsl": {`{"out": [3, 9, 10]}`,
		func(r oracle.Judged) bool {
			return strings.HasPrefix(r.Adapter, "wgpu-gl:") || strings.HasPrefix(r.Adapter, "deno-gl:")
		}, false},
	// Mesa's GLSL compiler loses a continue nested two switches deep in a
	// loop: every naga GLSL path (wgpu-gl WGSL and gpudiff's SPIR-V,
	// deno-gl), Mesa 22 and 25, original only (the twin has neither
	// switch nor continue); Tint's GLSL agrees.
	"mesa_glsl_continue_nested_switch.wgsl": {`{"out": [1, 1]}`,
		func(r oracle.Judged) bool {
			return strings.HasPrefix(r.Adapter, "wgpu-gl:") || strings.HasPrefix(r.Adapter, "deno-gl:")
		}, true},
	// naga's GLSL writer leaves pack4xU8 / pack4xU8Clamp unparenthesized
	// (an OR of shifted bytes), so a neighbouring * binds to one byte:
	// deno-gl (naga 29), original and twin; the signed forms are right,
	// Dawn agrees, and naga 0.19 skips the module for its declared lack
	// of the language extension.
	"naga_glsl_pack4x8_precedence.wgsl": {`{"out": [134611970, 201917955, 134611970, 134611970]}`,
		func(r oracle.Judged) bool { return strings.HasPrefix(r.Adapter, "deno-gl:") }, false},
	// wgpu 0.19.4's naga (0.19.2) rejects a u32 textureLoad level
	// (gfx-rs/wgpu#5433): a compile error on every wgpu adapter, WGSL and
	// SPIR-V, original and twin; Dawn agrees.
	"naga_textureload_u32_level.wgsl": {`{"out": [5, 6, 7, 8]}`,
		func(r oracle.Judged) bool { return strings.HasPrefix(r.Adapter, "wgpu-") }, false},
}

// onDriver implicates every adapter on a driver (wgpu's and Dawn's alike).
func onDriver(device string) func(r oracle.Judged) bool {
	return func(r oracle.Judged) bool { return strings.HasSuffix(r.Adapter, ":"+device) }
}

func onAdapter(name string) func(r oracle.Judged) bool {
	return func(r oracle.Judged) bool { return r.Adapter == name }
}

// TestFindings checks the stack bugs kept under findings/ (top level, the
// compute entry points under findings/compute/ and the fragment entry
// points' case files under findings/fragment/):
// the reference is the hand-derived one; every run the finding does not
// implicate agrees (on lavapipe, SwiftShader, wgpu's GL backend and Dawn on
// SwiftShader and on llvmpipe GL); among
// the implicated ones the twin agrees where predication sidesteps the bug.
// Whether the implicated runs still get the original wrong is logged, not
// asserted: a Mesa or wgpu update that fixes it should not break CI.
func TestFindings(t *testing.T) {
	files, err := filepath.Glob("../findings/*.wgsl")
	require.NoError(t, err)
	require.Len(t, files, len(findings)+len(crashFindings), "every finding has a hand-derived reference here")
	devs := openFindingDevices(t)
	obs := newObservations()
	t.Run("compute", func(t *testing.T) { computeFindingsCheck(t, devs, obs) })
	t.Run("fragment", func(t *testing.T) { fragmentFindingsCheck(t, devs, obs) })
	defer func() {
		if !t.Failed() || *updateFindings {
			obs.check(t)
		}
	}()
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			fd, ok := findings[name]
			cf, crash := crashFindings[name]
			if crash {
				fd, ok = cf, true
			}
			require.True(t, ok, "no hand-derived reference for %s", name)
			c, rec, mode := readCase(t, path)
			if crash {
				recordedCrash := 0
				for _, r := range rec.Runs {
					if fd.implicates(oracle.Judged{Run: oracle.Run{Adapter: r.Adapter, Function: r.Function, Format: r.Format}}) && r.Function == c.Kernel {
						assert.Equal(t, string(oracle.Crash), r.Verdict, "%s %s: the recorded run crashed", r.Adapter, r.Format)
						assert.Empty(t, r.Outputs, "a crashed run records no outputs")
						recordedCrash++
					}
				}
				assert.Positive(t, recordedCrash, "the case file records the crash")
				assert.Equal(t, string(oracle.Crash), rec.Verdict)
			}
			res, err := check.Execute(t.Context(), c.Case(), check.Options{Devices: devs, Flat: true, SPIRV: true, Mode: mode})
			require.NoError(t, err)
			obs.add(name, res.Runs, res.Twin)
			require.Len(t, res.Reference, len(fd.reference))
			for i, w := range fd.reference {
				assert.JSONEq(t, w, string(bytes.TrimSpace(oracle.InvocationJSON(res.Reference[i], res.Names))), "reference of invocation %d", i)
			}
			require.NotEmpty(t, res.Twin)
			for _, r := range res.Runs {
				label := r.Adapter + " " + r.Function + " " + string(r.Format)
				switch {
				case !legacyAdapters[r.Adapter]:
					// Today's stacks: judged against findings/reproduces.txt.
				case !fd.implicates(r) || (r.Function == res.Twin && fd.twinEscapes):
					assert.Equal(t, oracle.Pass, r.Verdict, "%s: %s %v", label, r.Message, r.Diffs)
				default:
					t.Logf("%s: %s (the finding; %d of %d invocations differ)", label, r.Verdict, len(r.Mismatches), len(res.Reference))
				}
			}
		})
	}
}

// computeFindingsCheck checks findings/compute/ as TestFindings checks the
// function kernels: each is dispatched (check.ExecuteEntry, original and
// twin, WGSL and gpudiff's SPIR-V, portable mode or its case file's) on
// devs; the reference is the hand-derived one (and NAME.expected.json
// says the same, with no race); the twin agrees with it in the
// interpreter; every run the finding does not implicate agrees, and among
// the implicated ones the twin agrees where predication sidesteps the
// bug. Runs an adapter cannot take (gpudiff's SPIR-V on Dawn, which takes
// WGSL only, and of atomics on wgpu) are skipped, never judged; at least
// one run per device, Dawn's included, is judged.
func computeFindingsCheck(t *testing.T, devs []check.Device, obs *observations) {
	files, err := filepath.Glob("../findings/compute/*.wgsl")
	require.NoError(t, err)
	require.Len(t, files, len(computeFindings), "every compute finding has a hand-derived reference here")
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			fd, ok := computeFindings[name]
			require.True(t, ok, "no hand-derived reference for %s", name)
			c, err := drivers.LoadFile(path)
			require.NoError(t, err)
			require.Equal(t, testcase.KindCompute, c.Case.Kind, "%s is not a compute entry point", name)
			mode := wgsl.Portable
			if src := []byte(c.Source); testcase.IsCase(src) {
				_, _, rec, err := testcase.ParseCaseFile(path, src)
				require.NoError(t, err)
				mode, err = wgsl.ParseMode(rec.Mode)
				require.NoError(t, err)
			}
			res, err := check.Execute(t.Context(), c.Case, check.Options{Devices: devs, Flat: true, SPIRV: true, Mode: mode})
			require.NoError(t, err)
			obs.add("compute/"+name, res.Runs, res.Twin)
			assert.JSONEq(t, fd.reference, string(bytes.TrimSpace(oracle.InvocationJSON(res.Reference[0], res.Names))), "reference")
			assert.Empty(t, res.Races, "a finding's dispatch is race-free")
			if data, err := os.ReadFile(strings.TrimSuffix(path, ".wgsl") + ".expected.json"); err == nil {
				var exp map[string]json.RawMessage
				require.NoError(t, json.Unmarshal(data, &exp))
				assert.JSONEq(t, "0", string(exp["races"]), "expected.json: races")
				delete(exp, "races")
				b, err := json.Marshal(exp)
				require.NoError(t, err)
				assert.JSONEq(t, fd.reference, string(b), "NAME.expected.json and the hand-derived reference agree")
			}
			require.NotEmpty(t, res.Twin)
			judged := map[string]int{}
			for _, r := range res.Runs {
				label := r.Adapter + " " + r.Function + " " + string(r.Format)
				judged[r.Adapter]++
				switch {
				case r.Adapter == "interp":
					assert.Equal(t, oracle.Pass, r.Verdict, "%s: the twin agrees with the original in the interpreter: %s %v", label, r.Message, r.Diffs)
				case !legacyAdapters[r.Adapter]:
					// Today's stacks: judged against findings/reproduces.txt.
				case !fd.implicates(r) || (r.Function == res.Twin && fd.twinEscapes):
					assert.Equal(t, oracle.Pass, r.Verdict, "%s: %s %v", label, r.Message, r.Diffs)
				default:
					t.Logf("%s: %s (the finding)", label, r.Verdict)
				}
			}
			for _, r := range res.Skipped {
				t.Logf("%s %s %s: skipped: %s", r.Adapter, r.Function, r.Format, r.Message)
			}
			assert.Equal(t, 1, judged["interp"], "the twin's interpreter run")
			skipped := map[string]bool{}
			for _, r := range res.Skipped {
				if r.Format == oracle.FormatWGSL {
					skipped[r.Adapter] = true // the adapter declares it cannot take the module (an f16 finding on naga 0.19)
				}
			}
			for _, d := range devs {
				assert.True(t, judged[d.Info().Name] > 0 || skipped[d.Info().Name], "%s judged no run and skipped none for a declared reason", d.Info().Name)
			}
		})
	}
}
