package testcase

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// Vertex formats (WebGPU #vertex-formats): how a draw's vertex buffers
// hold an attribute's components and what the vertex shader reads from
// them. The harness only sizes them (harness.VertexFormatSize); the case
// model encodes the values an inputs file gives into bytes and decodes
// those bytes into the values the reference's vertex stage reads, so that
// the reference reads exactly what the GPU fetches.

// vertexFormat is one GPUVertexFormat: its components' count, the WGSL
// scalar it feeds ('f' f32, 'u' u32, 'i' i32) and each component's
// encoding: "f32", "f16", "unorm" or "snorm" of Bits bits, "uint" or
// "sint" of Bits bits; packed (unorm10-10-10-2) and bgra (unorm8x4-bgra,
// stored b, g, r, a) are the two layouts that are not one component
// after another.
type vertexFormat struct {
	n      int
	scalar byte
	enc    string
	bits   int
	packed bool
	bgra   bool
}

// lookupVertexFormat parses a GPUVertexFormat name.
func lookupVertexFormat(name string) (vertexFormat, bool) {
	switch name {
	case "unorm10-10-10-2":
		return vertexFormat{n: 4, scalar: 'f', enc: "unorm", packed: true}, true
	case "unorm8x4-bgra":
		return vertexFormat{n: 4, scalar: 'f', enc: "unorm", bits: 8, bgra: true}, true
	}
	if harness.VertexFormatSize(name) == 0 {
		return vertexFormat{}, false
	}
	base, count, _ := strings.Cut(name, "x")
	n := 1
	if count != "" {
		n, _ = strconv.Atoi(count)
	}
	i := strings.IndexAny(base, "0123456789")
	enc := base[:i]
	bits, _ := strconv.Atoi(base[i:])
	f := vertexFormat{n: n, enc: enc, bits: bits}
	switch enc {
	case "float":
		f.scalar, f.enc = 'f', fmt.Sprintf("f%d", bits)
	case "unorm", "snorm":
		f.scalar = 'f'
	case "uint":
		f.scalar = 'u'
	case "sint":
		f.scalar = 'i'
	}
	return f, true
}

// VertexFormatComponents returns how many components GPUVertexFormat
// format holds (1 to 4), 0 for an unknown name.
func VertexFormatComponents(format string) int {
	f, ok := lookupVertexFormat(format)
	if !ok {
		return 0
	}
	return f.n
}

// DefaultVertexFormat is the vertex format an attribute of WGSL type t
// gets when the inputs name none: 32-bit components, as many as t has —
// float32, float32x2…4 for f32 and vecN<f32>, uint32xN for u32, sint32xN
// for i32; "" for a type no vertex format feeds.
func DefaultVertexFormat(t *ir.Type) string { return ir.VertexFormatOf(t) }

// CheckVertexFormat checks that GPUVertexFormat format can feed a vertex
// shader input of type t (WebGPU #abstract-opdef-validating-gpuvertexbufferlayout:
// a float, unorm or snorm format an f32 scalar or vector, a uint format a
// u32 one, a sint format an i32 one; the component counts may differ).
func CheckVertexFormat(format string, t *ir.Type) error {
	f, ok := lookupVertexFormat(format)
	if !ok {
		return fmt.Errorf("unknown vertex format %q (WebGPU #vertex-formats: e.g. float32x3, unorm8x4, sint16x2, uint32)", format)
	}
	want := map[byte]ir.Kind{'f': ir.KindF32, 'u': ir.KindU32, 'i': ir.KindI32}[f.scalar]
	if t.Kind != ir.KindVec && !t.IsScalar() || t.Scalar().Kind != want {
		what := map[byte]string{'f': "f32 or vecN<f32>", 'u': "u32 or vecN<u32>", 'i': "i32 or vecN<i32>"}[f.scalar]
		return fmt.Errorf("vertex format %s feeds a %s input, not %v (WebGPU #vertex-formats)", format, what, t)
	}
	return nil
}

