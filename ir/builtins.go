package ir

import "fmt"

// Builtin identifies a WGSL builtin function known to the IR.
type Builtin uint8

// The subset's builtins (WGSL "Built-in Functions"), then builtins the IR represents only so
// that passes can refuse them with a precise message (derivatives, barriers,
// subgroup operations: meaningful only under uniform control flow).
const (
	BAbs Builtin = iota + 1
	BMin
	BMax
	BClamp
	BSign
	BFloor
	BCeil
	BRound
	BTrunc
	BFract
	BSqrt
	BInverseSqrt
	BPow
	BExp
	BExp2
	BLog
	BLog2
	BSin
	BCos
	BTan
	BAsin
	BAcos
	BAtan
	BAtan2
	BDot
	BCross
	BLength
	BNormalize
	BDistance
	BMix
	BStep
	BSmoothstep
	BFma
	BCountOneBits
	BReverseBits
	BFirstLeadingBit
	BFirstTrailingBit
	BExtractBits
	BInsertBits
	BAll
	BAny

	BDpdx
	BDpdxCoarse
	BDpdxFine
	BDpdy
	BDpdyCoarse
	BDpdyFine
	BFwidth
	BFwidthCoarse
	BFwidthFine
	BWorkgroupBarrier
	BStorageBarrier
	BTextureBarrier
	BSubgroupAdd
	BSubgroupMul
	BSubgroupMin
	BSubgroupMax
	BSubgroupAnd
	BSubgroupOr
	BSubgroupXor
	BSubgroupAll
	BSubgroupAny
	BSubgroupBroadcast
	BSubgroupBroadcastFirst
	BSubgroupElect
	BSubgroupBallot
	BSubgroupShuffle
	// Matrix builtins (appended so existing numbers stay).
	BTranspose
	BDeterminant
	// Data packing builtins (appended so existing numbers stay).
	BPack4x8Snorm
	BPack4x8Unorm
	BPack2x16Snorm
	BPack2x16Unorm
	BPack4xI8
	BPack4xU8
	BPack4xI8Clamp
	BPack4xU8Clamp
	BUnpack4x8Snorm
	BUnpack4x8Unorm
	BUnpack2x16Snorm
	BUnpack2x16Unorm
	BUnpack4xI8
	BUnpack4xU8
	// BWorkgroupUniformLoad is workgroupUniformLoad(&R) (WGSL
	// #workgroupUniformLoad-builtin): Args[0] is the reference R (an
	// Ident/Index/Member chain rooted at a workgroup SharedVar, written &R
	// in WGSL, as an Atomic's pointer operand), T is R's type, or T when R
	// is an atomic<T> (the overload for ptr<workgroup, atomic<T>>, whose
	// load is an atomicLoad: UniformLoadValue). It executes a workgroup
	// barrier, loads R and returns the value, uniform across the
	// workgroup; like a barrier it needs uniform control flow. The subset
	// has it only as the initializer of a Decl of a compute entry point's
	// body.
	BWorkgroupUniformLoad
	BPack2x16Float
	BUnpack2x16Float
	// BModf and BFrexp split a float (WGSL #modf-builtin,
	// #frexp-builtin); their results are the predeclared structs
	// ModfResult and FrexpResult.
	BModf
	BFrexp
	// BDegrees and BRadians convert angles (WGSL #degrees-builtin,
	// #radians-builtin).
	BDegrees
	BRadians
	// BSaturate is clamp(e, 0.0, 1.0) (WGSL #saturate-float-builtin).
	BSaturate
	// BReflect and BFaceForward orient vectors (WGSL #reflect-builtin,
	// #faceForward-builtin): vecN<f32> operands only.
	BReflect
	BFaceForward
	// BLdexp is ldexp(e1, e2) = e1 * 2^e2 (WGSL #ldexp-builtin): e1 f32
	// or vecN<f32>, e2 i32 or vecN<i32> of the same width.
	BLdexp
	// BSinh, BCosh and BTanh are the hyperbolic functions (WGSL
	// #sinh-builtin, #cosh-builtin, #tanh-builtin).
	BSinh
	BCosh
	BTanh
	// The rest of WGSL's subgroup and quad builtins (WGSL
	// #subgroup-builtin-functions, #quad-builtin-functions; appended so
	// existing numbers stay): scans (inclusive and exclusive sums and
	// products over the active invocations of lower subgroup_invocation_id),
	// relative shuffles, and the quad operations (a quad is four
	// invocations of consecutive subgroup_invocation_id 4k..4k+3).
	BSubgroupInclusiveAdd
	BSubgroupExclusiveAdd
	BSubgroupInclusiveMul
	BSubgroupExclusiveMul
	BSubgroupShuffleXor
	BSubgroupShuffleUp
	BSubgroupShuffleDown
	BQuadBroadcast
	BQuadSwapX
	BQuadSwapY
	BQuadSwapDiagonal
	numBuiltins
)

