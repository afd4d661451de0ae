package gen

import "github.com/gpudiff/gpudiff/ir"

// Places: reads and writes of variables and of their parts (v.x, v[i],
// v.zyx, s.f, a[i], a[i].f.y …), chosen through the typing context.

// reach reports whether a value of type from has a part whose type
// satisfies goal after at least minSteps accesses; write restricts the
// accesses to those WGSL allows on the left of an assignment (no
// multi-component swizzle).
func reach(from *ir.Type, goal func(*ir.Type) bool, write bool, minSteps int) bool {
	if minSteps <= 0 && goal(from) {
		return true
	}
	next := max(0, minSteps-1)
	switch from.Kind {
	case ir.KindVec:
		if next == 0 && goal(from.Elem) {
			return true
		}
		if !write && next == 0 {
			for m := 2; m <= 4; m++ {
				if goal(ir.Vec(m, from.Elem)) {
					return true
				}
			}
		}
	case ir.KindArray:
		return reach(from.Elem, goal, write, next)
	case ir.KindStruct:
		for _, f := range from.Struct.Fields {
			if reach(f.Type, goal, write, next) {
				return true
			}
		}
	}
	return false
}

func identical(t *ir.Type) func(*ir.Type) bool {
	return func(u *ir.Type) bool { return ir.Identical(t, u) }
}

// readPlace returns a read of a variable or part of one of type t, or nil.
func (c *fnGen) readPlace(t *ir.Type) ir.Expr { return c.readGoal(identical(t), false, 0) }

// readGoal returns a reference (write) or read of a variable part whose
// type satisfies goal, after at least minSteps accesses; nil when no
// variable in scope has one. Writes only start at writable variables and
// their indices never call helpers.
func (c *fnGen) readGoal(goal func(*ir.Type) bool, write bool, minSteps int) ir.Expr {
	vs := c.vars(func(v *variable) bool {
		return (!write || v.writable()) && reach(v.t, goal, write, minSteps)
	})
	if len(vs) == 0 {
		return nil
	}
	v := c.pickVar(vs)
	if write {
		c.noCalls++
		defer func() { c.noCalls-- }()
	}
	return c.descend(v.ident(), goal, write, minSteps)
}

// descend walks from e down to a part satisfying goal (reach(e.Type(), …)
// must hold), choosing randomly among the accesses that can still reach
// it.
func (c *fnGen) descend(e ir.Expr, goal func(*ir.Type) bool, write bool, minSteps int) ir.Expr {
	for {
		t := e.Type()
		next := max(0, minSteps-1)
		const (
			stop = iota
			comp
			multi
			elem
			field
		)
		var opts []int
		if minSteps <= 0 && goal(t) {
			opts = append(opts, stop, stop)
		}
		var multiLens []int
		var fields []int
		switch t.Kind {
		case ir.KindVec:
			if next == 0 && goal(t.Elem) {
				opts = append(opts, comp)
			}
			if _, isSwz := e.(*ir.Swizzle); !write && next == 0 && !isSwz {
				for m := 2; m <= 4; m++ {
					if goal(ir.Vec(m, t.Elem)) {
						multiLens = append(multiLens, m)
					}
				}
				if len(multiLens) > 0 {
					opts = append(opts, multi)
				}
			}
		case ir.KindArray:
			if reach(t.Elem, goal, write, next) {
				opts = append(opts, elem)
			}
		case ir.KindStruct:
			for i, f := range t.Struct.Fields {
				if reach(f.Type, goal, write, next) {
					fields = append(fields, i)
				}
			}
			if len(fields) > 0 {
				opts = append(opts, field)
			}
		}
		if len(opts) == 0 {
			panic("gen: descend: goal unreachable (reach/descend disagree)")
		}
		switch opts[c.r.intn(len(opts))] {
		case stop:
			return e
		case comp:
			if c.r.chance(50) {
				e = swizzle(e, uint8(c.r.intn(t.Len)))
			} else {
				e = index(e, c.index(t.Len))
			}
		case multi:
			m := multiLens[c.r.intn(len(multiLens))]
			comps := make([]uint8, m)
			for i := range comps {
				comps[i] = uint8(c.r.intn(t.Len))
			}
			e = swizzle(e, comps...)
		case elem:
			e = index(e, c.index(t.Len))
		case field:
			e = member(e, fields[c.r.intn(len(fields))])
		}
		minSteps = next
	}
}
