package interp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckSlotsKnowsEveryOpcode: execAt reads and writes the slots of
// every instruction without bounds checks, so checkSlots must say, for
// each opcode, which slots it touches; an opcode it does not list is an
// error (one past the last opcode stands for a new one).
func TestCheckSlotsKnowsEveryOpcode(t *testing.T) {
	for op := opFn; op <= opAddFVClampFV; op++ {
		cd := code{{op: op, x: 4 | 7<<3}, {op: opClampFV, x: 4 | 7<<3 | goodB}}
		assert.NoError(t, cd.checkSlots(8), "opcode %d with every slot operand at 0 in a frame of 8", op)
	}
	err := code{{op: opAddFVClampFV + 1}}.checkSlots(8)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "has no slot check")
}

// TestCheckSlotsRejectsSlotsOutsideTheFrame: by hand, in a frame of 8
// slots (0..7), each instruction below names a slot, or a lane, at 8 or
// below 0, or jumps outside its code (one instruction: targets 0 and 1,
// the end, are inside); the same instruction one slot (or target) lower
// or higher is accepted.
func TestCheckSlotsRejectsSlotsOutsideTheFrame(t *testing.T) {
	const v4, scalarB = 4 | 1<<3 | 1<<4, 4 | 1<<3 // four lanes: a and b vectors; a vector, b a scalar
	cases := []struct {
		name     string
		bad, ok  code
		mentions string
	}{
		{"opAdd's b", code{{op: opAdd, b: 8}}, code{{op: opAdd, b: 7}}, "[8, 9)"},
		{"opAddK's d", code{{op: opAddK, d: 8}}, code{{op: opAddK, d: 7}}, "[8, 9)"},
		{"opSel's condition", code{{op: opSel, c: -1}}, code{{op: opSel, c: 0}}, "[-1, 0)"},
		{"opBrLtK's a", code{{op: opBrLtK, a: 8}}, code{{op: opBrLtK, a: 7}}, "[8, 9)"},
		{"opAddFV's vector a", code{{op: opAddFV, x: v4, a: 5}}, code{{op: opAddFV, x: v4, a: 4}}, "[5, 9)"},
		{"opAddFV's scalar b", code{{op: opAddFV, x: scalarB, b: 8}}, code{{op: opAddFV, x: scalarB, b: 7}}, "[8, 9)"},
		{"opScaleFV's result", code{{op: opScaleFV, x: 4 | 1<<3, d: 5, c: 100}}, code{{op: opScaleFV, x: 4 | 1<<3, d: 4, c: 100}}, "[5, 9)"},
		{"opClampFV's hi", code{{op: opClampFV, x: 4 | 7<<3, c: 5}}, code{{op: opClampFV, x: 4 | 7<<3, c: 4}}, "[5, 9)"},
		{"the clamp a pair reads", code{{op: opAddFVClampFV, x: v4}, {op: opClampFV, x: 4 | 7<<3 | goodB, b: 5}},
			code{{op: opAddFVClampFV, x: v4}, {op: opClampFV, x: 4 | 7<<3 | goodB, b: 4}}, "[5, 9)"},
		{"a pair without its second", code{{op: opAddFVClampFV, x: v4}}, nil, "last"},
		{"a jump past the end", code{{op: opJmp, d: 2}}, code{{op: opJmp, d: 1}}, "jumps to 2"},
		{"a branch before the start", code{{op: opBrLtK, d: -1}}, code{{op: opBrLtK, d: 0}}, "jumps to -1"},
	}
	for _, c := range cases {
		err := c.bad.checkSlots(8)
		if assert.Error(t, err, c.name) {
			assert.Contains(t, err.Error(), c.mentions, c.name)
		}
		if c.ok != nil {
			assert.NoError(t, c.ok.checkSlots(8), c.name)
		}
	}
}

// TestOnlyVerifiedMakesVcode: vcode, which execAt runs without bounds
// checks, is made only by compiler.verified (after checkSlots): no other
// conversion to vcode, and no vcode literal, in the package's code.
func TestOnlyVerifiedMakesVcode(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var makers []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			ast.Inspect(d, func(n ast.Node) bool {
				var typ ast.Expr
				switch x := n.(type) {
				case *ast.CallExpr:
					typ = x.Fun
				case *ast.CompositeLit:
					typ = x.Type
				}
				if id, isID := typ.(*ast.Ident); isID && id.Name == "vcode" {
					in := "<top level>"
					if ok {
						in = fd.Name.Name
					}
					makers = append(makers, fset.Position(n.Pos()).String()+" in "+in)
				}
				return true
			})
		}
	}
	require.Len(t, makers, 1, "vcode made at %v", makers)
	assert.Contains(t, makers[0], " in verified")
}
