package interp_test

import (
	"encoding/binary"
	"testing"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// f16 leaves of a binding are 2 bytes wide (WGSL #alignment-and-size:
// f16 size 2, vec3<f16> align 8 size 6): the dispatch reads and writes
// them in place, not as 4-byte words. S is {a: f16 at 0, b: u32 at 4,
// c: vec3<f16> at 8} (size 16); the shader copies in to out and doubles
// each f16, so out's bytes are derived by hand from in's.
func TestF16BindingBytes(t *testing.T) {
	src := `enable f16;
struct S { a: f16, b: u32, c: vec3<f16> }
@group(0) @binding(0) var<storage, read> in: array<S, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<S, 2>;
@group(0) @binding(2) var<storage, read_write> h: array<f16, 3>;
@compute @workgroup_size(1)
fn main() {
  for (var i = 0u; i < 2u; i++) {
    out[i] = S(in[i].a * 2.0h, in[i].b + 1u, in[i].c * 2.0h);
  }
  h[2] = in[1].c.z;
}`
	m, err := wgsl.Parse("f16.wgsl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	st := m.SharedVar("in").T
	if got := ir.SizeOf(st); got != 32 {
		t.Fatalf("array<S, 2> has %d bytes, want 32 (S: a at 0, b at 4, c at 8, size 16)", got)
	}
	in := make([]byte, 32)
	put16 := func(off int, h uint16) { binary.LittleEndian.PutUint16(in[off:], h) }
	for e := 0; e < 2; e++ {
		base := 16 * e
		put16(base, 0x3C00)                                     // a = 1.0
		binary.LittleEndian.PutUint32(in[base+4:], uint32(7+e)) // b
		put16(base+8, 0x4000)                                   // c.x = 2.0
		put16(base+10, 0x4200)                                  // c.y = 3.0
		put16(base+12, 0x3800+uint16(e))                        // c.z = 0.5 (e = 0), 0.5 + 2^-11 (e = 1)
		put16(base+14, 0xFFFF)                                  // padding: never read
	}
	d, err := interp.CompileEntry(m, "main")
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.RunBuffers(map[string]ir.Buffer{"in": {Type: st, Bytes: in}}, [3]uint32{1, 1, 1}, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := res.Buffers["out"].Buffer.Bytes
	for e := 0; e < 2; e++ {
		base := 16 * e
		for _, c := range []struct {
			off  int
			want uint16
		}{{0, 0x4000}, {8, 0x4400}, {10, 0x4600}, {12, 0x3C00 + uint16(e)}} { // 2.0, 4.0, 6.0, 1.0 (e = 1: (0.5 + 2^-11)·2 = 1 + 2^-10, the same mantissa one binade up)
			if got := binary.LittleEndian.Uint16(out[base+c.off:]); got != c.want {
				t.Errorf("out[%d] bytes %d..%d: %#04x, want %#04x", e, base+c.off, base+c.off+1, got, c.want)
			}
		}
		if got := binary.LittleEndian.Uint32(out[base+4:]); got != uint32(8+e) {
			t.Errorf("out[%d].b = %d, want %d", e, got, 8+e)
		}
	}
	hb := res.Buffers["h"].Buffer.Bytes
	if len(hb) != 6 || binary.LittleEndian.Uint16(hb[4:]) != 0x3801 || binary.LittleEndian.Uint16(hb[0:]) != 0 {
		t.Errorf("h = % x, want 00 00 00 00 01 38 (h[2] = in[1].c.z = 0x3801)", hb)
	}
}
