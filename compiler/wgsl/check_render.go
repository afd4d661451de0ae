package wgsl

import (
	"github.com/gpudiff/gpudiff/ir"
)

// renderStages checks what WGSL allows in each stage's call graph (WGSL
// #shader-stages-sec, #discard-statement, #address-spaces,
// #derivatives), reporting each at the construct:
//   - discard only in the fragment stage;
//   - derivative builtins (dpdx & co) only in the fragment stage;
//   - subgroup and quad builtins only in the compute and fragment stages;
//   - var<workgroup> and the barriers only in the compute stage;
//   - no read_write storage buffer (or atomic) in the vertex stage (WGSL
//     #address-spaces: a vertex shader must not statically access one).
//
// It runs before Normalize's verification, which holds the IR to the
// first rule too.
func (mc *chkModule) renderStages(m *ir.Module) {
	for _, ep := range m.EntryPoints() {
		for _, f := range m.CallGraph(ep.Name) {
			ir.Inspect(f.Body, func(n ir.Node) bool {
				if mc.diags.full() {
					return false
				}
				report := func(pos ir.Pos, format string, args ...any) {
					mc.diags.list = append(mc.diags.list, ir.Errorf(m.File, pos, "check", format, args...))
				}
				switch x := n.(type) {
				case *ir.Discard:
					if ep.Stage != ir.StageFragment {
						report(x.Pos, "discard must only be used in the fragment stage, but %s entry point %s reaches it (WGSL #discard-statement)", ep.Stage, ep.Name)
					}
				case *ir.BuiltinCall:
					cl := x.Fn.Info().Class
					if cl == ir.ClassDerivative && ep.Stage != ir.StageFragment {
						report(x.Pos, "%s must only be used in the fragment stage, but %s entry point %s calls it (WGSL #derivative-builtin-functions)", x.Fn.Info().Name, ep.Stage, ep.Name)
					}
					if cl == ir.ClassSubgroup && ep.Stage == ir.StageVertex {
						report(x.Pos, "%s must only be used in the compute or fragment stage, but vertex entry point %s calls it (WGSL #subgroup-builtin-functions)", x.Fn.Info().Name, ep.Name)
					}
					if cl == ir.ClassBarrier && ep.Stage != ir.StageCompute {
						report(x.Pos, "%s must only be used in the compute stage, but %s entry point %s calls it (WGSL #sync-builtin-functions)", x.Fn.Info().Name, ep.Stage, ep.Name)
					}
				case *ir.Ident:
					if x.Ref != ir.RefShared || !ep.Stage.IsRenderStage() {
						break
					}
					g := m.SharedVar(x.Name)
					switch {
					case g == nil:
					case g.Space == ir.SpaceWorkgroup:
						report(x.Pos, "var<workgroup> %s is only accessible in the compute stage, but %s entry point %s uses it (WGSL #address-spaces)", x.Name, ep.Stage, ep.Name)
					case ep.Stage == ir.StageVertex && g.Writable():
						report(x.Pos, "var<storage, read_write> %s must not be accessed in the vertex stage, but vertex entry point %s uses it (WGSL #address-spaces)", x.Name, ep.Name)
					}
				}
				return true
			})
		}
	}
}
