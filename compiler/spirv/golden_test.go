package spirv

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// goldenKernels are small kernels whose disassembly is kept in
// testdata/<name>.golden, reviewed by hand: the result ids are assigned in
// emission order, so the text is stable.
func goldenKernels() []struct {
	name string
	m    *ir.Module
	opts Options
} {
	div := binKernel(ir.OpDiv, ir.I32, ir.I32)
	shiftConv := module(fn("k", params("a", ir.U32, "f", ir.F32), ir.I32,
		ret(bin(ir.OpAdd, bitcast(ir.I32, bin(ir.OpShl, param("a", ir.U32), u32(3))), conv(ir.I32, param("f", ir.F32))))))
	sDecl := &ir.StructDecl{Name: "P", Fields: []ir.Field{{Name: "on", Type: ir.Bool}, {Name: "x", Type: ir.F32}}}
	P := ir.StructType(sDecl)
	boolABI := module(fn("k", params("p", P), ir.Bool, ret(un(ir.OpNot, member(param("p", P), 0)))))
	boolABI.Structs = []*ir.StructDecl{sDecl}
	sw := module(fn("k", params("a", ir.U32), ir.U32,
		switchOf(param("a", ir.U32),
			caseOf([]ir.Value{uv(1), uv(2)}, false, ret(u32(10))),
			caseOf([]ir.Value{uv(7)}, true, brk())),
		ret(u32(0))))
	return []struct {
		name string
		m    *ir.Module
		opts Options
	}{
		{"div_portable", div, DefaultOptions()},
		{"div_raw", div, Options{Mode: Raw, DebugNames: true}},
		{"shift_convert_portable", shiftConv, DefaultOptions()},
		{"break_if", breakIfSum(), DefaultOptions()},
		{"switch_default_with_value", sw, DefaultOptions()},
		{"bool_in_struct_abi", boolABI, DefaultOptions()},
	}
}

func TestGoldenDisassembly(t *testing.T) {
	for _, g := range goldenKernels() {
		t.Run(g.name, func(t *testing.T) {
			words := emitValid(t, g.m, "k", g.opts)
			got, err := Disassemble(words)
			require.NoError(t, err)
			path := filepath.Join("testdata", g.name+".golden")
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "missing golden: run go test ./compiler/spirv -run TestGoldenDisassembly -update and review it")
			assert.Equal(t, string(want), got)
		})
	}
}
