package shaders

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
)

// loopsHeader is the first line of every shaders/loops/NAME.wgsl: what
// flatten makes of its loops, derived by hand from the rules of flatten's
// doc ("Loops in twins"): the loops unrolled, kept as uniform loops and
// kept as masked loops (every lowering of a loop counts: a loop inside
// an unrolled loop counts once per copy that reaches it).
var loopsHeader = regexp.MustCompile(`^// loops: unrolled (\d+), kept uniform (\d+), masked (\d+)\n`)

// TestLoopTwinsMatchHandDerivedExpectations runs every shaders/loops/NAME.wgsl
// entry point and its flattened twin (flatten.Function with Strict and
// VerifyPasses) in the reference dispatch with NAME.inputs.json and
// checks the final read_write bindings of both against
// NAME.expected.json, derived by hand (each shader's comment says how),
// and flatten's loop counts against the file's "// loops:" header.
func TestLoopTwinsMatchHandDerivedExpectations(t *testing.T) {
	files, err := filepath.Glob("loops/*.wgsl")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 5)
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".wgsl")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			h := loopsHeader.FindStringSubmatch(string(src))
			require.NotNil(t, h, "no // loops: header")
			m, err := wgsl.Parse(path, src)
			require.NoError(t, err)
			var counts [3]int
			kinds := map[string]int{"unrolled": 0, "uniform": 1, "masked": 2}
			twin, err := flatten.Function(m, "main", flatten.Options{Strict: true, VerifyPasses: true,
				OnLoop: func(_ ir.Pos, k string) { counts[kinds[k]]++ }})
			require.NoError(t, err)
			assert.Equal(t, fmt.Sprintf("%s %s %s", h[1], h[2], h[3]), fmt.Sprintf("%d %d %d", counts[0], counts[1], counts[2]), "unrolled, uniform, masked")
			var in, want map[string]json.RawMessage
			b, err := os.ReadFile(strings.TrimSuffix(path, ".wgsl") + ".inputs.json")
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &in))
			b, err = os.ReadFile(strings.TrimSuffix(path, ".wgsl") + ".expected.json")
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &want))
			for _, fn := range []string{"main", twin.Name} {
				checkEntryExpectations(t, m, fn, in, want)
			}
		})
	}
}
