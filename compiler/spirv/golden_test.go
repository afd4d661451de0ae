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
)

var update = flag.Bool("update", false, "rewrite the spirv.asm and spirv-raw.asm sections of testdata/golden/*.txtar")

// TestEntryGoldens pins the SPIR-V of small entry points as written, the
// format of shaders/testdata/golden: each testdata/golden/NAME.txtar has
// input.wgsl and the disassembly (this package's Disassemble, debug names
// on) of its entry point in portable mode (spirv.asm) and raw mode
// (spirv-raw.asm). The archive's comment says why each decoration and
// operand is right, so the text is reviewed by reading; spirv-val checks
// the module too. -update rewrites the sections.
func TestEntryGoldens(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.txtar")
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
