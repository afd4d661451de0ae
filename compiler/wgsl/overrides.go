package wgsl

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// ParseOptions configures ParseWith.
type ParseOptions struct {
	// Overrides are the pipeline-overridable constants a pipeline is
	// created with (WebGPU #dom-gpuprogrammablestage-constants): each key
	// is an override's @id in decimal or, for an override without @id,
	// its name; each value is converted to the override's type as WebGPU
	// converts a GPUPipelineConstantValue (#typedefdef-gpupipelineconstantvalue):
	// bool is value ≠ 0; i32 and u32 take the integer part, which must be
	// in range ([EnforceRange]); f32 rounds to nearest and must be finite.
	// A key naming no override of the module, or a value that does not
	// convert, is an error. Overrides without a value keep their
	// default; one without a default and without a value (WebGPU makes
	// creating such a pipeline an error) gets DefaultOverrideConstant,
	// recorded in its ir.Opaque's Supplied.
	Overrides map[string]float64
}

// ParseWith is Parse with options: the overrides' values are substituted
// at every use, as their defaults are by Parse.
func ParseWith(file string, src []byte, opts ParseOptions) (*ir.Module, error) {
	return parse(file, src, opts)
}

// DefaultOverrideConstant is the pipeline constant gpudiff supplies for an
// override that has neither a default value nor one given
// (ParseOptions.Overrides, --override NAME=VALUE), as it makes up inputs:
// converted like any GPUPipelineConstantValue it is true for a bool and 1
// for an i32, u32 or f32 — the smallest value valid wherever an override
// may appear as a count (@workgroup_size, WGSL #attr-workgroup_size, and
// an array's element count, #array-types, both ≥ 1). The parsed module
// keeps it as the declaration's initializer (a case file replays the same
// run) and in the ir.Opaque's Supplied, for the note the caller prints.
const DefaultOverrideConstant = 1.0

// overrideValue returns the value the pipeline supplies for the override
// being checked (key: its @id or name, overrideKey), converted to type t,
// and whether one is supplied. A conversion failure is an error at the
// declaration. With none supplied and no initializer, gpudiff supplies
// DefaultOverrideConstant.
func (c *chkCtx) overrideValue(key string, t *chkType) (chkOp, bool) {
	a := c.d.a
	v, ok := c.mc.overrides[key]
	if ok {
		c.mc.usedOverrides[key] = true
	} else if a.init == nil {
		v = DefaultOverrideConstant
	} else {
		return chkOp{}, false
	}
	bad := func(why string) {
		c.errorf(a.nameOff, "pipeline constant %s = %v for override '%s' (%v): %s (WebGPU GPUPipelineConstantValue conversion)", key, v, a.name, t, why)
	}
	var cv cVal
	switch t.k {
	case ckBool:
		cv = cvBool(v != 0)
	case ckI32, ckU32:
		lo, hi := float64(math.MinInt32), float64(math.MaxInt32)
		if t.k == ckU32 {
			lo, hi = 0, float64(math.MaxUint32)
		}
		x := math.Trunc(v)
		if math.IsNaN(v) || math.IsInf(v, 0) || x < lo || x > hi {
			bad(fmt.Sprintf("its integer part is not in [%.0f, %.0f]", lo, hi))
		}
		cv = cvInt(t, int64(x))
	case ckF32:
		f := float64(float32(v))
		if math.IsNaN(v) || math.IsInf(f, 0) {
			bad("not a finite f32")
		}
		cv = cvFloat(t, f)
	case ckF16:
		f, err := cvF16(v, "pipeline constant")
		if err != nil || math.IsNaN(v) {
			bad("not within the finite range of f16")
		}
		cv = cvFloat(t, f)
	default:
		bad("an override is a bool, i32, u32, f32 or f16 scalar")
	}
	if !ok {
		c.d.defaulted = key + "=" + strconv.FormatFloat(DefaultOverrideConstant, 'g', -1, 64)
	}
	return c.constOp(cv, a.nameOff), true
}

// specializedOverride is the text override declaration a (checked as d)
// is kept as in the parsed module (ir.Opaque.Text, which every printed and
// emitted module and every case file carries): a const of the override's
// value — the pipeline constant given, else its default, else
// DefaultOverrideConstant (no comment: the printed module must print
// the same once parsed again, and comments are not kept). The
// functions use that value, substituted at every use, so a printed
// `override` would let a reader, or a pipeline given other constants,
// change the declaration while the functions keep the old value (issue
// 25); as a const the printed module keeps its meaning, and naming it in
// --override is an error rather than a silent no-op.
func specializedOverride(a *astDecl, d *chkDecl) string {
	return fmt.Sprintf("const %s: %v = %s;", a.name, d.c.t, cvWGSL(*d.c))
}

// cvWGSL spells a scalar value of a concrete type as a WGSL literal
// expression that evaluates to it exactly (f32: the shortest decimal
// that rounds to the value).
func cvWGSL(v cVal) string {
	switch v.t.k {
	case ckBool:
		return strconv.FormatBool(v.b)
	case ckI32:
		if v.i == math.MinInt32 {
			return "i32(-2147483648)" // -2147483648i would negate an out-of-range literal
		}
		return strconv.FormatInt(v.i, 10) + "i"
	case ckU32:
		return strconv.FormatInt(v.i, 10) + "u"
	case ckF16:
		return ir.FormatF16(uint16(cvBits(v)))
	}
	return strconv.FormatFloat(v.f, 'g', -1, 32) + "f"
}

// unusedOverrides reports the supplied pipeline constants that name no
// override of the module (WebGPU: a pipeline-creation error).
func (mc *chkModule) unusedOverrides() {
	var keys []string
	for k := range mc.overrides {
		if !mc.usedOverrides[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var have []string
	for _, d := range mc.decls {
		if d.a.kind == "override" {
			have = append(have, d.overrideKey)
		}
	}
	for _, k := range keys {
		mc.diags.list = append(mc.diags.list, &ir.Error{File: mc.file, Pass: "check",
			Msg: fmt.Sprintf("pipeline constant %q names no override of the module (the key of an override is its @id when it has one, else its name; this module's keys: %s)", k, strings.Join(have, ", "))})
	}
}
