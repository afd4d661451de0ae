package interp

import (
	"math"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// ffmt is a concrete float format and the accuracy WGSL grants its
// operations (WGSL #concrete-float-accuracy, its f32 and f16 columns;
// #floating-point-rounding-and-overflow): the kernels of f32.go are its
// methods, so f32 and f16 share every rule and differ only in these
// parameters. f32F is binary32, f16F binary16 (`enable f16;`, WGSL
// #extension-f16). A slot of either keeps the format's bits (f16: the low
// 16 bits of slot.bits) and its absolute error bound.
type ffmt struct {
	half bool   // binary16 (slot bits: the low 16), else binary32
	name string // "f32", "f16"
	// maxF is the largest finite value; minNormal the least normal one
	// (below it a value may be flushed: WGSL #differences-from-ieee754);
	// minSub the least subnormal (the ULP below minNormal); topULP the
	// spacing of the two largest finite values (WGSL's ULP beyond the
	// finite range).
	maxF, minNormal, minSub, topULP float64
	// prec is the significand's width in bits, the implicit one included;
	// exactSpan is 2^prec: a sum of terms whose magnitudes fit in prec
	// bits above the smallest term's lowest bit is exact (fSum).
	prec      int
	exactSpan float64
	// bias is the exponent bias (ldexp's limit e2 ≤ bias + 1, WGSL
	// #ldexp-builtin).
	bias int64
	// divHi bounds division's |y| and atan2's |x| above (below: minNormal):
	// 2^126 for f32, 2^14 for f16.
	divHi float64
	// The accuracy table's entries that differ between f32 and f16.
	trigAbs  float64 // sin, cos on [-π, π]: 2^-11, 2^-7
	logAbs   float64 // log, log2 on [0.5, 2]: 2^-21, 2^-7
	expULP   float64 // exp, exp2: expULP + 2|x| ULP (3, 1)
	atanULP  float64 // atan, atan2: 4096, 5 ULP
	asinAbs  float64 // asin: 6.81e-5, 3.91e-3
	acosAbs  float64 // acos: 6.77e-5, 3.91e-3
	expBits  uint32  // the exponent field's mask in a slot's bits
	fracBits uint32  // the fraction field's mask
	signBit  uint32
}

var (
	f32F = &ffmt{name: "f32", maxF: math.MaxFloat32, minNormal: 0x1p-126, minSub: 0x1p-149, topULP: 0x1p104,
		prec: 24, exactSpan: 0x1p24, bias: wgslsem.F32Bias, divHi: 0x1p126,
		trigAbs: 0x1p-11, logAbs: 0x1p-21, expULP: 3, atanULP: 4096, asinAbs: 6.81e-5, acosAbs: 6.77e-5,
		expBits: 0x7f800000, fracBits: 0x007fffff, signBit: 1 << 31}
	f16F = &ffmt{half: true, name: "f16", maxF: 65504, minNormal: 0x1p-14, minSub: 0x1p-24, topULP: 0x1p5,
		prec: 11, exactSpan: 0x1p11, bias: 15, divHi: 0x1p14,
		trigAbs: 0x1p-7, logAbs: 0x1p-7, expULP: 1, atanULP: 5, asinAbs: 3.91e-3, acosAbs: 3.91e-3,
		expBits: 0x7c00, fracBits: 0x03ff, signBit: 1 << 15}
)

// fmtOf returns the format of a float scalar kind (nil for any other).
func fmtOf(k ir.Kind) *ffmt {
	switch k {
	case ir.KindF32:
		return f32F
	case ir.KindF16:
		return f16F
	}
	return nil
}

// round rounds x to the nearest value of the format (ties to even), once:
// f16 through wgslsem.F64ToF16, not through float32.
func (m *ffmt) round(x float64) float64 {
	if m.half {
		return r16(x)
	}
	return float64(float32(x))
}

// r16 rounds x to the nearest binary16 value (ties to even; ±65504 up to
// 65520, infinity from there).
func r16(x float64) float64 {
	h, _, _ := wgslsem.F64ToF16(x)
	return wgslsem.F16Value(h)
}

// ulp returns the spacing of the format's values around |x| (f32.go's
// conservative ULP: 2^(e-prec+1) in the binade [2^e, 2^(e+1)), minSub
// below minNormal, topULP beyond the finite range).
func (m *ffmt) ulp(x float64) float64 {
	x = math.Abs(x)
	switch {
	case x < m.minNormal:
		return m.minSub
	case x >= m.maxF:
		return m.topULP
	}
	_, e := math.Frexp(x) // x = f·2^e, f ∈ [0.5, 1)
	return math.Ldexp(1, e-m.prec)
}

// valueOf returns the value of a slot's bits in the format.
func (m *ffmt) valueOf(b uint32) float64 {
	if m.half {
		return wgslsem.F16Value(uint16(b))
	}
	return float64(math.Float32frombits(b))
}

// bitsOf returns the slot bits of x, a value of the format (rounded to it
// first when it is not: nearest even).
func (m *ffmt) bitsOf(x float64) uint32 {
	if m.half {
		h, _, _ := wgslsem.F64ToF16(x)
		return uint32(h)
	}
	return math.Float32bits(float32(x))
}

// isSub reports whether slot bits b are a nonzero subnormal of the format.
func (m *ffmt) isSub(b uint32) bool { return b&m.expBits == 0 && b&m.fracBits != 0 }

// nonFinite reports whether slot bits b are an infinity or NaN of the
// format.
func (m *ffmt) nonFinite(b uint32) bool { return b&m.expBits == m.expBits }

// zeroish reports whether x is zero or a subnormal of the format (the
// values a flush to zero makes equal).
func (m *ffmt) zeroish(x float64) bool { return math.Abs(x) < m.minNormal }

// same reports whether two results agree once subnormals count as zero.
func (m *ffmt) same(a, b float64) bool { return a == b || (m.zeroish(a) && m.zeroish(b)) }

// f16Accuracy is the accuracy of the builtins whose f16 entry in WGSL's
// table (#concrete-float-accuracy) differs from the f32 one that
// ir.BuiltinInfo describes, as the reasons print it.
var f16Accuracy = map[ir.Builtin]string{
	ir.BExp:   "1 + 2*|x| ULP",
	ir.BExp2:  "1 + 2*|x| ULP",
	ir.BLog:   "abs 2^-7 in [0.5, 2], else 3 ULP",
	ir.BLog2:  "abs 2^-7 in [0.5, 2], else 3 ULP",
	ir.BSin:   "abs 2^-7 in [-π, π]",
	ir.BCos:   "abs 2^-7 in [-π, π]",
	ir.BAsin:  "abs 3.91e-3 or atan2(x, sqrt(1 - x*x))",
	ir.BAcos:  "abs 3.91e-3 or atan2(sqrt(1 - x*x), x)",
	ir.BAtan:  "5 ULP",
	ir.BAtan2: "5 ULP for |x| in [2^-14, 2^14]",
}

// accuracyOf describes builtin b's accuracy in format m for reasons.
func accuracyOf(m *ffmt, b ir.Builtin, info *ir.BuiltinInfo) string {
	if s, ok := f16Accuracy[b]; ok && m.half {
		return s
	}
	return accuracy(info)
}
