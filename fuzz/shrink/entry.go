package shrink

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// Edits for compute entry points as written (ARCHITECTURE.md "Entry points
// as written (compute)"). The generic edits drop one statement at a time,
// which cannot remove what a compute finding drags along: a barrier whose
// removal makes the shader racy (the reference then reports a race, not
// the finding), a workgroup tile every invocation reads after a barrier,
// a workgroup of 256 invocations where one shows the bug. These edits
// change the shape of the dispatch instead:
//
//   - shrink the workgroup: @workgroup_size to (1, 1, 1), then each
//     dimension halved;
//   - make a var<workgroup> without atomics a var<private> (one copy per
//     invocation: what an invocation reads back is what it wrote, no
//     other invocation's value), after which its barriers and the
//     invocations that fed it can go;
//   - drop every barrier of the call graph at once (dropping one of
//     several barriers guarding one tile leaves the shader as racy as
//     dropping all of them).
//
// An unused var<workgroup> is dropped by cleanup.

// entryEdits returns the workgroup-size edits of c's kernel when it is a
// compute entry point (Stream's edit 1b).
func entryEdits(c Case, add func(string, func(*Case) bool)) {
	k := c.Module.Func(c.Kernel)
	if k == nil || k.Stage != ir.StageCompute {
		return
	}
	wg := k.WorkgroupSize
	if wg[0]*wg[1]*wg[2] <= 1 {
		return
	}
	kernel := c.Kernel
	add("shrink the workgroup to one invocation", func(d *Case) bool {
		d.Module.Func(kernel).WorkgroupSize = [3]uint32{1, 1, 1}
		return true
	})
	for dim := 0; dim < 3; dim++ {
		if wg[dim] <= 1 {
			continue
		}
		dim := dim
		add(fmt.Sprintf("halve @workgroup_size's dimension %d", dim), func(d *Case) bool {
			f := d.Module.Func(kernel)
			f.WorkgroupSize[dim] /= 2
			return true
		})
	}
}

// sharedEdits returns the edits on c's workgroup variables and barriers
// (Stream's edit 8b).
func sharedEdits(c Case, add func(string, func(*Case) bool)) {
	k := c.Module.Func(c.Kernel)
	if k == nil || k.Stage != ir.StageCompute {
		return
	}
	for _, v := range c.Module.Shared {
		if v.Space != ir.SpaceWorkgroup || v.T.HasAtomic() {
			continue
		}
		name := v.Name
		add("make var<workgroup> "+name+" a var<private>", func(d *Case) bool { return privatize(d.Module, name) })
	}
	if countBarriers(c.Module, c.Kernel) > 1 {
		kernel := c.Kernel
		add("drop every barrier", func(d *Case) bool { return dropBarriers(d.Module, kernel) })
	}
}

// privatize turns the workgroup variable name of m into a module-scope
// var<private> of the same type (zero-initialized, as a var<workgroup>
// is at the start of a dispatch) and every reference to it into a
// reference to the private copy.
func privatize(m *ir.Module, name string) bool {
	idx := -1
	for i, v := range m.Shared {
		if v.Name == name && v.Space == ir.SpaceWorkgroup {
			idx = i
		}
	}
	if idx < 0 {
		return false
	}
	v := m.Shared[idx]
	m.Shared = append(append([]*ir.SharedVar(nil), m.Shared[:idx]...), m.Shared[idx+1:]...)
	m.Globals = append(m.Globals, &ir.Global{Pos: v.Pos, Name: v.Name, T: v.T})
	for _, f := range m.Funcs {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && id.Name == name && id.Ref == ir.RefShared {
				id.Ref = ir.RefGlobal
			}
			return true
		})
	}
	return true
}

// isBarrier reports whether s is a call of a barrier builtin as a
// statement (workgroupBarrier, storageBarrier, textureBarrier).
func isBarrier(s ir.Stmt) bool {
	es, ok := s.(*ir.ExprStmt)
	if !ok {
		return false
	}
	b, ok := es.X.(*ir.BuiltinCall)
	return ok && b.Fn.Info().Class == ir.ClassBarrier && b.T.IsVoid()
}

// countBarriers counts the barrier statements of kernel's call graph.
func countBarriers(m *ir.Module, kernel string) int {
	n := 0
	for _, f := range m.CallGraph(kernel) {
		ir.Inspect(f.Body, func(x ir.Node) bool {
			if s, ok := x.(ir.Stmt); ok && isBarrier(s) {
				n++
			}
			return true
		})
	}
	return n
}

// dropBarriers removes every barrier statement of kernel's call graph.
func dropBarriers(m *ir.Module, kernel string) bool {
	for _, f := range m.CallGraph(kernel) {
		ir.Inspect(f.Body, func(x ir.Node) bool {
			if b, ok := x.(*ir.Block); ok {
				kept := b.Stmts[:0]
				for _, s := range b.Stmts {
					if !isBarrier(s) {
						kept = append(kept, s)
					}
				}
				b.Stmts = kept
			}
			return true
		})
	}
	return true
}

// dropUnusedWorkgroupVars removes the var<workgroup> declarations no
// function of m refers to (bindings stay: a case's inputs name them).
func dropUnusedWorkgroupVars(m *ir.Module) {
	used := map[string]bool{}
	for _, f := range m.Funcs {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && id.Ref == ir.RefShared {
				used[id.Name] = true
			}
			return true
		})
	}
	kept := m.Shared[:0:0]
	for _, v := range m.Shared {
		if v.Space != ir.SpaceWorkgroup || used[v.Name] {
			kept = append(kept, v)
		}
	}
	m.Shared = kept
}

// workgroupInvocations is the number of invocations of kernel's workgroup
// when it is a compute entry point, else 0.
func workgroupInvocations(m *ir.Module, kernel string) int {
	f := m.Func(kernel)
	if f == nil || f.Stage != ir.StageCompute {
		return 0
	}
	return int(f.WorkgroupSize[0] * f.WorkgroupSize[1] * f.WorkgroupSize[2])
}
