package testcase

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

func f32s(v ir.Value) []float32 {
	out := []float32{}
	for _, e := range v.Elems {
		out = append(out, e.F32())
	}
	return out
}

// TestDecodeVertexFormats: each format's bytes read as WebGPU
// #vertex-formats defines, derived by hand: unorm8x4 bytes 0, 255, 128, 1
// are 0, 1, 128/255, 1/255; snorm8 0x80 (−128) clamps to −1, 0x81 (−127)
// is −1, 0x7f is 1; float16 0x3c00 is 1, 0xc000 −2, 0x3555 is
// 0x3555's value 0.333251953125; a float32x2 feeding a vec4 reads
// (x, y, 0, 1); unorm10-10-10-2 0xc00ffc00 is r 0, g 1023/1023, b 0, a
// 3/3; unorm8x4-bgra bytes b, g, r, a.
func TestDecodeVertexFormats(t *testing.T) {
	v4 := ir.Vec(4, ir.F32)
	cases := []struct {
		format string
		data   []byte
		t      *ir.Type
		want   []float32
	}{
		{"unorm8x4", []byte{0, 255, 128, 1}, v4, []float32{0, 1, float32(128.0 / 255), float32(1.0 / 255)}},
		{"snorm8x4", []byte{0x80, 0x81, 0x7f, 0}, v4, []float32{-1, -1, 1, 0}},
		{"float16x2", []byte{0x00, 0x3c, 0x00, 0xc0}, ir.Vec(2, ir.F32), []float32{1, -2}},
		{"float16x4", []byte{0x55, 0x35, 0, 0, 0, 0, 0, 0}, v4, []float32{0.333251953125, 0, 0, 0}},
		{"float32x2", le32(math.Float32bits(0.5), math.Float32bits(-0.25)), v4, []float32{0.5, -0.25, 0, 1}},
		{"unorm16x2", []byte{0xff, 0xff, 0x00, 0x80}, ir.Vec(2, ir.F32), []float32{1, float32(32768.0 / 65535)}},
		{"unorm10-10-10-2", le32(0xc00ffc00), v4, []float32{0, 1, 0, 1}},
		{"unorm8x4-bgra", []byte{10, 20, 255, 0}, v4, []float32{1, float32(20.0 / 255), float32(10.0 / 255), 0}},
		{"float32x4", le32(0x3f800000, 0x40000000, 0x40400000, 0x40800000), ir.Vec(2, ir.F32), []float32{1, 2}},
	}
	for _, c := range cases {
		t.Run(c.format, func(t *testing.T) {
			v, err := DecodeVertex(c.format, c.data, c.t)
			require.NoError(t, err)
			assert.Equal(t, c.want, f32s(v))
		})
	}
	// Integers: sint16x2 0xffff is −1, 0x8000 −32768; uint16x2 as is;
	// sint8x4 0xfe −2; a uint32 feeding a vec3<u32> reads (x, 0, 0).
	v, err := DecodeVertex("sint16x2", []byte{0xff, 0xff, 0x00, 0x80}, ir.Vec(2, ir.I32))
	require.NoError(t, err)
	assert.Equal(t, []int32{-1, -32768}, []int32{v.Elems[0].I32(), v.Elems[1].I32()})
	v, err = DecodeVertex("uint16x2", []byte{0x34, 0x12, 0xff, 0xff}, ir.Vec(2, ir.U32))
	require.NoError(t, err)
	assert.Equal(t, []uint32{0x1234, 0xffff}, []uint32{v.Elems[0].U32(), v.Elems[1].U32()})
	v, err = DecodeVertex("sint8x4", []byte{0xfe, 1, 0x7f, 0x80}, ir.Vec(4, ir.I32))
	require.NoError(t, err)
	assert.Equal(t, []int32{-2, 1, 127, -128}, []int32{v.Elems[0].I32(), v.Elems[1].I32(), v.Elems[2].I32(), v.Elems[3].I32()})
	v, err = DecodeVertex("uint32", le32(7), ir.Vec(3, ir.U32))
	require.NoError(t, err)
	assert.Equal(t, []uint32{7, 0, 0}, []uint32{v.Elems[0].U32(), v.Elems[1].U32(), v.Elems[2].U32()})
	v, err = DecodeVertex("uint32", le32(7), ir.U32)
	require.NoError(t, err)
	assert.Equal(t, uint32(7), v.U32())

	_, err = DecodeVertex("uint8x4", []byte{1, 2, 3, 4}, v4)
	assert.ErrorContains(t, err, "feeds a u32 or vecN<u32> input, not vec4<f32>")
	_, err = DecodeVertex("float32x5", nil, v4)
	assert.ErrorContains(t, err, "unknown vertex format")
}

