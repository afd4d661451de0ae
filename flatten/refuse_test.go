package flatten_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
)

// fixtureHeader reads the "// key: value" lines at the top of a fixture.
func fixtureHeader(src string) map[string]string {
	h := map[string]string{}
	for _, line := range strings.Split(src, "\n") {
		if !strings.HasPrefix(line, "// ") {
			break
		}
		if k, v, ok := strings.Cut(line[3:], ": "); ok && !strings.Contains(k, " ") {
			h[k] = v
		}
	}
	return h
}

// fixtureOptions turns "options: whitelist=a,b max-unroll=8" into Options.
func fixtureOptions(t *testing.T, spec string) flatten.Options {
	var opts flatten.Options
	for _, kv := range strings.Fields(spec) {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "whitelist":
			opts.Whitelist = strings.Split(v, ",")
		case "max-unroll":
			n, err := strconv.Atoi(v)
			require.NoError(t, err)
			opts.MaxUnroll = n
		case "strict":
			opts.Strict = true
		case "loops":
			opts.Loops = v
		default:
			t.Fatalf("unknown fixture option %q", k)
		}
	}
	return opts
}

// TestRefusalFixtures: each testdata/refuse/*.wgsl parses, and flattening
// it (its "kernel:" or every kernel) is refused with the hand-derived
// "want:" diagnostic — file:line:col: flatten: message — leaving the
// module without a twin.
func TestRefusalFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/refuse/*.wgsl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			h := fixtureHeader(string(src))
			require.NotEmpty(t, h["want"], "fixture has no want: line")
			m, err := wgsl.Parse(filepath.Base(path), src)
			require.NoError(t, err)
			before := ir.Print(m)
			opts := fixtureOptions(t, h["options"])
			if k := h["kernel"]; k != "" {
				_, err = flatten.Function(m, k, opts)
			} else {
				err = flatten.Module(m, opts)
			}
			require.Error(t, err)
			assert.True(t, flatten.IsRefusal(err), "not a refusal: %v", err)
			assert.Contains(t, err.Error(), filepath.Base(path)+":"+h["want"])
			assert.Equal(t, before, ir.Print(m), "a refused module is left unchanged")
		})
	}
}

// TestRefusesRecursion: WGSL forbids recursion and the front end rejects
// it, but IR from other producers (the generator's outside-subset
// programs) can hold it; flatten refuses it at the call that closes the
// cycle, direct or mutual, naming the cycle.
func TestRefusesRecursion(t *testing.T) {
	x := prm("x", ir.I32)
	at := ir.Pos{Line: 3, Col: 10}
	direct := module(fn("f", ir.I32, params("x", ir.I32),
		iff(bin(ir.OpLe, x, li(0)), blk(ret(li(0)))),
		ret(&ir.Call{Pos: at, Func: "f", Args: []ir.Expr{bin(ir.OpSub, x, li(1))}, T: ir.I32})))
	a := fn("a", ir.I32, params("x", ir.I32), ret(&ir.Call{Func: "b", Args: []ir.Expr{x}, T: ir.I32}))
	b := fn("b", ir.I32, params("x", ir.I32),
		iff(bin(ir.OpLe, x, li(0)), blk(ret(x))),
		ret(&ir.Call{Pos: at, Func: "a", Args: []ir.Expr{bin(ir.OpSub, x, li(1))}, T: ir.I32}))
	kernel := fn("kernel", ir.I32, params("x", ir.I32), ret(&ir.Call{Func: "a", Args: []ir.Expr{x}, T: ir.I32}))
	mutual := module(a, b, kernel)
	for _, c := range []struct {
		m      *ir.Module
		kernel string
		want   string
	}{
		{direct, "f", "test.wgsl:3:10: flatten: recursion f → f cannot be inlined"},
		{mutual, "kernel", "test.wgsl:3:10: flatten: recursion a → b → a cannot be inlined"},
	} {
		require.NoError(t, ir.Normalize(c.m))
		n := len(c.m.Funcs)
		_, err := flatten.Function(c.m, c.kernel, flatten.Options{})
		require.Error(t, err)
		assert.True(t, flatten.IsRefusal(err))
		assert.Equal(t, c.want, err.Error())
		assert.Len(t, c.m.Funcs, n, "no twin added")
	}
}

// TestRefusesUnselectableType: every type of the current IR decomposes
// into scalars and vectors, which select takes; a type that does not (here
// void, standing in for types the IR may grow: pointers, atomics,
// runtime-sized arrays) is refused at the inline boundary that would need
// a select of it.
func TestRefusesUnselectableType(t *testing.T) {
	h := fn("h", ir.I32, []*ir.Param{{Pos: ir.Pos{Line: 1, Col: 6}, Name: "v", T: ir.Void}}, ret(li(1)))
	k := fn("kernel", ir.I32, nil, ret(li(2)))
	m := module(h, k)
	_, err := flatten.Function(m, "h", flatten.Options{}) // the root's own parameters need no select
	require.NoError(t, err)
	k.Body = blk(ret(&ir.Call{Func: "h", Args: []ir.Expr{li(0)}, T: ir.I32}))
	_, err = flatten.Function(m, "kernel", flatten.Options{})
	require.Error(t, err)
	assert.True(t, flatten.IsRefusal(err))
	assert.Equal(t, "test.wgsl:1:6: flatten: parameter v of h has type void, which cannot be selected at an inline boundary", err.Error())
}
