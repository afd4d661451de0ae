package campaign

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestMain lets this test binary serve as its own harness worker process
// (harness/worker re-executes the running binary with MarkerEnv set), so
// campaigns run on worker devices as `gpudiff run` runs them.
func TestMain(m *testing.M) {
	if os.Getenv(worker.MarkerEnv) == "1" {
		if err := worker.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "fuzz test worker:", err)
			os.Exit(worker.ExitServeError)
		}
		os.Exit(0)
	}
	flag.Parse()
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		if _, set := os.LookupEnv("MESA_SHADER_CACHE_DISABLE"); !set {
			// Benchmarks measure cold (BenchmarkGpudiff): campaign programs
			// are always new. Set before any adapter is opened; workers
			// inherit it.
			os.Setenv("MESA_SHADER_CACHE_DISABLE", "true")
		}
	}
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		// wgpu's Wayland probe complains without one (headless CI).
		if dir, err := os.MkdirTemp("", "fuzz-xdg"); err == nil {
			defer os.RemoveAll(dir)
			os.Setenv("XDG_RUNTIME_DIR", dir)
		}
	}
	os.Exit(m.Run())
}

// sequentialCampaign checks cfg's programs one after another, each stage
// of a program before the next program starts, with nothing batched: the
// campaign as it was before the pipeline, which the pipeline must equal.
func sequentialCampaign(t testing.TB, cfg Config) []ProgramRecord {
	t.Helper()
	if cfg.Invocations <= 0 {
		cfg.Invocations = 16
	}
	saved := map[string]bool{}
	var out []ProgramRecord
	for i := 0; i < cfg.Count; i++ {
		pr := startProgram(cfg, i)
		if pr.done {
			out = append(out, pr.rec)
			continue
		}
		runs := make([][]oracle.Run, len(cfg.Devices))
		for k, d := range cfg.Devices {
			runs[k] = pr.x.DeviceRuns(context.Background(), d)
		}
		out = append(out, finishProgram(context.Background(), cfg, pr, pr.x.Judge(runs), nil, saved))
	}
	return out
}

// pipelinedCampaign runs cfg through RunCampaign and returns its records.
func pipelinedCampaign(t testing.TB, cfg Config) ([]ProgramRecord, *Summary) {
	t.Helper()
	var recs []ProgramRecord
	cfg.OnProgram = func(r ProgramRecord) { recs = append(recs, r) }
	sum, err := RunCampaign(context.Background(), cfg)
	require.NoError(t, err)
	return recs, sum
}

func withoutTimes(recs []ProgramRecord) []ProgramRecord {
	out := append([]ProgramRecord(nil), recs...)
	for i := range out {
		out[i].Millis = 0
	}
	return out
}

// faultyDevice wraps a device: a dispatch with a label (or, in a batch
// module, any '|'-separated part of it) starting with reject is rejected
// as a compile error, and one with a part starting with corrupt comes back
// with every output byte flipped.
type faultyDevice struct {
	check.Device
	reject, corrupt string
	batches         atomic.Int32 // dispatches of batch modules seen
}

func (f *faultyDevice) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	parts := strings.Split(k.Label, "|")
	if len(parts) > 1 {
		f.batches.Add(1)
	}
	for _, p := range parts {
		if f.reject != "" && strings.HasPrefix(p, f.reject) {
			return nil, &harness.CompileError{Stage: harness.StageShaderModule, Message: "injected rejection of " + p}
		}
	}
	out, err := f.Device.Run(ctx, k, job)
	for _, p := range parts {
		if err == nil && f.corrupt != "" && strings.HasPrefix(p, f.corrupt) {
			for i := range out {
				out[i] ^= 0xa5
			}
		}
	}
	return out, err
}

// TestPipelinedCampaignEqualsSequential: the pipelined, batched campaign
// records exactly what checking the programs one by one, unbatched,
// records — also when a stack rejects a batch (every program of it then
// runs in modules of its own, and only the culprit gets the compile error)
// and when a batch miscomputes (its programs are executed again
// unbatched).
func TestPipelinedCampaignEqualsSequential(t *testing.T) {
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer d.Close()
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	for _, c := range []struct{ name, reject, corrupt string }{
		{"clean", "", ""},
		{"reject-p4", "p4/kernel/spirv", ""}, // the second unit (p3–p5) runs batched (batchTuner)
		{"corrupt-p5", "", "p5/kernel_flat/wgsl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fd := &faultyDevice{Device: d, reject: c.reject, corrupt: c.corrupt}
			cfg := Config{Seed: 1, Count: 12, Gen: gen.Config{Profile: prof}, Devices: []check.Device{fd},
				SPIRV: true, ShrinkAttempts: -1, ToolVersion: "test"}
			want := sequentialCampaign(t, cfg)
			fd.batches.Store(0)
			got, sum := pipelinedCampaign(t, cfg)
			assert.Equal(t, withoutTimes(want), withoutTimes(got))
			assert.Equal(t, cfg.Count, sum.Programs)
			assert.Positive(t, fd.batches.Load(), "some programs ran batched")
			if c.reject != "" || c.corrupt != "" {
				failed := map[int]bool{}
				for _, r := range got {
					if r.Signature != "" {
						failed[r.Index] = true
					}
				}
				assert.NotEmpty(t, failed, "the injected fault is found")
				assert.Len(t, failed, 1, "only the culprit fails: %v", failed)
			}
		})
	}
}

