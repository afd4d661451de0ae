package wgsl

import (
	"os"
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
)

// FuzzParse checks, for any input, that Parse never panics or fails
// internally, that every error is positioned in the input, and that a
// module it returns round-trips through the printer:
// ir.Print(Parse(ir.Print(M))) == ir.Print(M).
//
//	go test ./compiler/wgsl -run '^$' -fuzz FuzzParse -fuzztime 60s
func FuzzParse(f *testing.F) {
	for _, path := range ptCorpusFiles(f) {
		if b, err := os.ReadFile(path); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"fn f(x: i32) -> i32 { return x * 2 + 1; }",
		"fn f() { for (var i = 0; i < 4; i++) { if (i == 2) { continue; } } }",
		"const a = vec3(1, 2, 3); fn f() -> vec3<f32> { return vec3<f32>(a) / 2.0; }",
		"fn f(v: vec4<f32>) -> f32 { return dot(v.xyz, v.zyx) + select(0.0, 1.0, v.w > 0.5); }",
		"struct S { a: array<u32, 4>, b: vec2<i32> } fn f(s: S) -> u32 { var t = s; t.a[1] ^= 3u; return t.a[1]; }",
		"fn f(x: u32) -> u32 { switch x { case 0u, 1u: { return 1u; } default: { return x >> 1u; } } }",
		"fn f() -> i32 { var i = 0; loop { i++; continuing { break if i > 3; } } return i; }",
		"var<private> g: f32 = 1.0; fn f() { while (g < 8.0) { g *= 2.0; } }",
		"@compute @workgroup_size(1) fn main() {}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := Parse("fuzz.wgsl", src)
		if err != nil {
			list, ok := err.(ir.ErrorList)
			if !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			for _, e := range list {
				if strings.Contains(e.Msg, "internal error") {
					t.Fatalf("%v", e)
				}
				if e.Pos.Line < 1 || e.Pos.Col < 1 {
					t.Fatalf("unpositioned error: %v", e)
				}
			}
			return
		}
		printed := ir.Print(m)
		m2, err := Parse("fuzz.wgsl", []byte(printed))
		if err != nil {
			t.Fatalf("re-parsing the printed module fails: %v\n--- input\n%s\n--- printed\n%s", err, src, printed)
		}
		if again := ir.Print(m2); again != printed {
			t.Fatalf("print → parse → print is not stable\n--- input\n%s\n--- printed\n%s\n--- printed again\n%s", src, printed, again)
		}
	})
}