// BuiltinClass classifies builtins for passes.
type BuiltinClass uint8

const (
	ClassMath       BuiltinClass = iota + 1 // pure numeric (float or integer) functions
	ClassBits                               // pure integer bit manipulation
	ClassLogic                              // all, any
	ClassDerivative                         // dpdx & co: fragment-only, need uniform control flow
	ClassBarrier                            // workgroupBarrier & co: need uniform control flow
	ClassSubgroup                           // subgroup operations: results depend on the active invocations
	ClassPack                               // data packing and unpacking (pure; no abstract overloads)
)

// Accuracy is how exactly an f32 builtin is specified (WGSL #concrete-float-accuracy,
// "Accuracy of concrete floating point built-in functions").
type Accuracy uint8

const (
	AccExact     Accuracy = iota + 1 // correctly rounded (or correct result)
	AccULP                           // relative bound of ULP units of least precision
	AccAbsolute                      // absolute error bound Abs (in a given input range)
	AccInherited                     // inherited from the expression in Spec
)

// BuiltinInfo is the metadata of one builtin, indexed by Builtin.
type BuiltinInfo struct {
	Name  string
	Class BuiltinClass
	// Args is the number of arguments.
	Args int
	// Acc, ULP, Abs and Spec describe f32 accuracy (ignored for integer
	// and bool arguments, which are always exact).
	Acc  Accuracy
	ULP  float64
	Abs  float64
	Spec string // WGSL spec anchor (#…), accuracy rule, or inherited-from expression
	// LanguageFeature is the WGSL language extension a call needs (WGSL
	// #language-extensions-sec; an implementation lists those it takes in
	// WebGPU's wgslLanguageFeatures), "" for core builtins:
	// LanguagePacked4x8 for pack4xI8 … unpack4xU8.
	LanguageFeature string
	// sig types a call; it returns the result type or an error.
	sig func(args []*Type) (*Type, error)
}

// Pure reports whether a call has no effect and its result depends only
// on its arguments (false for derivative, barrier and subgroup builtins).
func (i *BuiltinInfo) Pure() bool {
	return i.Class == ClassMath || i.Class == ClassBits || i.Class == ClassLogic || i.Class == ClassPack
}

// LanguagePacked4x8 is the WGSL language extension of the packed 4x8
// integer builtins (WGSL #language-extension-packed-4x8-integer-dot-product).
const LanguagePacked4x8 = "packed_4x8_integer_dot_product"

// Builtins is the builtin table.
var Builtins [numBuiltins]BuiltinInfo

var builtinByName = map[string]Builtin{}

