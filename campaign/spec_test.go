package campaign

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness"
)

func TestDriverChanges(t *testing.T) {
	before := []harness.DriverRecord{
		{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "22.3.6"},
		{Adapter: "wgpu-gl:llvmpipe", Driver: "Mesa", Version: "22.3.6"},
		{Adapter: "gone", Driver: "x", Version: "1"},
	}
	now := []harness.DriverRecord{
		{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "23.0.1"},
		{Adapter: "wgpu-gl:llvmpipe", Driver: "Mesa", Version: "22.3.6"},
		{Adapter: "new", Driver: "y", Version: "2"},
	}
	assert.Equal(t, []string{"wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe 23.0.1"}, DriverChanges(before, now))
	assert.Nil(t, DriverChanges(before, before))
	var w bytes.Buffer
	r := &Run{resumed: true, Spec: Spec{Adapters: []string{"wgpu-vulkan:llvmpipe"}, Drivers: before}}
	require.NoError(t, r.UseAdapters([]string{"wgpu-vulkan:llvmpipe"}, now, &w))
	assert.Contains(t, w.String(), "the drivers changed since the campaign began (wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe 23.0.1)")
	w.Reset()
	require.NoError(t, r.UseAdapters([]string{"wgpu-vulkan:llvmpipe"}, before, &w))
	assert.Empty(t, w.String())
	assert.ErrorContains(t, r.UseAdapters([]string{"wgpu-gl:llvmpipe"}, before, &w), "the campaign ran on wgpu-vulkan:llvmpipe, this machine gives wgpu-gl:llvmpipe")
}

// ShardPrograms counts the programs i % N == I of Count; -1 without one.
func TestShardPrograms(t *testing.T) {
	assert.Equal(t, 3, Spec{Count: 10, Shard: "1/3"}.ShardPrograms(), "1, 4, 7")
	assert.Equal(t, 4, Spec{Count: 10, Shard: "0/3"}.ShardPrograms(), "0, 3, 6, 9")
	assert.Equal(t, 10, Spec{Count: 10, Shard: "0/1"}.ShardPrograms())
	assert.Equal(t, 0, Spec{Count: 2, Shard: "2/3"}.ShardPrograms())
	assert.Equal(t, -1, Spec{Shard: "0/1"}.ShardPrograms())
}

// UseDevices names the run's adapters after the devices opened.
func TestUseDevices(t *testing.T) {
	r := &Run{}
	names, err := r.UseDevices([]check.Device{interpDevice{}}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, []string{"interp"}, names)
	assert.Equal(t, names, r.Spec.Adapters)
}

// interpDevice is a device named like the interpreter: no driver to list.
type interpDevice struct{ check.Device }

func (interpDevice) Info() harness.AdapterInfo { return harness.AdapterInfo{Name: "interp"} }

func TestParseShard(t *testing.T) {
	i, n, err := ParseShard("3/16")
	require.NoError(t, err)
	assert.Equal(t, [2]int{3, 16}, [2]int{i, n})
	for _, bad := range []string{"", "16/16", "-1/2", "1/0", "a/b", "1"} {
		_, _, err := ParseShard(bad)
		assert.ErrorContains(t, err, "is not I/N with 0 ≤ I < N", bad)
	}
}

// TestSpecValidateAndResume: Validate writes a command line's defaults
// out as the journal records them; Resume takes the journal's options,
// refuses a given one that differs, and redirects the outputs given.
func TestSpecValidateAndResume(t *testing.T) {
	given := Spec{Tool: "t", Seed: 3, Mode: "portable", Stage: "compute", Profile: "default", Invocations: 16,
		Timeout: JournalDuration(30 * time.Second), NoGPU: true, Corpus: "a"}
	s := given
	require.NoError(t, s.Validate(map[string]bool{}, 1<<20))
	assert.Equal(t, "0/1", s.Shard)
	assert.Equal(t, "", s.Stage, "compute is journaled absent")
	assert.Equal(t, DefaultCount, s.Count)
	assert.Equal(t, -1, s.ShrinkAttempts)
	assert.Equal(t, []string{}, s.Adapters)

	bad := given
	bad.Count = 0
	assert.EqualError(t, bad.Validate(map[string]bool{"count": true}, 1<<20), "--count must be at least 1, got 0")
	bad = given
	bad.Shard = "2/2"
	assert.EqualError(t, bad.Validate(map[string]bool{}, 1<<20), `--shard wants I/N with 0 ≤ I < N, got "2/2"`)

	cmdline := s
	cmdline.Seed, cmdline.Corpus = 4, "b"
	_, err := cmdline.Resume("j.jsonl", map[string]bool{"seed": true}, s)
	assert.ErrorContains(t, err, "--seed=4 contradicts the resumed journal j.jsonl, whose campaign has --seed=3")
	c, err := cmdline.Resume("j.jsonl", map[string]bool{"corpus": true}, s)
	require.NoError(t, err)
	assert.Equal(t, uint64(3), c.Seed, "the journal's seed")
	assert.Equal(t, "b", c.Corpus, "an output given on resume redirects it")
	cmdline.FlattenFault = "retest-else"
	_, err = cmdline.Resume("j.jsonl", nil, s)
	assert.ErrorContains(t, err, "GPUDIFF_FLATTEN_FAULT=retest-else contradicts the resumed journal j.jsonl")
}
