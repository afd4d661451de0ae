package ir

import "fmt"

// UnaryOp is a prefix operator.
type UnaryOp uint8

const (
	OpNeg   UnaryOp = iota + 1 // -x   (i32, f32, vectors of them; wraps for i32)
	OpNot                      // !x   (bool, vecN<bool>)
	OpCompl                    // ~x   (i32, u32, vectors of them)
)

var unarySyms = [...]string{OpNeg: "-", OpNot: "!", OpCompl: "~"}

func (op UnaryOp) String() string {
	if int(op) < len(unarySyms) && unarySyms[op] != "" {
		return unarySyms[op]
	}
	return fmt.Sprintf("UnaryOp(%d)", op)
}

// BinaryOp is an infix operator. OpNone marks a plain (non-compound)
// assignment in Assign.Op.
type BinaryOp uint8

const (
	OpNone BinaryOp = iota
	OpAdd
	OpSub
	OpMul
	OpDiv
	OpRem
	OpAnd // & (integers; non-short-circuit on bool)
	OpOr  // | (integers; non-short-circuit on bool)
	OpXor
	OpShl
	OpShr
	OpLogAnd // && (short-circuit, bool)
	OpLogOr  // || (short-circuit, bool)
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	numBinaryOps
)

// OpClass groups binary operators by their typing rule.
type OpClass uint8

const (
	ClassArith    OpClass = iota + 1 // + - * / %: numeric, scalar-vector mixing allowed
	ClassBitwise                     // & | ^: same integer (or, for & |, bool) types
	ClassShift                       // << >>: integer lhs, u32-shaped rhs
	ClassLogical                     // && ||: bool scalars
	ClassEquality                    // == !=: any scalar/vector, result bool-shaped
	ClassOrder                       // < <= > >=: numeric, result bool-shaped
)

// BinaryInfo is the metadata of a binary operator, indexed by BinaryOp.
type BinaryInfo struct {
	Sym         string
	Class       OpClass
	Commutative bool
	// Compound reports whether the operator has a compound assignment
	// form (op=) in WGSL.
	Compound bool
}

// BinaryOps is the operator table (WGSL §8.7–8.9).
var BinaryOps = [numBinaryOps]BinaryInfo{
	OpAdd:    {"+", ClassArith, true, true},
	OpSub:    {"-", ClassArith, false, true},
	OpMul:    {"*", ClassArith, true, true},
	OpDiv:    {"/", ClassArith, false, true},
	OpRem:    {"%", ClassArith, false, true},
	OpAnd:    {"&", ClassBitwise, true, true},
	OpOr:     {"|", ClassBitwise, true, true},
	OpXor:    {"^", ClassBitwise, true, true},
	OpShl:    {"<<", ClassShift, false, true},
	OpShr:    {">>", ClassShift, false, true},
	OpLogAnd: {"&&", ClassLogical, false, false},
	OpLogOr:  {"||", ClassLogical, false, false},
	OpEq:     {"==", ClassEquality, true, false},
	OpNe:     {"!=", ClassEquality, true, false},
	OpLt:     {"<", ClassOrder, false, false},
	OpLe:     {"<=", ClassOrder, false, false},
	OpGt:     {">", ClassOrder, false, false},
	OpGe:     {">=", ClassOrder, false, false},
}

func (op BinaryOp) String() string {
	if op > OpNone && op < numBinaryOps {
		return BinaryOps[op].Sym
	}
	return fmt.Sprintf("BinaryOp(%d)", op)
}

// Info returns op's table entry.
func (op BinaryOp) Info() BinaryInfo { return BinaryOps[op] }

// BinaryOpBySym returns the operator spelled sym, or OpNone.
func BinaryOpBySym(sym string) BinaryOp {
	for op := OpAdd; op < numBinaryOps; op++ {
		if BinaryOps[op].Sym == sym {
			return op
		}
	}
	return OpNone
}

// BoolShaped returns bool for a scalar t and vecN<bool> for a vecN t.
func BoolShaped(t *Type) *Type { return t.WithScalar(Bool) }

// UnaryResultType types op applied to an operand of type x (WGSL §8.6,
// §8.7, §8.9), or returns an error message.
func UnaryResultType(op UnaryOp, x *Type) (*Type, error) {
	s := x.Scalar()
	ok := false
	switch op {
	case OpNeg:
		ok = s != nil && (s.Kind == KindI32 || s.IsFloat())
	case OpNot:
		ok = s != nil && s.Kind == KindBool
	case OpCompl:
		ok = s.IsInteger()
	}
	if !ok {
		return nil, fmt.Errorf("operator %s is not defined for %v", op, x)
	}
	return x, nil
}

// BinaryResultType types x op y (WGSL §8.7–8.9), or returns an error
// message.
func BinaryResultType(op BinaryOp, x, y *Type) (*Type, error) {
	bad := func() (*Type, error) {
		return nil, fmt.Errorf("operator %s is not defined for %v and %v", op, x, y)
	}
	if x.IsMat() || y.IsMat() {
		if t := MatrixResultType(op, x, y); t != nil {
			return t, nil
		}
		return bad()
	}
	xs, ys := x.Scalar(), y.Scalar()
	if xs == nil || ys == nil {
		return bad()
	}
	switch op.Info().Class {
	case ClassArith:
		if xs.Kind == KindBool || !Identical(xs, ys) {
			return bad()
		}
		switch {
		case Identical(x, y):
			return x, nil
		case x.Kind == KindVec && y.IsScalar():
			return x, nil
		case x.IsScalar() && y.Kind == KindVec:
			return y, nil
		}
	case ClassBitwise:
		if Identical(x, y) && (xs.IsInteger() || (xs.Kind == KindBool && op != OpXor)) {
			return x, nil
		}
	case ClassShift:
		if xs.IsInteger() && ys.Kind == KindU32 && x.Width() == y.Width() {
			return x, nil
		}
	case ClassLogical:
		if x.Kind == KindBool && y.Kind == KindBool {
			return Bool, nil
		}
	case ClassEquality:
		if Identical(x, y) {
			return BoolShaped(x), nil
		}
	case ClassOrder:
		if Identical(x, y) && xs.Kind != KindBool {
			return BoolShaped(x), nil
		}
	}
	return bad()
}

// MatrixResultType types x op y where x or y is a matrix (WGSL
// #matrix-arithmetic), or returns nil: matCxR ± matCxR is matCxR;
// matCxR * f32 and f32 * matCxR are matCxR; matCxR * vecC is vecR;
// vecR * matCxR is vecC; matKxR * matCxK is matCxR.
func MatrixResultType(op BinaryOp, x, y *Type) *Type {
	switch op {
	case OpAdd, OpSub:
		if x.IsMat() && Identical(x, y) {
			return x
		}
	case OpMul:
		switch {
		case x.IsMat() && Identical(y, x.Elem.Elem):
			return x
		case y.IsMat() && Identical(x, y.Elem.Elem):
			return y
		case x.IsMat() && y.Kind == KindVec && Identical(y.Elem, x.Elem.Elem) && y.Len == x.Len:
			return x.Elem
		case x.Kind == KindVec && y.IsMat() && Identical(x.Elem, y.Elem.Elem) && x.Len == y.Rows():
			return Vec(y.Len, x.Elem)
		case x.IsMat() && y.IsMat() && Identical(x.Elem.Elem, y.Elem.Elem) && x.Len == y.Rows():
			return MatOf(y.Len, x.Rows(), x.Elem.Elem)
		}
	}
	return nil
}
