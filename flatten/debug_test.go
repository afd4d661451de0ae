package flatten_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
)

// TestDebugSeed prints a generated program and its twin (and the first
// disagreement) for the seed in FLATTEN_SEED; it is skipped otherwise.
func TestDebugSeed(t *testing.T) {
	s := os.Getenv("FLATTEN_SEED")
	if s == "" {
		t.Skip("set FLATTEN_SEED")
	}
	seed, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	p := gen.Generate(seed, gen.Config{})
	t.Logf("original:\n%s", ir.Print(p.Module))
	twin, err := flatten.Function(p.Module, p.Kernel, flatten.Options{VerifyPasses: true, Strict: os.Getenv("FLATTEN_STRICT") != ""})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("twin:\n%s", ir.PrintFunc(twin))
	diff, err := sameBehaviour(p.Module, p.Kernel, twin.Name, gen.Inputs(p.Seed, p.Module.Func(p.Kernel).Params, 32))
	if err != nil || diff != "" {
		t.Fatalf("%v %s", err, diff)
	}
}

// TestDebugFile flattens the kernel "kernel" of the WGSL file in
// FLATTEN_FILE, prints the twin and compares it with the original on
// generated inputs; it is skipped otherwise.
func TestDebugFile(t *testing.T) {
	path := os.Getenv("FLATTEN_FILE")
	if path == "" {
		t.Skip("set FLATTEN_FILE")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := wgsl.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	k := os.Getenv("FLATTEN_KERNEL")
	if k == "" {
		k = "kernel"
	}
	twin, err := flatten.Function(m, k, flatten.Options{VerifyPasses: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("twin:\n%s", ir.PrintFunc(twin))
	diff, err := sameBehaviour(m, k, twin.Name, gen.Inputs(1, m.Func(k).Params, 64))
	if err != nil || diff != "" {
		t.Fatalf("%v %s", err, diff)
	}
}

// TestDebugDump writes the program of FLATTEN_SEED to FLATTEN_OUT.
func TestDebugDump(t *testing.T) {
	s, out := os.Getenv("FLATTEN_SEED"), os.Getenv("FLATTEN_OUT")
	if s == "" || out == "" {
		t.Skip("set FLATTEN_SEED and FLATTEN_OUT")
	}
	seed, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, []byte(ir.Print(gen.Generate(seed, gen.Config{}).Module)), 0o644); err != nil {
		t.Fatal(err)
	}
}