func init() {
	def := func(b Builtin, name string, class BuiltinClass, n int, acc Accuracy, ulp, abs float64, spec string, sig func([]*Type) (*Type, error)) {
		Builtins[b] = BuiltinInfo{Name: name, Class: class, Args: n, Acc: acc, ULP: ulp, Abs: abs, Spec: spec, sig: sig}
		builtinByName[name] = b
	}
	const (
		m = ClassMath
		x = AccExact
		u = AccULP
		a = AccAbsolute
		h = AccInherited
	)
	def(BAbs, "abs", m, 1, x, 0, 0, "WGSL #abs-float-builtin", sigSame(isNumeric))
	def(BMin, "min", m, 2, x, 0, 0, "WGSL #min-float-builtin", sigSame(isNumeric))
	def(BMax, "max", m, 2, x, 0, 0, "WGSL #max-float-builtin", sigSame(isNumeric))
	def(BClamp, "clamp", m, 3, x, 0, 0, "WGSL #clamp", sigSame(isNumeric))
	def(BSign, "sign", m, 1, x, 0, 0, "WGSL #sign-builtin", sigSame(isSigned))
	def(BFloor, "floor", m, 1, x, 0, 0, "WGSL #floor-builtin", sigSame(isFloat))
	def(BCeil, "ceil", m, 1, x, 0, 0, "WGSL #ceil-builtin", sigSame(isFloat))
	def(BRound, "round", m, 1, x, 0, 0, "WGSL #round-builtin", sigSame(isFloat))
	def(BTrunc, "trunc", m, 1, x, 0, 0, "WGSL #trunc-builtin", sigSame(isFloat))
	def(BFract, "fract", m, 1, h, 0, 0, "x - floor(x)", sigSame(isFloat))
	def(BSqrt, "sqrt", m, 1, h, 0, 0, "1.0 / inverseSqrt(x)", sigSame(isFloat))
	def(BInverseSqrt, "inverseSqrt", m, 1, u, 2, 0, "WGSL #inverseSqrt-builtin", sigSame(isFloat))
	def(BPow, "pow", m, 2, h, 0, 0, "exp2(y * log2(x))", sigSame(isFloat))
	def(BExp, "exp", m, 1, u, 3, 0, "3 + 2*|x| ULP", sigSame(isFloat))
	def(BExp2, "exp2", m, 1, u, 3, 0, "3 + 2*|x| ULP", sigSame(isFloat))
	def(BLog, "log", m, 1, a, 3, 0x1p-21, "abs 2^-21 in [0.5, 2], else 3 ULP", sigSame(isFloat))
	def(BLog2, "log2", m, 1, a, 3, 0x1p-21, "abs 2^-21 in [0.5, 2], else 3 ULP", sigSame(isFloat))
	def(BSin, "sin", m, 1, a, 0, 0x1p-11, "abs 2^-11 in [-π, π]", sigSame(isFloat))
	def(BCos, "cos", m, 1, a, 0, 0x1p-11, "abs 2^-11 in [-π, π]", sigSame(isFloat))
	def(BTan, "tan", m, 1, h, 0, 0, "sin(x) / cos(x)", sigSame(isFloat))
	def(BAsin, "asin", m, 1, a, 4096, 6.81e-5, "abs 6.81e-5 or atan2(x, sqrt(1 - x*x))", sigSame(isFloat))
	def(BAcos, "acos", m, 1, a, 4096, 6.77e-5, "abs 6.77e-5 or atan2(sqrt(1 - x*x), x)", sigSame(isFloat))
	def(BAtan, "atan", m, 1, u, 4096, 0, "4096 ULP", sigSame(isFloat))
	def(BAtan2, "atan2", m, 2, u, 4096, 0, "4096 ULP", sigSame(isFloat))
	def(BDot, "dot", m, 2, h, 0, 0, "sum of x[i] * y[i]", sigDot)
	def(BCross, "cross", m, 2, h, 0, 0, "x[i] * y[j] - x[j] * y[i]", sigCross)
	def(BLength, "length", m, 1, h, 0, 0, "sqrt(dot(x, x))", sigFloatToScalar(1))
	def(BNormalize, "normalize", m, 1, h, 0, 0, "x / length(x)", sigNormalize)
	def(BDistance, "distance", m, 2, h, 0, 0, "length(x - y)", sigFloatToScalar(2))
	def(BMix, "mix", m, 3, h, 0, 0, "x * (1.0 - z) + y * z", sigMix)
	def(BStep, "step", m, 2, x, 0, 0, "WGSL #step-builtin", sigSame(isFloat))
	def(BSmoothstep, "smoothstep", m, 3, h, 0, 0, "t * t * (3.0 - 2.0 * t)", sigSame(isFloat))
	def(BFma, "fma", m, 3, h, 0, 0, "x * y + z", sigSame(isFloat))
	def(BCountOneBits, "countOneBits", ClassBits, 1, x, 0, 0, "WGSL #countOneBits-builtin", sigSame(isInt))
	def(BReverseBits, "reverseBits", ClassBits, 1, x, 0, 0, "WGSL #reverseBits-builtin", sigSame(isInt))
	def(BFirstLeadingBit, "firstLeadingBit", ClassBits, 1, x, 0, 0, "WGSL #firstLeadingBit-signed-builtin", sigSame(isInt))
	def(BFirstTrailingBit, "firstTrailingBit", ClassBits, 1, x, 0, 0, "WGSL #firstTrailingBit-builtin", sigSame(isInt))
	def(BExtractBits, "extractBits", ClassBits, 3, x, 0, 0, "WGSL #extractBits-signed-builtin", sigExtractBits)
	def(BInsertBits, "insertBits", ClassBits, 4, x, 0, 0, "WGSL #insertBits-builtin", sigInsertBits)
	def(BAll, "all", ClassLogic, 1, x, 0, 0, "WGSL #all-builtin", sigAllAny)
	def(BAny, "any", ClassLogic, 1, x, 0, 0, "WGSL #any-builtin", sigAllAny)
	def(BTranspose, "transpose", m, 1, x, 0, 0, "WGSL #transpose-builtin", sigTranspose)
	def(BDeterminant, "determinant", m, 1, h, 0, 0, "WGSL #determinant-builtin: the cofactor expansion along the first column", sigDeterminant)
	for _, d := range []struct {
		b     Builtin
		name  string
		in    *Type
		out   *Type
		unorm bool // 3 ULP (the float unpacking)
	}{
		{BPack4x8Snorm, "pack4x8snorm", Vec(4, F32), U32, false},
		{BPack4x8Unorm, "pack4x8unorm", Vec(4, F32), U32, false},
		{BPack2x16Snorm, "pack2x16snorm", Vec(2, F32), U32, false},
		{BPack2x16Unorm, "pack2x16unorm", Vec(2, F32), U32, false},
		{BPack4xI8, "pack4xI8", Vec(4, I32), U32, false},
		{BPack4xU8, "pack4xU8", Vec(4, U32), U32, false},
		{BPack4xI8Clamp, "pack4xI8Clamp", Vec(4, I32), U32, false},
		{BPack4xU8Clamp, "pack4xU8Clamp", Vec(4, U32), U32, false},
		{BUnpack4x8Snorm, "unpack4x8snorm", U32, Vec(4, F32), true},
		{BUnpack4x8Unorm, "unpack4x8unorm", U32, Vec(4, F32), true},
		{BUnpack2x16Snorm, "unpack2x16snorm", U32, Vec(2, F32), true},
		{BUnpack2x16Unorm, "unpack2x16unorm", U32, Vec(2, F32), true},
		{BUnpack4xI8, "unpack4xI8", U32, Vec(4, I32), false},
		{BUnpack4xU8, "unpack4xU8", U32, Vec(4, U32), false},
		{BPack2x16Float, "pack2x16float", Vec(2, F32), U32, false},
		{BUnpack2x16Float, "unpack2x16float", U32, Vec(2, F32), false},
	} {
		d := d
		acc, ulp, spec := x, 0.0, "WGSL #"+d.name+"-builtin: correctly rounded intermediate result value, correct result"
		if d.unorm {
			acc, ulp, spec = u, 3, "3 ULP"
		}
		switch d.b {
		case BPack2x16Float:
			spec = "f32 to binary16: exact where representable, else either neighbour (WGSL #floating-point-conversion); subnormal binary16 may be flushed"
		case BUnpack2x16Float:
			spec = "binary16 to f32: exact (a subnormal binary16 may be flushed, an infinity or NaN is not finite)"
		}
		def(d.b, d.name, ClassPack, 1, acc, ulp, 0, spec, func(a []*Type) (*Type, error) {
			if !Identical(a[0], d.in) {
				return nil, fmt.Errorf("%s expects %v, got %v", d.name, d.in, a[0])
			}
			return d.out, nil
		})
		switch d.b {
		case BPack4xI8, BPack4xU8, BPack4xI8Clamp, BPack4xU8Clamp, BUnpack4xI8, BUnpack4xU8:
			Builtins[d.b].LanguageFeature = LanguagePacked4x8
		}
	}

	for _, d := range []struct {
		b    Builtin
		name string
	}{{BDpdx, "dpdx"}, {BDpdxCoarse, "dpdxCoarse"}, {BDpdxFine, "dpdxFine"}, {BDpdy, "dpdy"},
		{BDpdyCoarse, "dpdyCoarse"}, {BDpdyFine, "dpdyFine"}, {BFwidth, "fwidth"},
		{BFwidthCoarse, "fwidthCoarse"}, {BFwidthFine, "fwidthFine"}} {
		def(d.b, d.name, ClassDerivative, 1, h, 0, 0, "WGSL #derivative-builtin-functions", sigSame(isFloat))
	}
	for _, d := range []struct {
		b    Builtin
		name string
	}{{BWorkgroupBarrier, "workgroupBarrier"}, {BStorageBarrier, "storageBarrier"}, {BTextureBarrier, "textureBarrier"}} {
		def(d.b, d.name, ClassBarrier, 0, x, 0, 0, "WGSL #sync-builtin-functions", func([]*Type) (*Type, error) { return Void, nil })
	}
	def(BDegrees, "degrees", m, 1, h, 0, 0, "x * 57.295779513082322865", sigSame(isFloat))
	def(BRadians, "radians", m, 1, h, 0, 0, "x * 0.017453292519943295769", sigSame(isFloat))
	def(BSaturate, "saturate", m, 1, x, 0, 0, "WGSL #saturate-float-builtin: clamp(e, 0.0, 1.0), correctly rounded", sigSame(isFloat))
	def(BReflect, "reflect", m, 2, h, 0, 0, "x - 2.0 * dot(x, y) * y", sigFloatVecs)
	def(BFaceForward, "faceForward", m, 3, h, 0, 0, "select(-x, x, dot(z, y) < 0.0)", sigFloatVecs)
	def(BLdexp, "ldexp", m, 2, x, 0, 0, "WGSL #ldexp-builtin: correctly rounded; may be zero if e2 + 127 <= 0, indeterminate if e2 > 128", sigLdexp)
	def(BSinh, "sinh", m, 1, h, 0, 0, "(exp(x) - exp(-x)) * 0.5", sigSame(isFloat))
	def(BCosh, "cosh", m, 1, h, 0, 0, "(exp(x) + exp(-x)) * 0.5", sigSame(isFloat))
	def(BTanh, "tanh", m, 1, a, 0, 1e-5, "the worse of abs 1e-5 and sinh(x) / cosh(x)", sigSame(isFloat))
	def(BModf, "modf", m, 1, x, 0, 0, "WGSL #modf-builtin", func(a []*Type) (*Type, error) {
		if !isFloat(a[0]) {
			return nil, fmt.Errorf("needs f32 or vecN<f32>")
		}
		return ModfResult(a[0]), nil
	})
	def(BFrexp, "frexp", m, 1, x, 0, 0, "WGSL #frexp-builtin", func(a []*Type) (*Type, error) {
		if !isFloat(a[0]) {
			return nil, fmt.Errorf("needs f32 or vecN<f32>")
		}
		return FrexpResult(a[0]), nil
	})
	def(BWorkgroupUniformLoad, "workgroupUniformLoad", ClassBarrier, 1, x, 0, 0, "WGSL #workgroupUniformLoad-builtin", func(a []*Type) (*Type, error) {
		switch a[0].Kind {
		case KindAtomic:
			return a[0].Elem, nil
		case KindRuntimeArray:
			return nil, fmt.Errorf("workgroupUniformLoad of %v", a[0])
		}
		return a[0], nil
	})
	for _, d := range []struct {
		b    Builtin
		name string
		n    int
		sig  func([]*Type) (*Type, error)
	}{
		{BSubgroupAdd, "subgroupAdd", 1, sigSame(isNumeric)},
		{BSubgroupMul, "subgroupMul", 1, sigSame(isNumeric)},
		{BSubgroupMin, "subgroupMin", 1, sigSame(isNumeric)},
		{BSubgroupMax, "subgroupMax", 1, sigSame(isNumeric)},
		{BSubgroupAnd, "subgroupAnd", 1, sigSame(isInt)},
		{BSubgroupOr, "subgroupOr", 1, sigSame(isInt)},
		{BSubgroupXor, "subgroupXor", 1, sigSame(isInt)},
		{BSubgroupAll, "subgroupAll", 1, sigBoolToBool},
		{BSubgroupAny, "subgroupAny", 1, sigBoolToBool},
		{BSubgroupBroadcast, "subgroupBroadcast", 2, sigFirstAny},
		{BSubgroupBroadcastFirst, "subgroupBroadcastFirst", 1, sigFirstAny},
		{BSubgroupElect, "subgroupElect", 0, func([]*Type) (*Type, error) { return Bool, nil }},
		{BSubgroupBallot, "subgroupBallot", 1, func(a []*Type) (*Type, error) {
			if a[0].Kind != KindBool {
				return nil, fmt.Errorf("subgroupBallot needs bool")
			}
			return Vec(4, U32), nil
		}},
		{BSubgroupShuffle, "subgroupShuffle", 2, sigFirstAny},
		{BSubgroupInclusiveAdd, "subgroupInclusiveAdd", 1, sigSame(isNumeric)},
		{BSubgroupExclusiveAdd, "subgroupExclusiveAdd", 1, sigSame(isNumeric)},
		{BSubgroupInclusiveMul, "subgroupInclusiveMul", 1, sigSame(isNumeric)},
		{BSubgroupExclusiveMul, "subgroupExclusiveMul", 1, sigSame(isNumeric)},
		{BSubgroupShuffleXor, "subgroupShuffleXor", 2, sigFirstAny},
		{BSubgroupShuffleUp, "subgroupShuffleUp", 2, sigFirstAny},
		{BSubgroupShuffleDown, "subgroupShuffleDown", 2, sigFirstAny},
		{BQuadBroadcast, "quadBroadcast", 2, sigFirstAny},
		{BQuadSwapX, "quadSwapX", 1, sigFirstAny},
		{BQuadSwapY, "quadSwapY", 1, sigFirstAny},
		{BQuadSwapDiagonal, "quadSwapDiagonal", 1, sigFirstAny},
	} {
		def(d.b, d.name, ClassSubgroup, d.n, x, 0, 0, "WGSL #subgroup-builtin-functions", d.sig)
	}
}

