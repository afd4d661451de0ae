package campaign

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
)

// TestComputeCampaignChecksShrinksAndSavesEntryPoints: a campaign of the
// compute profile checks entry points with check.ExecuteEntry (runs of
// main and main_flat on the device), and a stack that miscomputes one
// program's original (injected: its WGSL dispatch's output bytes
// flipped, campaign and shrinking runs alike) gives one failure, shrunk
// without losing a barrier and with no race in its reference, saved as
// an entry case file that reads back with its workgroups and bindings
// and still fails when replayed on the same stack.
func TestComputeCampaignChecksShrinksAndSavesEntryPoints(t *testing.T) {
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer d.Close()
	prof, err := gen.LookupProfile("compute")
	require.NoError(t, err)
	fd := &faultyDevice{Device: d, corrupt: "p2/main/wgsl"}
	shrinkFd := &faultyDevice{Device: d, corrupt: "s2/main/wgsl"}
	dir := t.TempDir()
	var recs []ProgramRecord
	cfg := Config{Seed: 1, Count: 4, Gen: gen.Config{Profile: prof}, Devices: []check.Device{&twoLabels{fd, shrinkFd}},
		ShrinkAttempts: 60, Corpus: dir, ToolVersion: "test", OnProgram: func(r ProgramRecord) { recs = append(recs, r) }}
	sum, err := RunCampaign(context.Background(), cfg)
	require.NoError(t, err)
	require.Len(t, recs, 4)
	for _, r := range recs {
		assert.Contains(t, []string{"interp", "wgpu-vulkan:llvmpipe"}, r.Runs[len(r.Runs)-1].Adapter)
		if r.Index != 2 {
			assert.Equal(t, "pass", r.Verdict, "program %d", r.Index)
			assert.Empty(t, r.Signature)
			continue
		}
		assert.Equal(t, "mismatch", r.Verdict)
		assert.Equal(t, []check.Class{check.ClassStack}, r.Classes)
		assert.Less(t, r.ShrunkStmts, r.Stmts, "shrunk")
		require.NotEmpty(t, r.Case)
		src, err := os.ReadFile(filepath.Join(dir, r.Case))
		require.NoError(t, err)
		c, ec, rec, err := check.ParseCaseFile(r.Case, src)
		require.NoError(t, err)
		require.Nil(t, c)
		require.NotNil(t, ec)
		assert.Equal(t, []uint32{ec.Workgroups[0], ec.Workgroups[1], ec.Workgroups[2]}, rec.Workgroups)
		p := gen.Generate(r.Seed, gen.Config{Profile: prof})
		assert.Equal(t, p.Workgroups, ec.Workgroups)
		assert.Equal(t, barriers(p.Module, p.Kernel), barriers(ec.Module, ec.Entry), "shrinking keeps every barrier")
		res, err := check.ExecuteEntry(context.Background(), ec, check.Options{Devices: []check.Device{&faultyDevice{Device: d, corrupt: "main/wgsl"}}, Flat: rec.Flat})
		require.NoError(t, err)
		assert.Empty(t, res.Races)
		assert.Equal(t, check.ClassStack, check.AttributeEntry(ec, res)[0].Class, "the saved case still fails on the faulty stack")
	}
	assert.Equal(t, 1, sum.New)
}

// twoLabels runs campaign dispatches on a and shrinking ones ("s…") on b.
type twoLabels struct{ a, b *faultyDevice }

func (t *twoLabels) Info() harness.AdapterInfo { return t.a.Info() }
func (t *twoLabels) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	if len(k.Label) > 0 && k.Label[0] == 's' {
		return t.b.Run(ctx, k, job)
	}
	return t.a.Run(ctx, k, job)
}
