package devices

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/worker"
)

// adder is a kernel writing inp[i] * 3 + add: distinct WGSL per add, so
// every dispatch compiles a module of its own.
func adder(add int) harness.Kernel {
	return harness.Kernel{EntryPoint: "main", Label: fmt.Sprintf("pool/%d", add), WGSL: `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if (i >= arrayLength(&outp)) { return; }
	outp[i] = inp[i] * 3u + ` + strconv.Itoa(add) + `u;
}`}
}

// TestOpenJobsMakesPools: Options.Jobs 3 opens one *Pool per adapter
// holding three distinct worker processes of that adapter; concurrent
// callers of the pool get correct outputs (out[i] = 3i + add, worked out
// by hand) and the dispatches are spread over more than one member.
func TestOpenJobsMakesPools(t *testing.T) {
	set, err := Open([]string{"wgpu-vulkan:llvmpipe"}, Options{Jobs: 3})
	require.NoError(t, err)
	defer set.Close()
	require.Len(t, set, 1)
	p, ok := set[0].(*Pool)
	require.True(t, ok, "%T", set[0])
	require.Equal(t, 3, p.Jobs())
	assert.Equal(t, "wgpu-vulkan:llvmpipe", p.Info().Name)
	seen := map[harness.Runner]bool{}
	for _, m := range p.Members() {
		assert.IsType(t, &worker.Device{}, m)
		assert.Equal(t, p.Info().Name, m.Info().Name)
		seen[m] = true
	}
	assert.Len(t, seen, 3, "members are distinct devices")

	const n = 5
	in := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(in[4*i:], uint32(i))
	}
	var wg sync.WaitGroup
	errs := make([]error, 12)
	for c := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs, es := p.RunAll(context.Background(), []harness.Kernel{adder(c), adder(100 + c)},
				[]harness.Dispatch{{Input: in, OutputSize: 4 * n, Invocations: n}, {Input: in, OutputSize: 4 * n, Invocations: n}})
			for k, add := range []int{c, 100 + c} {
				if es[k] != nil {
					errs[c] = es[k]
					return
				}
				for i := range n {
					if got, want := binary.LittleEndian.Uint32(outs[k][4*i:]), uint32(3*i+add); got != want {
						errs[c] = fmt.Errorf("add %d: out[%d] = %d, want %d", add, i, got, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		require.NoError(t, e)
	}
	kids := workerChildren(t)
	assert.Len(t, kids, 3, "one worker process per member")
}

// counting is a member that counts its runs and the pool's runs in
// flight at once.
type counting struct {
	harness.Runner
	runs           int
	inFlight, peak *int
	mu             *sync.Mutex
}

func (c *counting) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	c.mu.Lock()
	c.runs++
	*c.inFlight++
	*c.peak = max(*c.peak, *c.inFlight)
	c.mu.Unlock()
	defer func() { c.mu.Lock(); *c.inFlight--; c.mu.Unlock() }()
	return c.Runner.Run(ctx, k, job)
}

// TestPoolSpreadsCallers: with two members and four concurrent callers,
// both members run dispatches and two run at the same time; a caller
// whose context has ended gets its error without a member.
func TestPoolSpreadsCallers(t *testing.T) {
	set, err := Open([]string{"wgpu-vulkan:llvmpipe"}, Options{Jobs: 2})
	require.NoError(t, err)
	defer set.Close()
	var mu sync.Mutex
	var inFlight, peak int
	var ms []harness.Runner
	var cs []*counting
	for _, m := range set[0].(*Pool).Members() {
		c := &counting{Runner: m, inFlight: &inFlight, peak: &peak, mu: &mu}
		ms, cs = append(ms, c), append(cs, c)
	}
	p := NewPool(ms)
	in := make([]byte, 4*16)
	var wg sync.WaitGroup
	for c := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 3 {
				_, err := p.Run(context.Background(), adder(200+10*c+i), harness.Dispatch{Input: in, OutputSize: 64, Invocations: 16})
				assert.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 12, cs[0].runs+cs[1].runs)
	assert.NotZero(t, cs[0].runs, "member 0 ran nothing")
	assert.NotZero(t, cs[1].runs, "member 1 ran nothing")
	assert.Equal(t, 2, peak, "two dispatches at once, never more than the members")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m0, _ := p.acquire(context.Background())
	m1, _ := p.acquire(context.Background())
	_, err = p.Run(ctx, adder(1), harness.Dispatch{Input: in, OutputSize: 64, Invocations: 16})
	assert.ErrorIs(t, err, context.Canceled)
	p.free <- m0
	p.free <- m1
}

// workerChildren are the pids of this process's child processes.
func workerChildren(t *testing.T) []int {
	var pids []int
	tasks, err := os.ReadDir("/proc/self/task")
	require.NoError(t, err)
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + task.Name() + "/children")
		if err != nil {
			continue
		}
		for f := range strings.FieldsSeq(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// rss is process pid's resident memory in bytes (0 when unreadable).
func rss(pid int) uint64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// TestWorkerMemory measures the resident memory of one worker process per
// software adapter after 60 distinct modules and checks it is under
// WorkerMemory, the budget DefaultJobs divides the available memory by.
func TestWorkerMemory(t *testing.T) {
	for _, a := range []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader"} {
		set, err := Open([]string{a}, Options{})
		if err != nil {
			t.Logf("%s: %v", a, err)
			continue
		}
		d := set[0]
		in := make([]byte, 4*16)
		for i := range 60 {
			_, err := d.Run(context.Background(), adder(1000+i), harness.Dispatch{Input: in, OutputSize: 4 * 16, Invocations: 16})
			require.NoError(t, err)
		}
		kids := workerChildren(t)
		require.Len(t, kids, 1, a)
		r := rss(kids[0])
		set.Close()
		require.NotZero(t, r, "%s: worker RSS unreadable", a)
		t.Logf("%s: worker RSS %.1f MiB after 60 modules", a, float64(r)/(1<<20))
		assert.Less(t, r, uint64(WorkerMemory), a)
	}
}

// TestDefaultJobs: at least 1, at most the CPUs, fewer (never more) with
// more adapters sharing the memory.
func TestDefaultJobs(t *testing.T) {
	one := DefaultJobs(1)
	assert.GreaterOrEqual(t, one, 1)
	assert.LessOrEqual(t, one, runtime.NumCPU())
	assert.LessOrEqual(t, DefaultJobs(1000), one)
	assert.GreaterOrEqual(t, DefaultJobs(1<<40), 1)
}