// LookupBuiltin returns the builtin named name.
func LookupBuiltin(name string) (Builtin, bool) {
	b, ok := builtinByName[name]
	return b, ok
}

// Info returns b's table entry.
func (b Builtin) Info() *BuiltinInfo { return &Builtins[b] }

func (b Builtin) String() string {
	if b > 0 && b < numBuiltins {
		return Builtins[b].Name
	}
	return fmt.Sprintf("Builtin(%d)", b)
}

// BuiltinResultType types a call of b with arguments of the given types
// (the overloads in WGSL "Built-in Functions"), or returns an error message naming the mismatch.
func BuiltinResultType(b Builtin, args []*Type) (*Type, error) {
	info := b.Info()
	if len(args) != info.Args {
		return nil, fmt.Errorf("%s expects %d argument(s), got %d", info.Name, info.Args, len(args))
	}
	for _, a := range args {
		if a.IsVoid() {
			return nil, fmt.Errorf("%s: argument has no value", info.Name)
		}
	}
	t, err := info.sig(args)
	if err != nil {
		return nil, fmt.Errorf("no overload of %s(%s): %v", info.Name, describe(args), err)
	}
	return t, nil
}

func isNumeric(t *Type) bool { s := t.Scalar(); return s != nil && s.Kind != KindBool }
func isSigned(t *Type) bool {
	s := t.Scalar()
	return s != nil && (s.Kind == KindI32 || s.IsFloat())
}
func isFloat(t *Type) bool { return t.Scalar().IsFloat() }
func isInt(t *Type) bool   { return t.Scalar().IsInteger() }

