package wgsl

import (
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ptRefusal is one expected error: its position (line:col, derived by hand
// from the snippet) and a fragment of its message naming the construct.
type ptRefusal struct{ pos, msg string }

// ptRefusalCases are small modules, one per kind of construct outside
// gpudiff's subset, with the errors Parse and then Kernel (kernel "" is
// the default choice) must give: every one positioned at the construct
// and naming it (issue 14: no unpositioned refusals). wgsl says whether the
// module is valid WGSL (Tint must accept it) or a naga extension (Tint
// must reject it).
var ptRefusalCases = []struct {
	name, src, kernel string
	wgsl              bool
	want              []ptRefusal
}{
	{"texture parameter", "fn k(t: texture_2d<f32>) -> i32 {\n  return 1;\n}", "", true,
		[]ptRefusal{{"1:9", "check: kernel k is outside the gpudiff subset: a parameter of type texture_2d<f32>"}}},
	{"texture builtin", "@group(0) @binding(0) var t: texture_2d<f32>;\nfn k() -> u32 {\n  return textureDimensions(t).x;\n}", "", true,
		[]ptRefusal{{"3:28", "check: kernel k uses texture or sampler t, which only a compute entry point as written can use"}}},
	{"sampler", "@group(0) @binding(1) var s: sampler;\nfn k() -> i32 { _ = s; return 1; }", "", true,
		[]ptRefusal{{"2:19", "check: kernel k is outside the gpudiff subset: a phony assignment's value of type sampler"}}},
	// f16 is in the subset (issue 40) but for modf's and frexp's f16
	// result structs and run-time bitcasts that change the component
	// count.
	{"storage buffer", "@group(0) @binding(0) var<storage, read_write> buf: array<u32>;\nfn k(i: u32) -> u32 {\n  return buf[i];\n}", "", true,
		[]ptRefusal{{"3:10", "check: kernel k uses var<storage> buf, which only a compute entry point as written can use"}}},
	{"uniform buffer", "struct P { n: u32 }\n@group(0) @binding(0) var<uniform> p: P;\nfn k() -> u32 { return p.n; }", "", true,
		[]ptRefusal{{"3:24", "check: kernel k uses var<uniform> p, which only a compute entry point as written can use"}}},
	{"workgroup var", "var<workgroup> w: array<u32, 64>;\nfn k(i: u32) -> u32 { return w[i]; }", "", true,
		[]ptRefusal{{"2:30", "check: kernel k uses var<workgroup> w, which only a compute entry point as written can use"}}},
	{"atomic", "var<workgroup> c: atomic<u32>;\nfn k() -> u32 { return atomicAdd(&c, 1u); }", "", true,
		[]ptRefusal{{"2:24", "check: kernel k calls atomicAdd, which only a compute entry point as written can use"}}},
	{"pointer parameter", "fn k(p: ptr<function, i32>) -> i32 { return *p; }", "", true,
		[]ptRefusal{{"1:9", "check: kernel k is outside the gpudiff subset: pointer parameter"}}},
	{"workgroup size beyond the reference's", "@compute @workgroup_size(2048)\nfn main() { }", "", true,
		[]ptRefusal{
			{"1:26", "check: @compute fn main is outside gpudiff's subset: @workgroup_size argument 2048 (gpudiff's reference allows at most 1024)"},
			{"1:1", "check: no kernel: every function is an entry point (the first: @compute fn main)"},
		}},
	{"struct member attribute", "struct S {\n  @builtin(position) @invariant a: vec4<f32>,\n}\nfn k(s: S) -> f32 { return s.a.x; }", "", true,
		[]ptRefusal{{"4:9", "check: kernel k is outside the gpudiff subset: uses struct S, which is outside the subset: @invariant"}}},
	{"discard", "fn k(x: f32) -> f32 {\n  if (x < 0.0) { discard; }\n  return x;\n}", "", true,
		[]ptRefusal{{"2:18", "check: kernel k is outside the gpudiff subset: discard statement"}}},
	{"entry points only", "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\n@compute @workgroup_size(64)\nfn main(@builtin(global_invocation_id) id: vec3<u32>) {\n  out[id.x] = id.x;\n}", "", true,
		[]ptRefusal{
			{"3:1", "check: no kernel: every function is an entry point (the first: @compute fn main) or is called by another function; gpudiff runs function kernels (a function that is neither an entry point nor called by another function, run once per invocation with arguments from --inputs or --seed), @compute entry points as written, whose functions must all be in the subset, and @fragment entry points as written (exec --size WxH)"},
		}},
	{"entry point named as the kernel", "@compute @workgroup_size(1)\nfn main() {}", "main", true,
		[]ptRefusal{{"1:1", "check: kernel main is a compute entry point: it runs as written (gpudiff exec --no-gpu --workgroups X,Y,Z), not as a function kernel"}}},
	{"every function an entry point or called by one", "fn helper() -> u32 { return 1u; }\n@vertex fn vs() -> @builtin(position) vec4f { _ = helper(); return vec4f(); }", "", true,
		[]ptRefusal{{"2:1", "check: no kernel: every function is an entry point (the first: @vertex fn vs) or is called by another function"}}},
	{"enable and what an entry point's helper uses", "enable clip_distances;\n@group(0) @binding(0) var t: texture_external;\nfn size() -> u32 { return textureDimensions(t).x; }\n@compute @workgroup_size(1) fn main() { _ = size(); }", "", true,
		[]ptRefusal{
			// The entry point itself leads, at its call of size (column 45 of line 4).
			{"4:45", "check: @compute fn main is outside gpudiff's subset: texture type texture_external (reached through calls size → uses var t)"},
			{"4:1", "check: no kernel: every function is an entry point (the first: @compute fn main)"},
			{"1:1", "check: also outside gpudiff's subset: enable clip_distances (enable-extensions)"},
			{"2:30", "check: also outside gpudiff's subset: var t: texture type texture_external"},
			{"3:45", "check: also outside gpudiff's subset: fn size: uses var t, which is outside the subset: texture type texture_external"},
		}},
	{"no function", "const n = 4;", "", true,
		[]ptRefusal{{"1:1", "check: no kernel: the module declares no function; gpudiff runs a function kernel"}}},
	{"ambiguous kernel", "fn b() -> i32 { return 1; }\n\nfn a() -> i32 { return 2; }", "", true,
		[]ptRefusal{{"1:1", "check: ambiguous kernel: 2 functions are neither entry points nor called by another function, so each could be the kernel: a (3:1), b (1:1) (name one: --kernel)"}}},
	{"64-bit literal (naga)", "fn k(x: i32) -> i32 {\n  return x + i32(1li);\n}", "", false,
		[]ptRefusal{{"2:18", `parse: invalid numeric literal 1li: "li" is not a WGSL literal suffix (i, u, f, h); 64-bit literals (i64, u64, f64) are a naga extension`}}},
	{"unknown literal suffix", "fn k() -> f32 { return 2.5d; }", "", false,
		[]ptRefusal{{"1:24", `parse: invalid numeric literal 2.5d: "d" is not a WGSL literal suffix (i, u, f, h)`}}},
	{"f64 (naga)", "fn k(x: f64) -> i32 { return 1; }", "", false,
		[]ptRefusal{{"1:9", "check: undeclared identifier 'f64': 64-bit floats are a naga extension, not WGSL"}}},
	{"push constant (naga)", "var<push_constant> c: u32;\nfn k() -> u32 { return c; }", "", false,
		[]ptRefusal{{"1:5", "check: undeclared identifier 'push_constant': the push_constant address space is a naga extension"}}},
}

// ptRefusals returns the errors of parsing src and choosing its kernel.
func ptRefusals(src, kernel string) error {
	m, err := Parse("x.wgsl", []byte(src))
	if err != nil {
		return err
	}
	_, err = Kernel(m, kernel)
	return err
}

// TestRefusalsArePositionedAndNamed checks every ptRefusalCases module: the
// exact errors, in order, each at its construct; and Tint's verdict on the
// module (valid WGSL, or a naga extension Tint rejects), so that a refusal
// of valid WGSL is never mistaken for an error in the input.
func TestRefusalsArePositionedAndNamed(t *testing.T) {
	var srcs []string
	for _, tc := range ptRefusalCases {
		srcs = append(srcs, tc.src)
	}
	verdicts := ptTintCheck(t).check(t, srcs...)
	for i, tc := range ptRefusalCases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.wgsl {
				assert.NoError(t, verdicts[i], "Tint rejects this module, meant to be valid WGSL")
			} else {
				assert.Error(t, verdicts[i], "Tint accepts this module, meant to be a naga extension")
			}
			err := ptRefusals(tc.src, tc.kernel)
			require.Error(t, err)
			list, ok := err.(ir.ErrorList)
			require.True(t, ok, "error is %T", err)
			require.Len(t, list, len(tc.want), "%v", err)
			for j, w := range tc.want {
				prefix := "x.wgsl:" + w.pos + ": "
				got := list[j].Error()
				assert.True(t, strings.HasPrefix(got, prefix), "error %d is %q, want it at %s", j, got, w.pos)
				assert.Contains(t, got, w.msg, "error %d", j)
			}
		})
	}
}

// FuzzRefusalsArePositioned checks, for any input, that parsing it and
// choosing its default kernel never panics, never fails internally, and
// gives only errors positioned in the input.
//
//	go test ./compiler/wgsl -run '^$' -fuzz FuzzRefusalsArePositioned -fuzztime 60s
func FuzzRefusalsArePositioned(f *testing.F) {
	for _, tc := range ptRefusalCases {
		f.Add([]byte(tc.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			return ptRefusals(string(src), "")
		}()
		if err == nil {
			return
		}
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
	})
}
