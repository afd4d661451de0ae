package ir

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allNodeTypes is one value of every node type (every type with a
// Position method). TestNodeChildrenAgree checks that the generated
// shallowCopy knows exactly as many.
var allNodeTypes = []Node{
	&Lit{}, &Ident{}, &Unary{}, &Binary{}, &Select{}, &Call{}, &BuiltinCall{}, &Construct{},
	&Convert{}, &Bitcast{}, &Index{}, &Member{}, &Swizzle{}, &AddrOf{},
	&Block{}, &Decl{}, &Assign{}, &ExprStmt{}, &If{}, &Loop{}, &Switch{}, &Case{}, &Break{},
	&Continue{}, &Return{}, &Func{}, &Atomic{}, &ArrayLength{}, &TextureCall{}, &Discard{},
}

var (
	exprType  = reflect.TypeFor[Expr]()
	stmtType  = reflect.TypeFor[Stmt]()
	blockType = reflect.TypeFor[*Block]()
	caseType  = reflect.TypeFor[*Case]()
)

// sampleNode returns a node of n's type whose every child slot (found by
// reflection: fields of type Expr, Stmt, *Block, *Case and slices of
// them, in declaration order — independently of mknode.go's go/ast
// reading) holds a distinct marker, and the markers in that order.
func sampleNode(n Node) (Node, []Node) {
	v := reflect.New(reflect.TypeOf(n).Elem())
	var want []Node
	k := 0
	marker := func(t reflect.Type) reflect.Value {
		k++
		var m Node
		switch t {
		case exprType:
			m = &Ident{Name: fmt.Sprintf("m%d", k), Ref: RefLet}
		case stmtType:
			m = &Break{Pos: Pos{Line: int32(k)}}
		case blockType:
			m = &Block{Pos: Pos{Line: int32(k)}}
		case caseType:
			m = &Case{Pos: Pos{Line: int32(k)}, Body: &Block{}}
		default:
			return reflect.Value{}
		}
		want = append(want, m)
		return reflect.ValueOf(m)
	}
	for i := 0; i < v.Elem().NumField(); i++ {
		f := v.Elem().Field(i)
		if f.Kind() == reflect.Slice {
			if m := marker(f.Type().Elem()); m.IsValid() {
				s := reflect.MakeSlice(f.Type(), 0, 2)
				s = reflect.Append(s, m, marker(f.Type().Elem()))
				f.Set(s)
			}
			continue
		}
		if m := marker(f.Type()); m.IsValid() {
			f.Set(m)
		}
	}
	return v.Interface().(Node), want
}

// TestNodeChildrenAgree: for every node type, DoChildren, EditChildren,
// clone, ExprOperands and WithOperands see the same children in the same
// order — the order of the child fields' declarations, found here by
// reflection (fuzz/shrink numbers nodes by this order).
func TestNodeChildrenAgree(t *testing.T) {
	gen, err := os.ReadFile("node_gen.go")
	require.NoError(t, err)
	body := string(gen)[strings.Index(string(gen), "func shallowCopy"):]
	body = body[:strings.Index(body, "\n}\n")]
	assert.Equal(t, len(allNodeTypes), strings.Count(body, "case *"), "allNodeTypes lists every node type the generator found")

	for _, proto := range allNodeTypes {
		name := reflect.TypeOf(proto).Elem().Name()
		t.Run(name, func(t *testing.T) {
			n, want := sampleNode(proto)
			var did []Node
			DoChildren(n, func(c Node) bool { did = append(did, c); return false })
			assert.Equal(t, want, did, "DoChildren: every child field, in declaration order")

			var edited []Node
			var repl []Node
			EditChildren(n, func(c Node) Node {
				edited = append(edited, c)
				r := shallowCopy(c)
				repl = append(repl, r)
				return r
			})
			assert.Equal(t, want, edited, "EditChildren: the same children in the same order")
			var after []Node
			DoChildren(n, func(c Node) bool { after = append(after, c); return false })
			require.Len(t, after, len(repl))
			for i := range repl {
				assert.Same(t, repl[i], after[i], "EditChildren stored child %d in its slot", i)
			}

			c := clone(n)
			assert.Equal(t, n, c, "clone is a deep copy")
			var cloned []Node
			DoChildren(c, func(x Node) bool { cloned = append(cloned, x); return false })
			require.Len(t, cloned, len(after))
			for i := range after {
				assert.NotSame(t, after[i], cloned[i], "clone copies child %d", i)
			}

			if e, ok := n.(Expr); ok {
				var buf Operands
				ops := ExprOperands(e, &buf)
				require.Len(t, ops, len(after))
				for i := range ops {
					assert.Same(t, after[i], ops[i], "ExprOperands %d", i)
				}
				if len(ops) > 0 {
					kids := make([]Expr, len(ops))
					for i := range kids {
						kids[i] = &Ident{Name: fmt.Sprintf("k%d", i)}
					}
					w := WithOperands(e, kids)
					assert.NotSame(t, e, w)
					got := ExprOperands(w, &buf)
					for i := range kids {
						assert.Same(t, kids[i], got[i], "WithOperands %d", i)
					}
				}
			}
		})
	}
}

// TestNodeGenUpToDate: node_gen.go is what mknode.go generates from the
// node structs today (run `go generate ./ir` after changing a node type).
func TestNodeGenUpToDate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "node_gen.go")
	cmd := exec.Command("go", "run", "mknode.go", "-o", out)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "go run mknode.go: %s", b)
	want, err := os.ReadFile(out)
	require.NoError(t, err)
	have, err := os.ReadFile("node_gen.go")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(have), "node_gen.go is stale: run go generate ./ir")
}
