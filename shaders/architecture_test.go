package shaders

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// stageRank is ARCHITECTURE.md's "Who imports whom" as data: a package
// may import only packages of a lower rank (no import climbs, none
// reaches sideways). A new package must be given its place here.
var stageRank = map[string]int{
	// WGSL's scalar semantics, below the IR (its values' binary16
	// conversion is wgslsem's)
	"ir/wgslsem": -1,
	// leaves: depend on nothing in the project but ir/wgslsem
	"ir": 0, "compiler/emitmode": 0, "baseline": 0, "internal/benchkit": 0,
	"harness/driverid": 0, "harness/internal/wgpuext": 0, "fuzz": 0, "findings": 0,
	// the stages over the IR, and the byte-level harness
	"interp": 1, "interp/raster": 1, "flatten": 1, "compiler/wgsl": 1, "compiler/spirv": 1, "fuzz/shrink": 1, "oracle": 1, "harness": 1,
	// generators; harness processes and implementations
	"fuzz/gen": 2, "harness/worker": 2, "harness/dawn": 2, "harness/window": 2,
	"harness/devices": 3,
	// the case model and case files
	"check/testcase": 4,
	// one case executed and judged
	"check": 5,
	// many cases
	"campaign": 6, "drivers": 6, "report/amber": 6,
	// rendering
	"report": 7,
	// front ends, tools and cross-stage tests
	"cmd/gpudiff": 8, "deploy/benchgpu": 8, "compiler/spirv/internal/gentables": 8, "internal/benchkit/instructions": 8, "internal/benchkit/findrate": 8,
	"compiler/spirv/crosscheck": 8, "shaders": 8,
}

// TestImportsFollowTheArchitectureMap lists every package of the module
// with `go list` (non-test imports, every build tag the tree uses) and
// fails on an import of a package of the same or a higher rank, or on a
// package the map does not place.
func TestImportsFollowTheArchitectureMap(t *testing.T) {
	const mod = "github.com/gpudiff/gpudiff/"
	for _, tags := range []string{"", "glfw"} {
		cmd := exec.Command("go", "list", "-tags", tags, "-json=ImportPath,Imports", "../...")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for {
			var p struct {
				ImportPath string
				Imports    []string
			}
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimPrefix(p.ImportPath, mod)
			rank, ok := stageRank[name]
			if !ok {
				t.Errorf("package %s has no place in the architecture map (stageRank, ARCHITECTURE.md \"Who imports whom\")", name)
				continue
			}
			for _, imp := range p.Imports {
				if !strings.HasPrefix(imp, mod) {
					continue
				}
				dep := strings.TrimPrefix(imp, mod)
				if r, ok := stageRank[dep]; ok && r >= rank {
					t.Errorf("%s (rank %d) imports %s (rank %d): an import may only go down the map (tags %q)", name, rank, dep, r, tags)
				}
			}
		}
	}
}
