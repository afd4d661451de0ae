package flatten_test

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
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
)

var update = flag.Bool("update", false, "rewrite the flat.wgsl sections of testdata/golden/*.txtar")

// TestGolden: each testdata/golden/*.txtar holds input.wgsl and the
// expected flattened twins, flat.wgsl (every kernel's twin, in kernel
// order, as ir.PrintFunc prints them). The goldens pin the text, which
// was reviewed by reading; that each twin computes what its original does
// is checked here too, by the interpreter on generated inputs, not by the
// golden. Run with -update to rewrite the goldens after a reviewed change.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			require.NoError(t, err)
			var input []byte
			flat := -1
			for i, f := range ar.Files {
				switch f.Name {
				case "input.wgsl":
					input = f.Data
				case "flat.wgsl":
					flat = i
				}
			}
			require.NotNil(t, input, "no input.wgsl section")
			m, err := wgsl.Parse("input.wgsl", input)
			require.NoError(t, err)
			kernels := m.Kernels()
			require.NoError(t, flatten.Module(m, flatten.Options{Strict: true, VerifyPasses: true}))
			var got strings.Builder
			for i, k := range kernels {
				twin := m.Funcs[len(m.Funcs)-len(kernels)+i]
				if i > 0 {
					got.WriteString("\n")
				}
				got.WriteString(ir.PrintFunc(twin))
				diff, err := sameBehaviour(m, k, twin.Name, gen.Inputs(3, m.Func(k).Params, 200))
				require.NoError(t, err)
				assert.Empty(t, diff, "%s disagrees with %s", twin.Name, k)
			}
			if *update {
				if flat < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "flat.wgsl"})
					flat = len(ar.Files) - 1
				}
				ar.Files[flat].Data = []byte(got.String())
				require.NoError(t, os.WriteFile(path, txtar.Format(ar), 0o644))
				return
			}
			require.GreaterOrEqual(t, flat, 0, "no flat.wgsl section (run with -update)")
			assert.Equal(t, string(ar.Files[flat].Data), got.String())
		})
	}
}
