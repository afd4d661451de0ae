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
		{"opSplat's a", code{{op: opSplat, a: 8, x: 4}}, code{{op: opSplat, a: 7, x: 4}}, "[8, 9)"},
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

// TestCheckSlotsCoversExecAt reads code.go: every slot field that a case
// of execAt's switch hands to sat (unchecked) must be one that opInfos
// gives a checked slot role (argSlot, argLanes, argVec4) for that opcode,
// which checkSlots then checks, and every jump target it reads unsigned
// one that opInfos marks argTarget. A field of the next instruction (a
// pair's second, which fuse keeps in place) is checked as that
// instruction's own, unless opInfos names it for the pair (opInfo.next:
// opAddFVClampFV's clamp). This is what a new or edited case must keep in
// step with the table.
func TestCheckSlotsCoversExecAt(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "code.go", nil, 0)
	require.NoError(t, err)
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			funcs[fd.Name.Name] = fd
		}
	}
	require.Contains(t, funcs, "execAt")
	byName := map[string]*opInfo{}
	for op := range numOpcodes {
		byName[opInfos[op].name] = &opInfos[op]
	}
	// cases calls visit with each case clause of the first switch on
	// in.op in fn and the opcodes it lists.
	cases := func(fn *ast.FuncDecl, visit func(ops []string, body []ast.Stmt)) {
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok {
				return true
			}
			if sel, ok := sw.Tag.(*ast.SelectorExpr); !ok || sel.Sel.Name != "op" {
				return true
			}
			for _, s := range sw.Body.List {
				cc := s.(*ast.CaseClause)
				var ops []string
				for _, e := range cc.List {
					ops = append(ops, e.(*ast.Ident).Name)
				}
				visit(ops, cc.Body)
			}
			return false
		})
	}
	// fields returns "recv.field" for each instr field a, b, c, d in e.
	fields := func(e ast.Node) []string {
		var out []string
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && strings.Contains("abcd", x.Sel.Name) && len(x.Sel.Name) == 1 {
					out = append(out, id.Name+"."+x.Sel.Name)
				}
			case *ast.Ident:
				if x.Name == "src" { // opSel: in.a or in.b
					out = append(out, "in.a", "in.b")
				}
			}
			return true
		})
		return out
	}
	isCall := func(n ast.Node, name string) (*ast.CallExpr, bool) {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return nil, false
		}
		id, ok := c.Fun.(*ast.Ident)
		return c, ok && id.Name == name
	}
	// What execAt reads unchecked, by opcode.
	satUses, jumps, inSwitch := map[string][]string{}, map[string][]string{}, map[string]bool{}
	cases(funcs["execAt"], func(ops []string, body []ast.Stmt) {
		for _, op := range ops {
			require.Contains(t, byName, op, "execAt's case %s has no opInfos entry", op)
			inSwitch[op] = true
		}
		for _, st := range body {
			ast.Inspect(st, func(n ast.Node) bool {
				if c, ok := isCall(n, "sat"); ok {
					for _, op := range ops {
						satUses[op] = append(satUses[op], fields(c.Args[1])...)
					}
				}
				if c, ok := isCall(n, "int"); ok {
					if u, ok := isCall(c.Args[0], "uint32"); ok {
						for _, op := range ops {
							jumps[op] = append(jumps[op], fields(u.Args[0])...)
						}
					}
				}
				return true
			})
		}
	})
	require.NotEmpty(t, satUses["opAdd"], "the scan finds execAt's sat calls")
	checked := func(roles [4]opArg, field string) bool {
		k := strings.Index("abcd", field)
		return roles[k] == argSlot || roles[k] == argLanes || roles[k] == argVec4
	}
	for op, us := range satUses {
		info := byName[op]
		for _, u := range us {
			recv, field, _ := strings.Cut(u, ".")
			if recv == "in" && checked(info.args, field) {
				continue
			}
			if recv != "in" && info.pair {
				continue // the pair's second instruction: checked as itself, and for the pair where next says
			}
			t.Errorf("execAt's %s reads %s through sat; opInfos gives %s no checked slot role for it", op, u, op)
		}
	}
	for op, us := range jumps {
		info := byName[op]
		for _, u := range us {
			if u == "in.d" && !info.jumps() {
				t.Errorf("execAt's %s jumps to in.d read unsigned; opInfos does not mark %s's d a jump target", op, op)
			}
			if u != "in.d" && !info.pair {
				t.Errorf("execAt's %s jumps to %s read unsigned; not a pair's second instruction", op, u)
			}
		}
	}
	// Every opcode but opNop has its case in execAt (a missing one would
	// do nothing).
	for op := range numOpcodes {
		if !inSwitch[opInfos[op].name] && op != opNop {
			t.Errorf("execAt has no case for %v", op)
		}
	}
	assert.False(t, inSwitch["opNop"], "opNop has a case")
}

