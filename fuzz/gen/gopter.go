package gen

import (
	"fmt"
	"math/rand"

	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/leanovate/gopter"
)

// The gopter generators: what a property about a compiler draws from.
// Each draw takes exactly one 64-bit seed from the parameters' Rng
// (params.Rng.Uint64()) and builds its value from that seed with gen's own
// SplitMix64 decisions, so a gopter seed reproduces a whole run and a value
// depends on nothing else (gopter's size parameters are not used: Config
// says how big). Every program generator's shrinker walks shrink.Stream —
// one-step, type-preserving, terminating reductions that keep the kernel —
// and counts its steps in Program.Shrunk; a shrunk program keeps the Seed
// it was drawn with.
//
// `gpudiff run` draws its programs from Programs with CampaignParameters,
// so program i of campaign seed s is Generate(ProgramSeed(s, i), cfg) on
// every machine, whether it is drawn by the campaign, by a gopter property
// or by Generate.

// Programs returns a gopter generator of *Program: Generate(seed, cfg) for
// a seed drawn from the parameters (see above). Its programs are those of
// `gpudiff run` with the same Config, Config.OutsideSubset's share of them
// outside flatten's subset (Program.OutsideSubset says which; pass a
// negative share for none).
func Programs(cfg Config) gopter.Gen {
	return func(params *gopter.GenParameters) *gopter.GenResult {
		return gopter.NewGenResult(Generate(params.Rng.Uint64(), cfg), shrinkProgram)
	}
}

// Gen is the package's first gopter generator, kept for the properties
// written against it: Programs, except that it draws its seed with
// params.NextUint64() (two Int63 draws) instead of params.Rng.Uint64(), so
// those properties keep drawing the programs they always drew. New code
// uses Programs.
func Gen(cfg Config) gopter.Gen {
	return func(params *gopter.GenParameters) *gopter.GenResult {
		return gopter.NewGenResult(Generate(params.NextUint64(), cfg), shrinkProgram)
	}
}

// Functions returns a gopter generator of single-function programs: the
// kernel alone, with no helper (so no call), its statement budget
// Config.Size, with the struct types and var<private> globals it uses;
// never outside flatten's subset. For properties of intra-procedural
// rewrites. Program.Seed regenerates it only through Functions.
func Functions(cfg Config) gopter.Gen {
	return shapeGen(cfg, shape{kind: shapeFunction})
}

// Statements returns a gopter generator of programs whose kernel body is
// one generated statement — any kind the profile weights, nested up to
// Config's caps and spending up to Config.Size statements — followed by
// the kernel's return (or a global write for a void kernel); helpers the
// statement may call are generated as in Programs; never outside
// flatten's subset.
func Statements(cfg Config) gopter.Gen {
	return shapeGen(cfg, shape{kind: shapeStatement})
}

// Expressions returns a gopter generator of programs whose kernel is
//
//	fn kernel(p0: T0, …) -> t { return e; }
//
// for a generated expression e of type t, at most min(Profile.ExprDepth,
// 1 + Size/10) deep, over the kernel's parameters, the private globals
// and calls of generated helpers; never outside flatten's subset. t must
// be a scalar, a vector, or an array of them (a type that needs no
// declaration in the module); Expressions panics otherwise.
func Expressions(t *ir.Type, cfg Config) gopter.Gen {
	if !declFree(t) {
		panic(fmt.Sprintf("gen.Expressions: type %v is not a scalar, vector or array of them", t))
	}
	return shapeGen(cfg, shape{kind: shapeExpression, t: t})
}

func declFree(t *ir.Type) bool {
	switch {
	case t == nil:
		return false
	case t.IsScalar(), t.Kind == ir.KindVec:
		return true
	case t.Kind == ir.KindArray:
		return declFree(t.Elem)
	}
	return false
}

func shapeGen(cfg Config, sh shape) gopter.Gen {
	return func(params *gopter.GenParameters) *gopter.GenResult {
		seed := params.Rng.Uint64()
		p := generateShape(&splitmix{s: seed}, cfg, sh)
		p.Seed = seed
		return gopter.NewGenResult(p, shrinkProgram)
	}
}

