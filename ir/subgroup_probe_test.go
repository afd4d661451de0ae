package ir

import (
	"strings"
	"testing"
)

// AddSubgroupProbe stores each invocation's subgroup facts at g·W + l,
// reusing the entry point's own builtins and taking the next free binding
// of the highest group; UsesSubgroups and UsesF16 see what the module
// needs.
func TestAddSubgroupProbe(t *testing.T) {
	out := &SharedVar{Name: "out", T: &Type{Kind: KindRuntimeArray, Elem: U32}, Space: SpaceStorage, Access: AccessReadWrite, Group: 1, Binding: 3}
	in := &SharedVar{Name: "in", T: &Type{Kind: KindRuntimeArray, Elem: F16}, Space: SpaceStorage, Access: AccessRead, Group: 0, Binding: 7}
	lidx := &Param{Name: "li", T: U32, Builtin: "local_invocation_index"}
	f := &Func{Name: "main", Stage: StageCompute, WorkgroupSize: [3]uint32{8, 2, 1}, Params: []*Param{lidx}, Body: NewBlock(Pos{},
		&Assign{LHS: &Index{X: &Ident{Name: "out", T: out.T, Ref: RefShared}, Index: &Ident{Name: "li", T: U32, Ref: RefParam}, T: U32},
			RHS: &Convert{T: U32, X: &Index{X: &Ident{Name: "in", T: in.T, Ref: RefShared}, Index: &Ident{Name: "li", T: U32, Ref: RefParam}, T: F16}}})}
	m := &Module{Shared: []*SharedVar{in, out}, Funcs: []*Func{f}}
	if m.UsesSubgroups("main") {
		t.Errorf("UsesSubgroups before the probe: true")
	}
	if !m.UsesF16("main") {
		t.Errorf("UsesF16: false for a module reading an array<f16>")
	}
	p, err := AddSubgroupProbe(m, "main")
	if err != nil {
		t.Fatal(err)
	}
	if p.Var.Group != 1 || p.Var.Binding != 4 {
		t.Errorf("probe at @group(%d) @binding(%d), want group 1 binding 4 (after out's 3)", p.Var.Group, p.Var.Binding)
	}
	if !m.UsesSubgroups("main") {
		t.Errorf("UsesSubgroups after the probe: false")
	}
	var names []string
	for _, p := range f.Params {
		names = append(names, p.Builtin)
	}
	if got := strings.Join(names, " "); got != "local_invocation_index workgroup_id num_workgroups subgroup_invocation_id subgroup_size" {
		t.Errorf("entry builtins %q: want the existing local_invocation_index reused and the four others added", got)
	}
	s := Print(m)
	for _, want := range []string{"gpudiff_subgroup_probe[(gpudiff_workgroup_id.x + gpudiff_num_workgroups.x * (gpudiff_workgroup_id.y + gpudiff_num_workgroups.y * gpudiff_workgroup_id.z)) * 16u + li] = vec4<u32>(gpudiff_subgroup_invocation_id, subgroupBroadcastFirst(li), gpudiff_subgroup_size, 1u)", "subgroupBroadcastFirst(li)"} {
		if !strings.Contains(s, want) {
			t.Errorf("printed module lacks %q:\n%s", want, s)
		}
	}
	if _, err := AddSubgroupProbe(m, "nope"); err == nil {
		t.Errorf("a probe of a missing entry point: no error")
	}
}
