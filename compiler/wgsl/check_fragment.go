package wgsl

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Checking @fragment entry points as written (ARCHITECTURE.md "Entry
// points as written (fragment)"): @builtin(position) as the one input,
// @location outputs (a value, or a struct whose members each have one).
// What gpudiff runs of them (no bindings, no derivatives, formats for the
// outputs) is FragmentEntry's (fragment.go).

// paramAttr checks an attribute of a function's parameter: @builtin of
// an entry point's parameter (builtinAttr; entryParam checks it against
// the stage). A fragment input @location, and anything else, is outside
// the subset.
func (c *chkCtx) paramAttr(f *ir.Func, at *astAttr) string {
	if at.name == "location" && f.Stage == ir.StageFragment {
		c.outsidef(at.off, "fragment input @location (gpudiff's vertex stage passes no values to the fragment stage; its input is @builtin(position))")
	}
	if at.name != "builtin" || f.Stage == ir.StageNone {
		c.outsidef(at.off, "parameter attribute @%s", at.name)
	}
	return c.builtinAttr(at)
}

// memberAttr checks one attribute of a struct member: @builtin (an entry
// point input) or @location (a fragment output), given the builtin and
// location read so far (loc < 0: none); others are outside the subset.
func (c *chkCtx) memberAttr(at *astAttr, builtin string, loc int) (string, int) {
	switch at.name {
	case "builtin":
		return c.builtinAttr(at), loc
	case "location":
		return builtin, c.locationAttr(at)
	}
	c.outsidef(at.off, "struct member attribute @%s", at.name)
	return builtin, loc
}

// locationAttr is the value of @location(n) (attrValues has checked it is
// a non-negative integer const-expression).
func (c *chkCtx) locationAttr(at *astAttr) int {
	return int(c.expr(at.args[0]).c.i)
}

// resultAttrs checks a function's return type and its attributes against
// its stage: a compute entry point returns nothing; an ordinary function's
// result has no attributes; a fragment entry point's result is a value
// with @location(n), or a struct (with no attribute of its own) whose
// members each have a @location, every output a numeric scalar or vector
// (WGSL #entry-point-io-types). @builtin(frag_depth) and
// @builtin(sample_mask) outputs, @interpolate, @invariant and @blend_src
// are outside the subset.
func (c *chkCtx) resultAttrs(f *ir.Func, a *astDecl) {
	switch f.Stage {
	case ir.StageNone:
		if len(a.retAttrs) > 0 {
			c.outsidef(a.retAttrs[0].off, "return type attribute @%s", a.retAttrs[0].name)
		}
		return
	case ir.StageCompute:
		if a.ret != nil {
			c.errorf(a.ret.off, "a compute entry point cannot return a value")
		}
		return
	}
	if a.ret == nil {
		return // FragmentEntry refuses a fragment entry point without outputs
	}
	res := f.Result
	if res.Kind == ir.KindStruct {
		if len(a.retAttrs) > 0 {
			c.errorf(a.retAttrs[0].off, "a fragment entry point returning a structure cannot have @%s on its return type: its members carry the @location attributes", a.retAttrs[0].name)
		}
		for _, fl := range res.Struct.Fields {
			switch {
			case fl.Builtin != "":
				c.outsidef(a.ret.off, "fragment output @builtin(%s) (member %s of %s)", fl.Builtin, fl.Name, res.Struct.Name)
			case !fl.HasLocation:
				c.errorf(a.ret.off, "member %s of %s, the output of fragment entry point '%s', needs a @location attribute (WGSL #entry-point-io-types)", fl.Name, res.Struct.Name, f.Name)
			}
			c.ioType(a.ret.off, fl.Type, "output member "+fl.Name)
		}
		return
	}
	loc := -1
	for _, at := range a.retAttrs {
		switch at.name {
		case "location":
			loc = c.locationAttr(at)
		case "builtin":
			c.outsidef(at.off, "fragment output @builtin (only @location outputs are read back)")
		default:
			c.outsidef(at.off, "return type attribute @%s", at.name)
		}
	}
	if loc < 0 {
		c.errorf(a.ret.off, "the result of fragment entry point '%s' needs a @location attribute (WGSL #entry-point-io-types)", f.Name)
	}
	c.ioType(a.ret.off, res, "output")
	f.ResultLocation = loc
}

// ioType refuses a fragment output type that is not a numeric scalar or
// vector (WGSL #entry-point-io-types: user-defined IO is numeric).
func (c *chkCtx) ioType(off int32, t *ir.Type, what string) {
	s := t
	if t.Kind == ir.KindVec {
		s = t.Elem
	}
	if s.Kind != ir.KindF32 && s.Kind != ir.KindI32 && s.Kind != ir.KindU32 {
		c.errorf(off, "a fragment entry point's %s must be a numeric scalar or vector, not %v (WGSL #entry-point-io-types)", what, t)
	}
}