// componentRange is the closed range of values a component of f holds
// (unorm [0, 1], snorm [-1, 1], an integer format its integers).
func (f vertexFormat) componentRange(c int) (lo, hi float64) {
	bits := f.bits
	if f.packed {
		bits = 10
		if c == 3 {
			bits = 2
		}
	}
	switch f.enc {
	case "unorm":
		return 0, 1
	case "snorm":
		return -1, 1
	case "uint":
		return 0, math.Ldexp(1, bits) - 1
	case "sint":
		return -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1) - 1
	}
	return math.Inf(-1), math.Inf(1)
}

// EncodeVertex encodes one attribute value, its components comps (as many
// as format has), as GPUVertexFormat format lays them out, little-endian
// (WebGPU #vertex-formats): float32 its f32 bits (comps rounded to f32),
// float16 its binary16 bits (rounded to nearest even), unormN round(c ·
// (2^N − 1)), snormN round(c · (2^(N−1) − 1)), an integer format the
// integer itself; unorm10-10-10-2 packs r, g, b in 10 bits and a in 2 from
// the low bit, unorm8x4-bgra stores b, g, r, a. Errors name the component:
// a value outside the format's range (unorm [0, 1], snorm [-1, 1], an
// integer format's integers), a fraction for an integer format, a value
// no finite f32 or binary16 holds, a wrong count.
func EncodeVertex(format string, comps []float64) ([]byte, error) {
	f, ok := lookupVertexFormat(format)
	if !ok {
		return nil, fmt.Errorf("unknown vertex format %q", format)
	}
	if len(comps) != f.n {
		return nil, fmt.Errorf("vertex format %s holds %d components, got %d", format, f.n, len(comps))
	}
	out := make([]byte, harness.VertexFormatSize(format))
	var packed uint32
	for i, c := range comps {
		lo, hi := f.componentRange(i)
		if math.IsNaN(c) || c < lo || c > hi {
			return nil, fmt.Errorf("component %d is %v, outside %s's range [%v, %v]", i, c, format, lo, hi)
		}
		var word uint64
		switch f.enc {
		case "f32":
			x := float32(c)
			if math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("component %d is %v, past f32's finite range", i, c)
			}
			word = uint64(math.Float32bits(x))
		case "f16":
			h, _, finite := wgslsem.F32ToF16(float32(c))
			if !finite || math.IsInf(float64(float32(c)), 0) {
				return nil, fmt.Errorf("component %d is %v, past binary16's finite range [-65504, 65504]", i, c)
			}
			word = uint64(h)
		case "unorm", "snorm":
			bits := f.bits
			if f.packed {
				bits = 10
				if i == 3 {
					bits = 2
				}
			}
			scale := math.Ldexp(1, bits) - 1
			if f.enc == "snorm" {
				scale = math.Ldexp(1, bits-1) - 1
			}
			word = uint64(int64(math.RoundToEven(c*scale))) & (1<<bits - 1)
		case "uint", "sint":
			if c != math.Trunc(c) {
				return nil, fmt.Errorf("component %d is %v, not an integer (vertex format %s)", i, c, format)
			}
			word = uint64(int64(c)) & (1<<f.bits - 1)
		}
		switch {
		case f.packed:
			packed |= uint32(word) << (10 * i)
		case f.bgra:
			out[[4]int{2, 1, 0, 3}[i]] = byte(word)
		default:
			size := max(f.bits/8, 1)
			for b := 0; b < size; b++ {
				out[i*size+b] = byte(word >> (8 * b))
			}
		}
	}
	if f.packed {
		binary.LittleEndian.PutUint32(out, packed)
	}
	return out, nil
}

