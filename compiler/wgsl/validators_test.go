package wgsl

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/dawn"
	"github.com/gpudiff/gpudiff/ir"
)

// The independent WGSL implementations these tests check gpudiff's front
// end against. Both come with `make deps`; a missing one fails the test
// with an install hint, never skips it.
//
//   - tint: Tint inside Dawn, through the npm package webgpu (dawn.node),
//     as Dawn's createShaderModule runs it: parse, resolve, const-evaluate,
//     uniformity, validation. Modules are judged by a dawn.Validator (Dawn's
//     null backend with every feature, so any enable-extension may be
//     used); const-expression values are read back by running a kernel on
//     dawn-vulkan:swiftshader (ptTintValues).
//   - naga: naga 0.19.2, inside the wgpu-native gpudiff links (wgpu 0.19.4; older than the naga CLI:
//     it parses no enable, requires or diagnostic directives), as wgpu's
//     createShaderModule runs it on wgpu-vulkan:llvmpipe (lavapipe).
const (
	ptTint = "tint"
	ptNaga = "naga"
)

// ptValidator judges whole WGSL modules: one result per text, nil when
// the implementation accepts it, else its rejection
// (*harness.CompileError carrying its own message).
type ptValidator struct {
	name  string
	check func(t testing.TB, srcs ...string) []error
}

// accepts judges one module: whether it is accepted, and the message.
func (v ptValidator) accepts(t testing.TB, src string) (bool, string) {
	t.Helper()
	err := v.check(t, src)[0]
	if err == nil {
		return true, ""
	}
	return false, err.Error()
}

var (
	ptTintOnce      sync.Once
	ptTintValidator *dawn.Validator
	ptTintErr       error
)

// ptTintCheck returns Tint (a dawn.Validator shared by the package's
// tests; TestMain closes it).
func ptTintCheck(t testing.TB) ptValidator {
	t.Helper()
	ptTintOnce.Do(func() { ptTintValidator, ptTintErr = dawn.OpenValidator() })
	ptRequireTool(t, "Tint (Dawn's node binding: node and the npm package webgpu)", ptTintErr)
	return ptValidator{name: ptTint, check: func(t testing.TB, srcs ...string) []error {
		t.Helper()
		errs, err := ptTintValidator.CompileWGSL(context.Background(), srcs...)
		require.NoError(t, err, "Tint's worker failed")
		return errs
	}}
}

// ptNagaCheck returns naga (module creation on the lavapipe device that the
// emitter tests share).
func ptNagaCheck(t testing.TB) ptValidator {
	t.Helper()
	lavapipeOnce.Do(func() { lavapipe, lavapipeErr = harness.Open("vulkan:llvmpipe") })
	ptRequireTool(t, "naga (wgpu-native on lavapipe: mesa-vulkan-drivers)", lavapipeErr)
	return ptValidator{name: ptNaga, check: func(t testing.TB, srcs ...string) []error {
		t.Helper()
		errs := make([]error, len(srcs))
		for i, src := range srcs {
			if src == "" {
				continue // the empty module is valid; the binding cannot pass it
			}
			errs[i] = lavapipe.CompileWGSL(src)
			var ce *harness.CompileError
			if errs[i] != nil && !errors.As(errs[i], &ce) {
				t.Fatalf("naga: the device failed: %v", errs[i])
			}
		}
		return errs
	}}
}

// ptRequireTool fails the test when a validator could not be opened,
// saying how to install it when it is missing.
func ptRequireTool(t testing.TB, what string, err error) {
	t.Helper()
	var unknown *harness.UnknownAdapterError
	switch {
	case err == nil:
	case errors.Is(err, dawn.ErrNotInstalled), errors.As(err, &unknown):
		t.Fatalf("%s not found: run make deps (%v)", what, err)
	default:
		t.Fatalf("%s: %v", what, err)
	}
}

// ptValidators returns both validators.
func ptValidators(t testing.TB) []ptValidator {
	t.Helper()
	return []ptValidator{ptTintCheck(t), ptNagaCheck(t)}
}