// TestPipelinedCampaignOnWorkersAttributesACrash: a worker crash during a
// batch module costs only the program that causes it its verdict.
func TestPipelinedCampaignOnWorkersAttributesACrash(t *testing.T) {
	w, err := worker.Start("wgpu-vulkan:llvmpipe", worker.Options{Env: []string{worker.FaultEnv + "=crash@p5/"}, Timeout: 60 * time.Second})
	require.NoError(t, err)
	defer w.Close()
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	cfg := Config{Seed: 1, Count: 8, Gen: gen.Config{Profile: prof}, Devices: []check.Device{w},
		SPIRV: true, ShrinkAttempts: -1, ToolVersion: "test"}
	got, sum := pipelinedCampaign(t, cfg)
	require.Len(t, got, 8)
	for _, r := range got {
		if r.Index == 5 {
			assert.Equal(t, string(oracle.Crash), r.Verdict)
			assert.Equal(t, check.ClassCrash, r.Classes[0])
			continue
		}
		assert.Empty(t, r.Signature, "program %d: %s", r.Index, r.Implicates)
	}
	assert.Equal(t, 1, sum.New)
}

// TestPipelinedCampaignStopsWithTheContext: a cancelled campaign returns
// promptly with the records of the programs it finished, in order.
func TestPipelinedCampaignStopsWithTheContext(t *testing.T) {
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer d.Close()
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	cfg := Config{Seed: 2, Count: 1000, Gen: gen.Config{Profile: prof}, Devices: []check.Device{d}, SPIRV: true,
		ShrinkAttempts: -1, OnProgram: func(r ProgramRecord) {
			assert.Equal(t, n, r.Index)
			if n++; n == 5 {
				cancel()
			}
		}}
	sum, err := RunCampaign(ctx, cfg)
	require.NoError(t, err)
	assert.Equal(t, 5, sum.Programs)
}

// TestPipelinedCampaignWithADurationRecordsAPrefix: a campaign bounded by
// time records programs 0, 1, …, n-1 — those it started before the time
// was up, each completely — and nothing after a program it did not start.
func TestPipelinedCampaignWithADurationRecordsAPrefix(t *testing.T) {
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer d.Close()
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	cfg := Config{Seed: 3, Duration: 1500 * time.Millisecond, Gen: gen.Config{Profile: prof}, Devices: []check.Device{d},
		SPIRV: true, ShrinkAttempts: -1}
	got, sum := pipelinedCampaign(t, cfg)
	require.NotEmpty(t, got)
	for k, r := range got {
		assert.Equal(t, k, r.Index)
		if r.Verdict != string(oracle.FlattenRejected) && r.Outside != "recursion" {
			assert.NotEmpty(t, r.Runs, "program %d ran", k)
		}
	}
	assert.Equal(t, len(got), sum.Programs)
	assert.Equal(t, sum.Indices[len(sum.Indices)-1], len(got)-1)
}

// onceCorrupt flips the output bits of the first dispatch whose label has
// the given prefix, and of no later one: a stack that answers wrongly once.
type onceCorrupt struct {
	check.Device
	prefix string
	done   atomic.Bool
}

func (o *onceCorrupt) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	out, err := o.Device.Run(ctx, k, job)
	if err == nil && strings.HasPrefix(k.Label, o.prefix) && o.done.CompareAndSwap(false, true) {
		for i := range out {
			out[i] ^= 0x5a
		}
	}
	return out, err
}

// TestCampaignConfirmsGPUFindings: a GPU finding that a second run of the
// same modules does not confirm is recorded as unconfirmed (flaky): saved
// unshrunk with the first run's outputs, not counted as a new failure;
// without confirmation the same wrong answer counts as new.
func TestCampaignConfirmsGPUFindings(t *testing.T) {
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer d.Close()
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	run := func(confirm bool) *Summary {
		oc := &onceCorrupt{Device: d, prefix: "p2/kernel/wgsl"}
		cfg := Config{Seed: 1, Count: 4, Gen: gen.Config{Profile: prof}, Devices: []check.Device{oc},
			ShrinkAttempts: -1, Corpus: t.TempDir(), ToolVersion: "test", Confirm: confirm, BatchPrograms: 1}
		sum, err := RunCampaign(t.Context(), cfg)
		require.NoError(t, err)
		return sum
	}
	sum := run(true)
	assert.Zero(t, sum.New)
	assert.Equal(t, 1, sum.Flaky)
	require.Len(t, sum.Failures, 1)
	f := sum.Failures[0]
	assert.Equal(t, 2, f.Index)
	assert.True(t, f.Flaky)
	assert.Contains(t, f.Signature, "unconfirmed/")
	assert.Contains(t, f.Case, "unconfirmed-")

	sum = run(false)
	assert.Equal(t, 1, sum.New)
	assert.Zero(t, sum.Flaky)
}

// The batch tuner settles on the cheaper way and spends ever less on the
// other: with a batch costing twice a unit's own modules (SwiftShader's
// case), one batched sample decides, and over 1,000 units the retries of
// the slower way are a handful (intervals 32, 64, 128, 256, 256, …); with
// batches at 0.7 (lavapipe's case) it batches, and retries unbatched as
// rarely.
func TestBatchTunerSettles(t *testing.T) {
	for _, c := range []struct {
		name        string
		batchCost   float64
		wantBatch   bool
		maxOtherWay int
	}{
		{"batch slower", 2.0, false, 8},
		{"batch faster", 0.7, true, 9},
	} {
		t.Run(c.name, func(t *testing.T) {
			var tu batchTuner
			other := 0
			for u := 0; u < 1000; u++ {
				b := tu.batch(true)
				cost := 1.0
				if b {
					cost = c.batchCost
				}
				if u >= 4 && b != c.wantBatch {
					other++
				}
				tu.observe(b, time.Duration(cost*float64(time.Millisecond)), 1)
			}
			assert.Equal(t, c.wantBatch, tu.wantBatch.Load())
			assert.LessOrEqual(t, other, c.maxOtherWay, "units run the slower way after the first four")
			assert.Positive(t, other, "the slower way is still tried now and then")
		})
	}
}
