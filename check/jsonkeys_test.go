package check

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
)

// TestJSONKeysAreSnakeCase (issue 25: case files' findings wrote "Class",
// "Adapter", drivers --json's hazards "Op", "Pos": {"Line", …}, while
// every other --json is snake_case): a case record's findings and a
// hazard marshal with lower-case keys only, and a case file written
// before still reads (encoding/json matches keys case-insensitively).
func TestJSONKeysAreSnakeCase(t *testing.T) {
	upper := regexp.MustCompile(`"[A-Z][A-Za-z_]*":`)
	f := Finding{Class: ClassVendor, Adapter: "wgpu-gl:llvmpipe", Runs: []string{"wgpu-gl:llvmpipe k wgsl"}, Implicates: "x", Invocations: []int{1}}
	b, err := json.Marshal(testcase.CaseRecord{Format: testcase.CaseFormat, Findings: findingRecords([]Finding{f})})
	require.NoError(t, err)
	assert.Empty(t, upper.FindAllString(string(b), -1), "%s", b)
	assert.Contains(t, string(b), `"findings":[{"class":"vendor","adapter":"wgpu-gl:llvmpipe","runs":["wgpu-gl:llvmpipe k wgsl"],"implicates":"x","invocations":[1]}]`)

	h, err := json.Marshal(Hazard{Op: "OpSDiv", Domain: "a zero divisor", Pos: ir.Pos{Line: 3, Col: 9}, Invocations: []int{0}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"op": "OpSDiv", "domain": "a zero divisor", "pos": {"line": 3, "col": 9}, "invocations": [0]}`, string(h))

	var old Finding
	require.NoError(t, json.Unmarshal([]byte(`{"Class": "vendor", "Adapter": "a", "Runs": ["r"], "Implicates": "i", "Invocations": [2]}`), &old))
	assert.Equal(t, Finding{Class: ClassVendor, Adapter: "a", Runs: []string{"r"}, Implicates: "i", Invocations: []int{2}}, old)
}
