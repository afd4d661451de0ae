package check

import (
	"testing"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Native fuzz targets for the GPU-free properties. The generator's choices
// are driven by the fuzzer's bytes (gen.FromBytes yields a valid program
// for every input), so coverage guidance steers program shapes. Seeds are
// committed under testdata/fuzz; `go test` runs them, and e.g.
//
//	go test -run '^$' -fuzz FuzzFlatten -fuzztime 60s ./check
//
// explores.

var fuzzSeeds = []string{"", "\x00", "flatten", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8",
	"loops and breaks and switches", "\x10\x20\x30\x40\x50\x60\x70\x80\x90\xa0",
	"calls in conditions && || select", "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"}

// FuzzFlatten: interp(twin) == interp(original) on every invocation, for
// the program any byte string decodes to — the campaign's flatten check,
// with no GPU. A program outside flatten's subset must be refused loudly;
// one inside it must not be refused.
func FuzzFlatten(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := gen.FromBytes(data, gen.Config{})
		if p.OutsideSubset == gen.OutsideRecursion {
			if _, err := flatten.Function(ir.CloneModule(p.Module), p.Kernel, flatten.Options{}); !flatten.IsRefusal(err) {
				t.Fatalf("recursion not refused: %v\n%s", err, ir.Print(p.Module))
			}
			return
		}
		c := &testcase.KernelCase{Module: p.Module, Kernel: p.Kernel, Args: gen.Inputs(1, p.Module.Func(p.Kernel).Params, 16)}
		res, err := Execute(t.Context(), c.Case(), Options{Flat: true, Flatten: flatten.Options{VerifyPasses: true}})
		if err != nil {
			t.Fatalf("%v\n%s", err, ir.Print(p.Module))
		}
		if res.FlattenErr != nil {
			if p.OutsideSubset == "" || !flatten.IsRefusal(res.FlattenErr) {
				t.Fatalf("flatten: %v\n%s", res.FlattenErr, ir.Print(p.Module))
			}
			return
		}
		if res.Verdict != oracle.Pass {
			fs := Attribute(res)
			t.Fatalf("%s: %v\n%s", res.Verdict, fs, ir.Print(p.Module))
		}
	})
}

// FuzzWGSLRoundTrip: the canonical printer and the WGSL front end agree.
// Printing a generated program and parsing it back gives a module that
// (1) prints to a fixed point — parsing and printing it again changes
// nothing (the first parse may fold const-expressions the generator wrote
// unfolded, such as a constant array indexed by a constant) — and
// (2) behaves the same: its kernel computes what the original computes on
// the same arguments in the interpreter.
func FuzzWGSLRoundTrip(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := gen.FromBytes(data, gen.Config{})
		if p.OutsideSubset == gen.OutsideRecursion {
			return // invalid WGSL by design
		}
		text := ir.Print(p.Module)
		m, err := wgsl.Parse("gen.wgsl", []byte(text))
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		once := ir.Print(m)
		m2, err := wgsl.Parse("gen.wgsl", []byte(once))
		if err != nil {
			t.Fatalf("reparse: %v\n%s", err, once)
		}
		if twice := ir.Print(m2); twice != once {
			t.Fatalf("printing is not a fixed point:\n--- once\n%s\n--- twice\n%s", once, twice)
		}
		k, err := wgsl.Kernel(m, p.Kernel)
		if err != nil {
			t.Fatal(err)
		}
		args := gen.Inputs(2, k.Params, 8)
		want, err := Execute(t.Context(), (&testcase.KernelCase{Module: p.Module, Kernel: p.Kernel, Args: args}).Case(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, invErr, err := interpRun(m, k.Name, args, interp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		js, v := oracle.Judge(want.Reference, want.Names, []oracle.Run{{Adapter: "interp", Function: k.Name, Format: "ir", Outputs: got, InvocationErr: invErr}})
		if v != oracle.Pass {
			t.Fatalf("the reparsed kernel behaves differently: %v\n%s", js[0].Diffs, text)
		}
	})
}

// FuzzInterp: the interpreter never panics and never hangs (the step limit
// ends a run) on any generated program with arguments drawn from the
// fuzzer's bytes — including NaN, infinities and INT_MIN, which the
// generator's own inputs avoid.
func FuzzInterp(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), uint64(len(s)))
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		p := gen.FromBytes(data, gen.Config{})
		if p.OutsideSubset == gen.OutsideRecursion {
			return
		}
		fn := p.Module.Func(p.Kernel)
		args := gen.Inputs(seed, fn.Params, 4)
		// Overwrite some scalar leaves with raw bit patterns from the input.
		k := 0
		for i := range args {
			for j := range args[i] {
				args[i][j] = scramble(args[i][j], data, &k)
			}
		}
		invs, err := interp.Run(p.Module, p.Kernel, args, interp.Options{MaxSteps: 200_000})
		if err != nil {
			t.Fatal(err)
		}
		if len(invs) != len(args) {
			t.Fatalf("%d invocations for %d argument sets", len(invs), len(args))
		}
	})
}

// scramble replaces scalar leaves of v with 32-bit patterns taken from data.
func scramble(v ir.Value, data []byte, k *int) ir.Value {
	if v.Type.IsScalar() {
		if *k+4 > len(data) {
			return v
		}
		bits := uint32(data[*k]) | uint32(data[*k+1])<<8 | uint32(data[*k+2])<<16 | uint32(data[*k+3])<<24
		*k += 4
		if v.Type.Kind == ir.KindBool {
			bits &= 1
		}
		return ir.ScalarVal(v.Type, bits)
	}
	out := v.Clone()
	for i := range out.Elems {
		out.Elems[i] = scramble(out.Elems[i], data, k)
	}
	return out
}

// TestGeneratedProgramsPrintAndParse: the canonical text of every
// generated program of a few campaigns reads back with the WGSL front end
// (which follows WGSL's template-list discovery, as Tint does). Seed 8
// program 73 once printed `select(p && i < j, a >= b, c)`, which both read
// as a template.
func TestGeneratedProgramsPrintAndParse(t *testing.T) {
	prof, err := gen.LookupProfile("default")
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{1, 2, 8} {
		for i := 0; i < 1000; i++ {
			p := gen.Generate(gen.ProgramSeed(seed, i), gen.Config{Size: gen.DefaultSize, Profile: prof})
			if p.OutsideSubset == gen.OutsideRecursion {
				continue // invalid WGSL by design
			}
			text := ir.Print(p.Module)
			if _, err := wgsl.Parse("gen.wgsl", []byte(text)); err != nil {
				t.Fatalf("seed %d program %d: %v\n%s", seed, i, err, text)
			}
		}
	}
}