// shrinkProgram is the shrinker of every program generator: shrink.Stream
// without arguments (properties derive them, e.g. with Inputs).
func shrinkProgram(v interface{}) gopter.Shrink {
	p := v.(*Program)
	next := shrink.Stream(shrink.Case{Module: p.Module, Kernel: p.Kernel})
	return func() (interface{}, bool) {
		c, ok := next()
		if !ok {
			return nil, false
		}
		q := *p
		q.Module = c.Module
		q.Shrunk++
		return &q, true
	}
}

// Arguments returns a gopter generator of n invocations of arguments for
// params, [][]ir.Value indexed [invocation][parameter]: Inputs(seed,
// params, n) for a drawn seed (edge values first, f32 in the exact
// domain). Its shrinker keeps one invocation (each in turn), then either
// half, then sets one argument of one invocation to zero (ir.Zero).
func Arguments(params []*ir.Param, n int) gopter.Gen {
	return func(gp *gopter.GenParameters) *gopter.GenResult {
		return gopter.NewGenResult(Inputs(gp.Rng.Uint64(), params, n), shrinkArgs)
	}
}

func shrinkArgs(v interface{}) gopter.Shrink {
	args := v.([][]ir.Value)
	var cands []func() [][]ir.Value
	if len(args) > 1 {
		for i := range args {
			cands = append(cands, func() [][]ir.Value { return [][]ir.Value{args[i]} })
		}
		if len(args) > 2 {
			h := len(args) / 2
			cands = append(cands,
				func() [][]ir.Value { return args[:h:h] },
				func() [][]ir.Value { return args[h:] })
		}
	}
	for i, row := range args {
		for j, a := range row {
			if isZeroValue(a) {
				continue
			}
			cands = append(cands, func() [][]ir.Value {
				out := append([][]ir.Value(nil), args...)
				out[i] = append([]ir.Value(nil), row...)
				out[i][j] = ir.Zero(a.Type)
				return out
			})
		}
	}
	k := 0
	return func() (interface{}, bool) {
		if k == len(cands) {
			return nil, false
		}
		k++
		return cands[k-1](), true
	}
}

func isZeroValue(v ir.Value) bool {
	if len(v.Elems) == 0 {
		return v.Bits == 0
	}
	for _, e := range v.Elems {
		if !isZeroValue(e) {
			return false
		}
	}
	return true
}

// CampaignParameters returns the gopter parameters from which `gpudiff
// run` draws program index of the campaign seeded campaignSeed: their Rng
// is gen's SplitMix64 stream of campaignSeed (never math/rand's own
// source), advanced so that its next Uint64 is ProgramSeed(campaignSeed,
// index). So Programs(cfg) drawn from them gives Generate(ProgramSeed(
// campaignSeed, index), cfg) on every machine and Go version, and further
// draws from the same parameters give programs index+1, index+2, … of the
// campaign. The parameters are not safe for concurrent use; MaxSize is
// Config-independent (100, gopter's default) and unused by gen.
func CampaignParameters(campaignSeed uint64, index int) *gopter.GenParameters {
	// ProgramSeed(s, i) = mix64(mix64(s ^ K) + i·γ), the (i+1)-th output
	// of SplitMix64 started at mix64(s ^ K) - γ.
	start := mix64(campaignSeed^programSeedKey) + uint64(index)*splitmixGamma - splitmixGamma
	return &gopter.GenParameters{
		MaxSize:        100,
		MaxShrinkCount: 1000,
		Rng:            rand.New(&streamSource{splitmix{s: start}}),
	}
}

// streamSource is a SplitMix64 stream as a math/rand Source64, the Rng
// type gopter's parameters carry: Uint64 is the stream's next output,
// Int63 its top 63 bits.
type streamSource struct{ splitmix }

func (s *streamSource) Uint64() uint64  { return s.next() }
func (s *streamSource) Int63() int64    { return int64(s.next() >> 1) }
func (s *streamSource) Seed(seed int64) { s.s = uint64(seed) }
