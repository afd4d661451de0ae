package interp

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// rkind is why a leaf is indeterminate or inexact.
type rkind uint8

// The f32 kinds come first and in this order: an f32 operation site
// allocates one reason of each, contiguously, and an fstatus is the
// offset of its kind within that block.
const (
	rInexact   rkind = iota // within an error bound WGSL grants
	rOverflow               // overflow, infinity or NaN (finite math assumption)
	rDomain                 // outside the input range where accuracy is specified
	rAmbiguous              // outcome may change within the operands' error bounds
	rSubnormal              // flushing a subnormal input changes the outcome
	nSiteKinds

	rOOBRead  // out-of-bounds or indeterminate index on a read
	rOOBWrite // out-of-bounds or indeterminate index on a write
	rArg      // non-finite f32 argument
	rBranch   // control flow on an indeterminate value
	rConst    // non-finite f32 literal
	rBitcast  // bitcast to or from a value WGSL may flush or forbid
	rConvert  // conversion of a subnormal or inexact f32 to bool
	rAtomic   // the value an atomic read-modify-write returns (order-dependent)
	rWeakCAS  // a location atomicCompareExchangeWeak may or may not have stored to
	rReassoc  // constants a reassociating compiler may combine first overflow
)

// reason is a positioned cause, formatted only when an output needs it.
type reason struct {
	pos  ir.Pos
	kind rkind
	node ir.Node // the expression or statement concerned
	what string  // extra detail: the accuracy rule, a variable name, …
}

// addReason appends a reason and returns its id (≥ 1).
func (c *compiler) addReason(pos ir.Pos, kind rkind, node ir.Node, what string) int32 {
	c.p.reasons = append(c.p.reasons, reason{pos: pos, kind: kind, node: node, what: what})
	return int32(len(c.p.reasons))
}

// site allocates the block of f32 reasons for an operation and returns
// the id of its first (rInexact) reason; kind k of the block is base+k.
func (c *compiler) site(pos ir.Pos, node ir.Node, accuracy string) int32 {
	base := c.addReason(pos, rInexact, node, accuracy)
	for k := rInexact + 1; k < nSiteKinds; k++ {
		c.addReason(pos, k, node, accuracy)
	}
	return base
}

func nodeText(n ir.Node) string {
	switch n := n.(type) {
	case nil:
		return "?"
	case ir.Expr:
		s := ir.PrintExpr(n)
		if len(s) > 80 {
			s = s[:77] + "..."
		}
		return s
	case *ir.If:
		return "if (" + nodeText(n.Cond) + ")"
	case *ir.Loop:
		if n.BreakIf != nil {
			return "break if " + nodeText(n.BreakIf)
		}
		return "loop"
	case *ir.Switch:
		return "switch (" + nodeText(n.Selector) + ")"
	case *ir.Assign:
		return nodeText(n.LHS)
	}
	return fmt.Sprintf("%T", n)
}

// text formats reason id (positive or negative) as "line:col: message".
func (p *Program) reasonText(id int32) string {
	if id < 0 {
		id = -id
	}
	if id == 0 || int(id) > len(p.reasons) {
		return ""
	}
	r := &p.reasons[id-1]
	var msg string
	t := nodeText(r.node)
	switch r.kind {
	case rInexact:
		msg = fmt.Sprintf("%s is not exact in f32 (%s; WGSL #concrete-float-accuracy)", t, r.what)
	case rOverflow:
		msg = fmt.Sprintf("f32 overflow or non-finite result in %s (finite math assumption, WGSL #differences-from-ieee754)", t)
	case rDomain:
		msg = fmt.Sprintf("%s is evaluated outside the range where WGSL specifies its accuracy (%s)", t, r.what)
	case rAmbiguous:
		msg = fmt.Sprintf("the outcome of %s can change within the f32 error bounds of its operands", t)
	case rSubnormal:
		msg = fmt.Sprintf("a subnormal input of %s may be flushed to zero, which changes the result (WGSL #differences-from-ieee754)", t)
	case rOOBRead:
		msg = fmt.Sprintf("index out of bounds or indeterminate in %s: the value read is indeterminate (WGSL #array-access-expr)", t)
	case rOOBWrite:
		msg = fmt.Sprintf("index out of bounds or indeterminate in the store to %s: the whole variable %s is indeterminate (invalid memory reference, WGSL #array-access-expr)", t, r.what)
	case rArg:
		msg = fmt.Sprintf("argument %s is not a finite f32 (finite math assumption, WGSL #differences-from-ieee754)", r.what)
	case rBranch:
		msg = fmt.Sprintf("%s depends on an indeterminate value: the reference runs it every way WGSL allows and takes the union of the outcomes, or, past its budget, makes everything the invocation can still write indeterminate", t)
	case rAtomic:
		msg = fmt.Sprintf("the value %s returns depends on the order of the atomic operations of concurrent invocations, which WGSL leaves unspecified (WGSL #atomic-rmw, #memory-model)", t)
	case rWeakCAS:
		msg = fmt.Sprintf("%s compared equal, but atomicCompareExchangeWeak may fail spuriously and leave the old value: the location holds the old or the new value (WGSL #atomic-compare-exchange-weak)", t)
	case rReassoc:
		msg = fmt.Sprintf("%s: a compiler may combine its two constants first (WGSL #reassociation-and-fusion), which overflows f32 (finite math assumption)", t)
	case rConst:
		msg = fmt.Sprintf("literal %s is not a finite f32", t)
	case rBitcast:
		msg = fmt.Sprintf("%s: %s", t, r.what)
	case rConvert:
		msg = fmt.Sprintf("%s converts a subnormal or inexact f32 to bool, which may flush to zero", t)
	default:
		msg = t
	}
	if r.pos.IsValid() {
		return r.pos.String() + ": " + msg
	}
	return msg
}