// sigSame: every argument has the same scalar-or-vector type T accepted
// by ok; the result is T.
func sigSame(ok func(*Type) bool) func([]*Type) (*Type, error) {
	return func(args []*Type) (*Type, error) {
		for _, a := range args {
			if !ok(a) || !Identical(a, args[0]) {
				return nil, fmt.Errorf("arguments must share one permitted type")
			}
		}
		return args[0], nil
	}
}

func sigDot(a []*Type) (*Type, error) {
	if a[0].Kind != KindVec || !Identical(a[0], a[1]) || !isNumeric(a[0]) {
		return nil, fmt.Errorf("needs two numeric vectors of one type")
	}
	return a[0].Elem, nil
}

func sigCross(a []*Type) (*Type, error) {
	if !Identical(a[0], a[1]) || a[0].Kind != KindVec || a[0].Len != 3 || !a[0].Elem.IsFloat() {
		return nil, fmt.Errorf("needs two vec3<f32> or vec3<f16>")
	}
	return a[0], nil
}

func sigFloatToScalar(n int) func([]*Type) (*Type, error) {
	return func(a []*Type) (*Type, error) {
		for _, t := range a {
			if !isFloat(t) || !Identical(t, a[0]) {
				return nil, fmt.Errorf("needs f32 or vecN<f32> (or f16) arguments of one type")
			}
		}
		return a[0].Scalar(), nil
	}
}

