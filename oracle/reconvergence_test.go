package oracle

import (
	"testing"

	"github.com/gpudiff/gpudiff/ir"
)

// A leaf marked Reconvergence (its value depends on which invocations ran
// a subgroup operation together in divergent control flow) excuses a
// device's difference as the Reconvergence verdict, never a mismatch; the
// interpreter's twin run is held to the maximal reconvergence value; an
// unmarked leaf that differs is a mismatch whatever the marks elsewhere.
func TestReconvergenceVerdict(t *testing.T) {
	// Two leaves: [0] from subgroupAdd(1) under if (lidx % 4 < 2), 4 under
	// maximal reconvergence on a subgroup of 8 (the example: a
	// device may run the two halves apart and give 2); [1] determinate.
	v := ir.CompositeVal(ir.Vec(2, ir.U32), ir.U32Val(4), ir.U32Val(7))
	ref := [][]Expected{{{Value: v, Reconvergence: []bool{true, false}}}}
	run := func(adapter string, a, b uint32) Run {
		return Run{Adapter: adapter, Outputs: [][]Expected{{{Value: ir.CompositeVal(ir.Vec(2, ir.U32), ir.U32Val(a), ir.U32Val(b))}}}}
	}
	for _, c := range []struct {
		name string
		run  Run
		want Verdict
	}{
		{"device agrees", run("dawn-vulkan:llvmpipe-mesa25", 4, 7), Pass},
		{"device split the active set", run("dawn-vulkan:llvmpipe-mesa25", 2, 7), Reconvergence},
		{"device differs in a determinate leaf", run("dawn-vulkan:llvmpipe-mesa25", 2, 6), Mismatch},
		{"twin's reference differs from maximal reconvergence", run("interp", 2, 7), Mismatch},
	} {
		js, overall := Judge(ref, []string{"out"}, []Run{c.run})
		if overall != c.want || js[0].Verdict != c.want {
			t.Errorf("%s: verdict %s (run %s), want %s", c.name, overall, js[0].Verdict, c.want)
		}
		if c.want == Reconvergence && (len(js[0].Reconverged) != 1 || len(js[0].Mismatches) != 0) {
			t.Errorf("%s: reconverged %v mismatches %v, want invocation 0 reconverged only", c.name, js[0].Reconverged, js[0].Mismatches)
		}
	}
}

// f16 leaves compare by value within the tolerance, with binary16's
// subnormal range (below 2^-14) flushable: 0x0001 (2^-24) equals 0.
func TestF16LeafEqual(t *testing.T) {
	one, next := ir.F16Bits(0x3C00), ir.F16Bits(0x3C01) // 1.0 and 1 + 2^-10
	if LeafEqual(one, next, 0) {
		t.Errorf("1.0h and 1.0009765625h equal with no tolerance")
	}
	if !LeafEqual(one, next, 0x1p-10) {
		t.Errorf("1.0h and 1.0009765625h differ within one binary16 ULP (2^-10)")
	}
	if !LeafEqual(ir.F16Bits(0x0001), ir.F16Bits(0x0000), 0) {
		t.Errorf("the least binary16 subnormal is not flushable to 0")
	}
	if LeafEqual(ir.F16Bits(0x0400), ir.F16Bits(0x0000), 0) {
		t.Errorf("2^-14, the least normal binary16, equals 0")
	}
	if LeafEqual(ir.F16Bits(0x7C00), ir.F16Bits(0x7BFF), 1e9) {
		t.Errorf("+Inf equals 65504 within any tolerance")
	}
}
