package wgsl

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// TestPipelineConstants checks ParseWith's conversion of
// GPUPipelineConstantValues (WebGPU #typedefdef-gpupipelineconstantvalue:
// [EnforceRange] integers take the integer part, toward zero; f32 rounds
// to nearest; bool is value ≠ 0) by the value each kernel returns, and
// that the printed module carries the values (it parses back, with no
// constants, to the same function).
func TestPipelineConstants(t *testing.T) {
	const src = `@id(3) override a: i32;
override b: u32 = 1u;
override c: f32;
override d: bool;
override e = 2;
fn ka() -> i32 { return a; }
fn kb() -> u32 { return b; }
fn kc() -> f32 { return c; }
fn kd() -> bool { return d; }
fn ke() -> i32 { return e; }
`
	m, err := ParseWith("o.wgsl", []byte(src), ParseOptions{Overrides: map[string]float64{
		"3": -2.9, "b": 4294967295, "c": 0.1, "d": -0.5, "e": 7.99}})
	require.NoError(t, err)
	ret := func(name string) ir.Value {
		f := m.Func(name)
		require.NotNil(t, f, name)
		r, ok := f.Body.Stmts[len(f.Body.Stmts)-1].(*ir.Return)
		require.True(t, ok, name)
		lit, ok := r.Value.(*ir.Lit)
		require.True(t, ok, "%s returns %T, want the substituted literal", name, r.Value)
		return lit.Val
	}
	assert.Equal(t, int32(-2), ret("ka").I32(), "integer part of -2.9, toward zero")
	assert.Equal(t, uint32(math.MaxUint32), ret("kb").U32())
	assert.Equal(t, float32(0.1), ret("kc").F32(), "0.1 rounded to the nearest f32")
	assert.True(t, ret("kd").Bool(), "-0.5 ≠ 0")
	assert.Equal(t, int32(7), ret("ke").I32(), "an untyped override of an integer default is i32")

	again, err := Parse("o2.wgsl", []byte(ir.Print(m)))
	require.NoError(t, err, "the printed module runs with no constants:\n%s", ir.Print(m))
	for _, k := range []string{"ka", "kb", "kc", "kd", "ke"} {
		assert.Equal(t, ir.PrintFunc(m.Func(k)), ir.PrintFunc(again.Func(k)))
	}

	for _, c := range []struct {
		vals map[string]float64
		want string
	}{
		{map[string]float64{"3": 2147483648, "c": 0, "d": 0}, "pipeline constant 3 = 2.147483648e+09 for override 'a' (i32): its integer part is not in [-2147483648, 2147483647]"},
		{map[string]float64{"3": 0, "c": 1e39, "d": 0}, "for override 'c' (f32): not a finite f32"},
		{map[string]float64{"a": 0, "3": 0, "c": 0, "d": 0}, `pipeline constant "a" names no override of the module`},
	} {
		_, err := ParseWith("o.wgsl", []byte(src), ParseOptions{Overrides: c.vals})
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}
}

// TestOverrideWithoutDefaultGetsOne: an override with neither a default
// nor a pipeline constant (WebGPU would refuse the pipeline) gets
// DefaultOverrideConstant, converted as a constant is: 1 for i32, u32
// and f32, true for bool; its ir.Opaque records the --override argument
// that gives it (KEY=1, the @id when there is one) and its printed text
// has the value as initializer, so the printed module parses back (with
// no constants and nothing supplied) to the same functions. A given
// constant still wins and records nothing.
func TestOverrideWithoutDefaultGetsOne(t *testing.T) {
	const src = `@id(3) override a: i32;
override b: u32;
override c: f32;
override d: bool;
override e: u32 = 5u;
fn ka() -> i32 { return a; }
fn kb() -> u32 { return b; }
fn kc() -> f32 { return c; }
fn kd() -> bool { return d; }
fn ke() -> u32 { return e; }
`
	m, err := ParseWith("o.wgsl", []byte(src), ParseOptions{Overrides: map[string]float64{"b": 9}})
	require.NoError(t, err)
	lit := func(name string) ir.Value {
		r := m.Func(name).Body.Stmts[0].(*ir.Return)
		l, ok := r.Value.(*ir.Lit)
		require.True(t, ok, "%s returns %T", name, r.Value)
		return l.Val
	}
	assert.Equal(t, int32(1), lit("ka").I32())
	assert.Equal(t, uint32(9), lit("kb").U32(), "the given constant wins")
	assert.Equal(t, float32(1), lit("kc").F32())
	assert.True(t, lit("kd").Bool())
	assert.Equal(t, uint32(5), lit("ke").U32(), "a default stays")
	supplied := map[string]string{}
	for _, o := range m.Opaque {
		if o.Kind == "override" {
			supplied[o.Name] = o.Supplied
		}
	}
	assert.Equal(t, map[string]string{"a": "3=1", "b": "", "c": "c=1", "d": "d=1", "e": ""}, supplied)
	printed := ir.Print(m)
	// Printed as consts of the values the functions use (issue 25: the
	// printed module keeps its meaning), each with its override named.
	assert.Contains(t, printed, "const a: i32 = 1i;")
	assert.Contains(t, printed, "const d: bool = true;")
	assert.NotContains(t, printed, "\noverride ")
	again, err := Parse("o2.wgsl", []byte(printed))
	require.NoError(t, err, printed)
	for _, o := range again.Opaque {
		assert.Empty(t, o.Supplied, "%s: the printed module has every value", o.Name)
	}
	for _, k := range []string{"ka", "kb", "kc", "kd", "ke"} {
		assert.Equal(t, ir.PrintFunc(m.Func(k)), ir.PrintFunc(again.Func(k)))
	}
}
