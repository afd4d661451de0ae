package spirv

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

var update = flag.Bool("update", false, "rewrite the SPIR-V sections of testdata/golden/*.txtar")

// TestEntryGoldens pins the SPIR-V of small compute entry points as
// written, the format of shaders/testdata/golden: each
// testdata/golden/entry_NAME.txtar has
// input.wgsl and the disassembly (this package's Disassemble, debug names
// on) of its entry point in portable mode (spirv.asm) and raw mode
// (spirv-raw.asm). The archive's comment says why each decoration and
// operand is right, so the text is reviewed by reading; spirv-val checks
// the module too. -update rewrites the sections.
func TestEntryGoldens(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/entry_*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			require.NoError(t, err)
			require.NotEmpty(t, ar.Files)
			require.Equal(t, "input.wgsl", ar.Files[0].Name)
			m, err := wgsl.Parse("input.wgsl", ar.Files[0].Data)
			require.NoError(t, err)
			ep, err := wgsl.Entry(m, "")
			require.NoError(t, err)
			got := map[string]string{}
			for name, mode := range map[string]Mode{"spirv.asm": Portable, "spirv-raw.asm": Raw} {
				words := emitValid(t, m, ep.Name, Options{Mode: mode, DebugNames: true})
				dis, err := Disassemble(words)
				require.NoError(t, err)
				got[name] = dis
			}
			if *update {
				ar.Files = []txtar.File{ar.Files[0], {Name: "spirv.asm", Data: []byte(got["spirv.asm"])}, {Name: "spirv-raw.asm", Data: []byte(got["spirv-raw.asm"])}}
				require.NoError(t, os.WriteFile(path, txtar.Format(ar), 0o644))
				return
			}
			seen := 0
			for _, f := range ar.Files[1:] {
				want, ok := got[f.Name]
				require.True(t, ok, "unknown section %s", f.Name)
				assert.Equal(t, string(f.Data), want, "%s (go test -run TestEntryGoldens -update to rewrite)", f.Name)
				seen++
			}
			assert.Equal(t, len(got), seen, "missing sections (-update adds them)")
		})
	}
}

// TestRenderGoldens pins the SPIR-V of small render pipelines as written:
// each testdata/golden/render_NAME.txtar has input.wgsl and, for each of
// its vertex and fragment entry points E in source order, the
// disassembly (debug names on, portable mode) of E's module (E.asm) and,
// for a fragment entry point that discards, of its module under
// DiscardKill (E-kill.asm). The archive's comment says why each part is
// right; spirv-val checks every module. -update rewrites the sections.
func TestRenderGoldens(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/render_*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			require.NoError(t, err)
			require.NotEmpty(t, ar.Files)
			require.Equal(t, "input.wgsl", ar.Files[0].Name)
			m, err := wgsl.Parse("input.wgsl", ar.Files[0].Data)
			require.NoError(t, err)
			var got []txtar.File
			for _, f := range m.Funcs {
				if !f.Stage.IsRenderStage() {
					continue
				}
				opts := []Options{{Mode: Portable, DebugNames: true}}
				names := []string{f.Name + ".asm"}
				if f.Stage == ir.StageFragment && firstDiscard(m.CallGraph(f.Name)) != nil {
					opts = append(opts, Options{Mode: Portable, DebugNames: true, Discard: DiscardKill})
					names = append(names, f.Name+"-kill.asm")
				}
				for i, o := range opts {
					dis, err := Disassemble(emitValid(t, m, f.Name, o))
					require.NoError(t, err)
					got = append(got, txtar.File{Name: names[i], Data: []byte(dis)})
				}
			}
			require.NotEmpty(t, got, "no vertex or fragment entry point")
			if *update {
				ar.Files = append(ar.Files[:1], got...)
				require.NoError(t, os.WriteFile(path, txtar.Format(ar), 0o644))
				return
			}
			require.Len(t, ar.Files[1:], len(got), "sections (-update rewrites them)")
			for i, f := range ar.Files[1:] {
				assert.Equal(t, got[i].Name, f.Name)
				assert.Equal(t, string(got[i].Data), string(f.Data), "%s (go test -run TestRenderGoldens -update to rewrite)", f.Name)
			}
		})
	}
}