// decodeComponents decodes the components of one element of format f
// from data, as the shader reads them (WebGPU #vertex-formats): unorm
// c / (2^N − 1), snorm max(c / (2^(N−1) − 1), −1), each the nearest f32
// to the exact quotient; float16 widened exactly; integers sign- or
// zero-extended. Floats are returned as f32 bits, integers as their u32
// bits.
func (f vertexFormat) decodeComponents(data []byte) []uint32 {
	out := make([]uint32, f.n)
	var packed uint32
	if f.packed {
		packed = binary.LittleEndian.Uint32(data)
	}
	for i := range out {
		var raw uint64
		bits := f.bits
		switch {
		case f.packed:
			bits = 10
			if i == 3 {
				bits = 2
			}
			raw = uint64(packed>>(10*i)) & (1<<bits - 1)
		case f.bgra:
			raw = uint64(data[[4]int{2, 1, 0, 3}[i]])
		default:
			size := max(f.bits/8, 1)
			for b := 0; b < size; b++ {
				raw |= uint64(data[i*size+b]) << (8 * b)
			}
		}
		signed := int64(raw)
		if raw&(1<<(bits-1)) != 0 {
			signed = int64(raw) - 1<<bits
		}
		switch f.enc {
		case "f32":
			out[i] = uint32(raw)
		case "f16":
			v, _, _ := wgslsem.F16ToF32(uint16(raw))
			out[i] = math.Float32bits(v)
		case "unorm":
			out[i] = math.Float32bits(float32(float64(raw) / (math.Ldexp(1, bits) - 1)))
		case "snorm":
			out[i] = math.Float32bits(float32(max(float64(signed)/(math.Ldexp(1, bits-1)-1), -1)))
		case "uint":
			out[i] = uint32(raw)
		case "sint":
			out[i] = uint32(int32(signed))
		}
	}
	return out
}

// DecodeVertex is the value a vertex shader input of type t reads from
// one element of GPUVertexFormat format, data its bytes (WebGPU
// #vertex-processing): the format's components converted as
// #vertex-formats defines (unorm8 k/255 and so on, decodeComponents), a
// component t has and the format lacks reading 0 (y, z) or 1 (w), a
// component the format has and t lacks dropped. The error is
// CheckVertexFormat's, or data of the wrong size.
func DecodeVertex(format string, data []byte, t *ir.Type) (ir.Value, error) {
	if err := CheckVertexFormat(format, t); err != nil {
		return ir.Value{}, err
	}
	f, _ := lookupVertexFormat(format)
	if len(data) != harness.VertexFormatSize(format) {
		return ir.Value{}, fmt.Errorf("vertex format %s takes %d bytes, got %d", format, harness.VertexFormatSize(format), len(data))
	}
	comps := f.decodeComponents(data)
	scalar := t.Scalar()
	leaf := func(i int) ir.Value {
		if i < len(comps) {
			return ir.Value{Type: scalar, Bits: comps[i]}
		}
		one := i == 3
		switch {
		case !one:
			return ir.Zero(scalar)
		case scalar.Kind == ir.KindF32:
			return ir.F32Val(1)
		case scalar.Kind == ir.KindU32:
			return ir.U32Val(1)
		}
		return ir.I32Val(1)
	}
	if t.Kind != ir.KindVec {
		return leaf(0), nil
	}
	es := make([]ir.Value, t.Len)
	for i := range es {
		es[i] = leaf(i)
	}
	return ir.CompositeVal(t, es...), nil
}

// vertexComponents are the components of value v (a scalar or vector of
// f32, u32 or i32) as numbers.
func vertexComponents(v ir.Value) []float64 {
	leaves := []ir.Value{v}
	if v.Type.Kind == ir.KindVec {
		leaves = v.Elems
	}
	out := make([]float64, len(leaves))
	for i, l := range leaves {
		switch l.Type.Kind {
		case ir.KindF32:
			out[i] = float64(l.F32())
		case ir.KindU32:
			out[i] = float64(l.U32())
		case ir.KindI32:
			out[i] = float64(l.I32())
		}
	}
	return out
}