func sigNormalize(a []*Type) (*Type, error) {
	if a[0].Kind != KindVec || !isFloat(a[0]) {
		return nil, fmt.Errorf("needs vecN<f32>")
	}
	return a[0], nil
}

func sigMix(a []*Type) (*Type, error) {
	if isFloat(a[0]) && Identical(a[0], a[1]) && (Identical(a[2], a[0]) || Identical(a[2], a[0].Scalar())) {
		return a[0], nil
	}
	return nil, fmt.Errorf("needs (T, T, T) or (vecN<f32>, vecN<f32>, f32)")
}

// sigFloatVecs: every argument is the same vecN<f32> (reflect,
// faceForward: WGSL has no scalar overload); the result is that type.
func sigFloatVecs(a []*Type) (*Type, error) {
	for _, t := range a {
		if t.Kind != KindVec || !isFloat(t) || !Identical(t, a[0]) {
			return nil, fmt.Errorf("needs vecN<f32> arguments of one type")
		}
	}
	return a[0], nil
}

// sigLdexp types ldexp(e1: T, e2: I) -> T (WGSL #ldexp-builtin): T f32 or
// vecN<f32>, I i32 or vecN<i32>, a vector exactly when T is one, of the
// same width.
func sigLdexp(a []*Type) (*Type, error) {
	if !isFloat(a[0]) || a[1].Scalar() == nil || a[1].Scalar().Kind != KindI32 || (a[0].Kind == KindVec) != (a[1].Kind == KindVec) || a[0].Width() != a[1].Width() {
		return nil, fmt.Errorf("needs (T, I) with T f32 or vecN<f32> and I i32 or vecN<i32> of the same shape")
	}
	return a[0], nil
}