// ptGaps names, per validator, a known reason it rejects a module that is
// valid WGSL: a fragment of its message. A gap is checked, not skipped: the
// validator must reject the module with that message, so a gap that closes
// (a newer validator) or a rejection for another reason fails the test.
type ptGaps map[string]string

// ptRequireAccepts asserts that v accepts src (err is v's verdict on it),
// or rejects it exactly for the reason gaps gives.
func ptRequireAccepts(t testing.TB, v ptValidator, gaps ptGaps, err error, src string) {
	t.Helper()
	why, gap := gaps[v.name]
	switch {
	case !gap:
		assert.NoError(t, err, "%s rejects this valid module:\n%s", v.name, src)
	case err == nil:
		t.Errorf("%s accepts this module now: its gap %q is obsolete", v.name, why)
	default:
		assert.Contains(t, err.Error(), why, "%s rejects this module, but not for its known gap", v.name)
	}
}

// TestMain ends Dawn's shared worker processes after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if ptTintValidator != nil {
		ptTintValidator.Close()
	}
	if ptDawnDevice != nil {
		ptDawnDevice.Close()
	}
	os.Exit(code)
}

var (
	ptDawnOnce   sync.Once
	ptDawnDevice *dawn.Device
	ptDawnErr    error
)

// ptTintConst is Tint's verdict on a module and, when it accepts it, the
// values it folded.
type ptTintConst struct {
	err  error      // Tint's rejection (*harness.CompileError), or nil
	vals []ir.Value // per function, in order
}

// ptTintValues asks Tint for the values of const-expressions: src declares
// functions k0 … k(n-1), k_i returning a scalar of type typs[i] (bool, i32,
// u32 or f32) computed by a const-expression. Tint evaluates every
// const-expression when it creates the shader module (WGSL #const-expr),
// so a kernel that calls each k_i and stores its bits reads back Tint's
// folded values; it runs on dawn-vulkan:swiftshader. A module Tint rejects
// returns its error.
func ptTintValues(t testing.TB, src string, typs []string) ptTintConst {
	t.Helper()
	ptDawnOnce.Do(func() { ptDawnDevice, ptDawnErr = dawn.Open("dawn-vulkan:swiftshader") })
	ptRequireTool(t, "Dawn on SwiftShader (node, the npm package webgpu, chromium's SwiftShader ICD)", ptDawnErr)
	var b strings.Builder
	b.WriteString(src)
	b.WriteString("\n@group(0) @binding(1) var<storage, read_write> pt_out: array<u32>;\n")
	b.WriteString("@compute @workgroup_size(1) fn pt_main() {\n")
	for i, typ := range typs {
		switch typ {
		case "bool":
			fmt.Fprintf(&b, "  pt_out[%d] = select(0u, 1u, k%d());\n", i, i)
		case "i32", "f32":
			fmt.Fprintf(&b, "  pt_out[%d] = bitcast<u32>(k%d());\n", i, i)
		case "u32":
			fmt.Fprintf(&b, "  pt_out[%d] = k%d();\n", i, i)
		default:
			t.Fatalf("ptTintValues: type %s", typ)
		}
	}
	b.WriteString("}\n")
	out, err := ptDawnDevice.Run(context.Background(), harness.Kernel{WGSL: b.String(), EntryPoint: "pt_main"},
		harness.Dispatch{OutputSize: 4 * len(typs), Invocations: 1})
	var ce *harness.CompileError
	if errors.As(err, &ce) && ce.Stage == harness.StageShaderModule {
		return ptTintConst{err: err}
	}
	require.NoError(t, err, "Dawn on SwiftShader:\n%s", b.String())
	vals := make([]ir.Value, len(typs))
	for i, typ := range typs {
		w := binary.LittleEndian.Uint32(out[4*i:])
		switch typ {
		case "bool":
			vals[i] = ir.BoolVal(w != 0)
		case "i32":
			vals[i] = ir.I32Val(int32(w))
		case "u32":
			vals[i] = ir.U32Val(w)
		case "f32":
			vals[i] = ir.F32Val(math.Float32frombits(w))
		}
	}
	return ptTintConst{vals: vals}
}