// TestOpInfosNameEveryOpcode: opInfos' entries, in order, are named for
// code.go's opcode constants (from opFn to numOpcodes), each has one,
// and an opcode's String is its name.
func TestOpInfosNameEveryOpcode(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "code.go", nil, 0)
	require.NoError(t, err)
	var names []string
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.CONST {
			if first := gd.Specs[0].(*ast.ValueSpec).Names[0].Name; first != "opFn" {
				continue
			}
			for _, sp := range gd.Specs {
				names = append(names, sp.(*ast.ValueSpec).Names[0].Name)
			}
		}
	}
	require.NotEmpty(t, names)
	require.Equal(t, "numOpcodes", names[len(names)-1])
	names = names[:len(names)-1]
	require.Len(t, names, int(numOpcodes))
	for op := range numOpcodes {
		assert.Equal(t, names[op], opInfos[op].name, "opInfos[%d]", op)
		assert.Equal(t, names[op], op.String())
	}
	assert.Equal(t, "opcode(200)", opcode(200).String())
}

// TestOpInfosRoles: the roles opInfos states, by hand for a few opcodes
// (what execAt's cases and stmt.go's emitters use the fields for), and
// the pair opcodes are exactly those fuse makes (fuse.go).
func TestOpInfosRoles(t *testing.T) {
	assert.Equal(t, [4]opArg{argSlot, argSlot, argNone, argSlot}, opInfos[opAdd].args)
	assert.Equal(t, [4]opArg{argSlot, argNone, argNone, argTarget}, opInfos[opBrLtK].args, "a, the sign flip b, the site c, the target d")
	assert.Equal(t, [4]opArg{argSlot, argSlot, argSlot, argSlot}, opInfos[opSel].args)
	assert.Equal(t, [4]opArg{argLanes, argNone, argNone, argLanes}, opInfos[opScaleFV].args, "c is the exponent, an immediate")
	assert.Equal(t, [4]opArg{argNone, argIndex, argNone, argTarget}, opInfos[opLoopBack].args)
	var jumps, pairs []opcode
	for op := range numOpcodes {
		if opInfos[op].jumps() {
			jumps = append(jumps, op)
		}
		if opInfos[op].pair {
			pairs = append(pairs, op)
		}
	}
	assert.Equal(t, []opcode{opLoopBack, opJmp, opBrEq, opBrNe, opBrLt, opBrLe, opBrGt, opBrGe, opBrF, opBrBool,
		opBrEqK, opBrNeK, opBrLtK, opBrLeK, opBrGtK, opBrGeK}, jumps)
	made := map[opcode]bool{opAddKLoopBack: true, opShlKXor: true, opShrUKXor: true, opAndKI2F: true, opMulKAdd: true,
		opMulKAddK: true, opAddFVClampFV: true}
	for _, p := range testBranches {
		made[p] = true
	}
	var want []opcode
	for op := range numOpcodes {
		if made[op] {
			want = append(want, op)
		}
	}
	assert.Equal(t, want, pairs)
}