func sigExtractBits(a []*Type) (*Type, error) {
	if isInt(a[0]) && a[1].Kind == KindU32 && a[2].Kind == KindU32 {
		return a[0], nil
	}
	return nil, fmt.Errorf("needs (T, u32, u32) with T integer")
}

func sigInsertBits(a []*Type) (*Type, error) {
	if isInt(a[0]) && Identical(a[0], a[1]) && a[2].Kind == KindU32 && a[3].Kind == KindU32 {
		return a[0], nil
	}
	return nil, fmt.Errorf("needs (T, T, u32, u32) with T integer")
}

func sigAllAny(a []*Type) (*Type, error) {
	if s := a[0].Scalar(); s != nil && s.Kind == KindBool {
		return Bool, nil
	}
	return nil, fmt.Errorf("needs bool or vecN<bool>")
}

func sigBoolToBool(a []*Type) (*Type, error) {
	if a[0].Kind != KindBool {
		return nil, fmt.Errorf("needs bool")
	}
	return Bool, nil
}

func sigFirstAny(a []*Type) (*Type, error) {
	if a[0].Scalar() == nil {
		return nil, fmt.Errorf("needs a scalar or vector")
	}
	return a[0], nil
}

// sigTranspose types transpose(matCxR<f32>) -> matRxC<f32>.
func sigTranspose(a []*Type) (*Type, error) {
	if !a[0].IsMat() {
		return nil, fmt.Errorf("needs matCxR<f32>")
	}
	return MatOf(a[0].Rows(), a[0].Len, a[0].Elem.Elem), nil
}

// sigDeterminant types determinant(matCxC<f32>) -> f32.
func sigDeterminant(a []*Type) (*Type, error) {
	if !a[0].IsMat() || a[0].Len != a[0].Rows() {
		return nil, fmt.Errorf("needs a square matCxC<f32>")
	}
	return a[0].Elem.Elem, nil
}
