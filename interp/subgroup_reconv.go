package interp

import (
	"fmt"
)

// markReconvergence sets out's reconvergence marks (runOut.reconv) from
// the taint run t (subgroup.go, "Reconvergence"): a leaf of a storage
// binding that out leaves determinate and t indeterminate depends on the
// result of one of the calls hit (sites not in uniform control flow that
// ran).
func (d *Dispatch) markReconvergence(out, t *runOut, hit []*sgSite) {
	for i := range d.e.vars {
		if out.mem[i] == nil || out.anyWhy != nil && out.anyWhy[i] != "" {
			continue
		}
		n := out.mem[i].n()
		var marks []bool
		for j := int32(0); j < n; j++ {
			if out.mem[i].get(j).why < 0 {
				continue
			}
			tainted := t.anyWhy != nil && t.anyWhy[i] != ""
			if !tainted && t.mem[i] != nil && j < t.mem[i].n() {
				tainted = t.mem[i].get(j).why < 0
			}
			if !tainted {
				continue
			}
			if marks == nil {
				marks = make([]bool, n)
			}
			marks[j] = true
		}
		if marks == nil {
			continue
		}
		if out.reconv == nil {
			out.reconv = make([][]bool, len(d.e.vars))
		}
		out.reconv[i] = marks
	}
	if out.reconv == nil {
		return
	}
	c := hit[0].call
	at := c.Pos.String()
	if f := d.p.file; f != "" {
		at = f + ":" + at
	}
	out.reconvWhy = fmt.Sprintf("%s: %s runs in non-uniform control flow, where which invocations execute it together is the implementation's choice (WGSL #subgroup-ops); the reference's value assumes maximal reconvergence, and the leaves that depend on it are marked Reconvergence", at, nodeText(c))
	if len(hit) > 1 {
		out.reconvWhy += fmt.Sprintf(" (and %d other such calls)", len(hit)-1)
	}
}