func le32(ws ...uint32) []byte {
	var out []byte
	for _, w := range ws {
		out = append(out, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	return out
}

// TestEncodeVertexFormats: the bytes an inputs file's values become, by
// hand: unorm8 0.5 → round(127.5) = 128 (to even), 1/255 → 1; snorm8 −1
// → −127 (0x81); sint16 −2 → 0xfffe; float16 1 → 0x3c00, 65504 → 0x7bff;
// unorm10-10-10-2 (1, 0, 0.5, 1) → 1023 | 512 << 20 | 3 << 30; and
// the refusals: a unorm past 1, a fraction in an integer format, a sint8
// of −129, float16's 65520 (rounds to infinity).
func TestEncodeVertexFormats(t *testing.T) {
	cases := []struct {
		format string
		comps  []float64
		want   []byte
	}{
		{"unorm8x4", []float64{0, 1, 0.5, 1.0 / 255}, []byte{0, 255, 128, 1}},
		{"snorm8x4", []float64{-1, 1, 0, 0.5}, []byte{0x81, 0x7f, 0, 64}},
		{"sint16x2", []float64{-2, 300}, []byte{0xfe, 0xff, 0x2c, 0x01}},
		{"float16x2", []float64{1, 65504}, []byte{0x00, 0x3c, 0xff, 0x7b}},
		{"unorm10-10-10-2", []float64{1, 0, 0.5, 1}, le32(1023 | 512<<20 | 3<<30)},
		{"unorm8x4-bgra", []float64{1, 0, 0, 0.5}, []byte{0, 0, 255, 128}},
		{"uint32x3", []float64{1, 4294967295, 0}, le32(1, 0xffffffff, 0)},
		{"float32", []float64{0.1}, le32(math.Float32bits(0.1))},
	}
	for _, c := range cases {
		b, err := EncodeVertex(c.format, c.comps)
		require.NoError(t, err, c.format)
		assert.Equal(t, c.want, b, c.format)
		assert.Len(t, b, harness.VertexFormatSize(c.format))
	}
	for _, bad := range []struct {
		format string
		comps  []float64
		msg    string
	}{
		{"unorm8x2", []float64{1.5, 0}, "outside unorm8x2's range [0, 1]"},
		{"uint8x2", []float64{1.5, 0}, "not an integer"},
		{"sint8x4", []float64{-129, 0, 0, 0}, "outside sint8x4's range [-128, 127]"},
		{"float16x2", []float64{65520, 0}, "past binary16's finite range"},
		{"float32x3", []float64{1, 2}, "holds 3 components, got 2"},
	} {
		_, err := EncodeVertex(bad.format, bad.comps)
		assert.ErrorContains(t, err, bad.msg, bad.format)
	}
}

// TestVertexFormatRoundTrip: every format's encoding of in-range values
// decodes to them where the format holds them exactly (k/255 for unorm8,
// integers), over every format harness knows.
func TestVertexFormatRoundTrip(t *testing.T) {
	for _, name := range harness.VertexFormats() {
		f, ok := lookupVertexFormat(name)
		require.True(t, ok, name)
		comps := make([]float64, f.n)
		for i := range comps {
			lo, hi := f.componentRange(i)
			switch f.enc {
			case "unorm":
				comps[i] = 1
			case "snorm":
				comps[i] = -1
			case "f16", "f32":
				comps[i] = -0.5 * float64(i+1)
			default:
				comps[i] = lo + float64(i)
				if i == 1 {
					comps[i] = hi
				}
			}
		}
		b, err := EncodeVertex(name, comps)
		require.NoError(t, err, name)
		scalar := map[byte]*ir.Type{'f': ir.F32, 'u': ir.U32, 'i': ir.I32}[f.scalar]
		ty := scalar
		if f.n > 1 {
			ty = ir.Vec(f.n, scalar)
		}
		v, err := DecodeVertex(name, b, ty)
		require.NoError(t, err, name)
		assert.Equal(t, comps, vertexComponents(v), name)
	}
	assert.Equal(t, "float32x3", DefaultVertexFormat(ir.Vec(3, ir.F32)))
	assert.Equal(t, "uint32", DefaultVertexFormat(ir.U32))
	assert.Equal(t, "sint32x4", DefaultVertexFormat(ir.Vec(4, ir.I32)))
	assert.Equal(t, "", DefaultVertexFormat(ir.Bool))
}
