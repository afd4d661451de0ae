package flatten

import (
	"maps"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
)

// maskBeyondCapByRecount is maskBeyondCap's choice as first written (and
// as its doc states it): after the loops whose own copies exceed the cap,
// recount every unmasked loop and mask the one with the most copies (the
// first of equals), until the count fits. Quadratic in the loops; the
// reference for the heap-based maskBeyondCap.
func maskBeyondCapByRecount(c *checker, f *ir.Func) int64 {
	limit := int64(c.opts.MaxUnroll)
	var loops []*ir.Loop
	var blocks []*ir.Block
	var idx []int
	seen := map[*ir.Func]bool{}
	var walk func(n ir.Node)
	walk = func(n ir.Node) {
		if b, ok := n.(*ir.Block); ok {
			for i, s := range b.Stmts {
				if l, ok := s.(*ir.Loop); ok {
					loops, blocks, idx = append(loops, l), append(blocks, b), append(idx, i)
				}
			}
		}
		if call, ok := n.(*ir.Call); ok {
			if g := c.m.Func(call.Func); g != nil && !seen[g] {
				seen[g] = true
				walk(g.Body)
			}
		}
		ir.DoChildren(n, func(k ir.Node) bool { walk(k); return false })
	}
	walk(f.Body)
	recount := func() int64 {
		c.memo = map[string]int64{}
		return c.blockCopies(f.Body)
	}
	for k, l := range loops {
		if !c.masked[l] && c.stmtCopies(blocks[k], idx[k]) > limit {
			c.masked[l] = true
			c.memo = map[string]int64{}
		}
	}
	total := recount()
	for total > limit {
		best, bestN := -1, int64(0)
		for k, l := range loops {
			if c.masked[l] {
				continue
			}
			if n := c.stmtCopies(blocks[k], idx[k]); n > bestN {
				best, bestN = k, n
			}
		}
		if best < 0 {
			break
		}
		c.masked[loops[best]] = true
		total = recount()
	}
	return total
}

// TestMaskBeyondCapChoosesAsRecounting: on generated programs with loops,
// nested loops and calls (every non-entry profile), checked against caps
// far below their unroll counts, maskBeyondCap masks exactly the loops
// and reaches exactly the count the full recount after every masking
// does (maskBeyondCapByRecount), so flatten's twins are unchanged by the
// heap. It fails if the heap's lazy recount or the free loops' running
// total ever picks another loop.
func TestMaskBeyondCapChoosesAsRecounting(t *testing.T) {
	compared, masking := 0, 0
	for _, prof := range gen.Profiles() {
		if prof.Entry {
			continue // evalBound's loop bounds depend on MaxUnroll
		}
		for seed := uint64(1); seed <= 60; seed++ {
			p := gen.Generate(seed, gen.Config{Profile: prof})
			f := p.Module.Func(p.Kernel)
			for _, limit := range []int{1, 3, 8, 20, 64} {
				opts := Options{MaxUnroll: limit}.withDefaults()
				errs, c := precheck(p.Module, f, opts)
				if len(errs) > 0 || p.Module.FindCycle(f.Name) != nil {
					continue
				}
				// The same checker state before any masking for the cap:
				// precheck with a cap nothing reaches, then the cap.
				big := Options{MaxUnroll: 1 << 30}.withDefaults()
				errs0, c0 := precheck(p.Module, f, big)
				require.Empty(t, errs0)
				c0.opts.MaxUnroll = limit
				c0.memo = map[string]int64{}
				if c0.blockCopies(f.Body) <= int64(limit) {
					continue // maskBeyondCap did not run
				}
				before := len(c0.masked)
				want := maskBeyondCapByRecount(c0, f)
				require.Equal(t, want, c.total, "%s seed %d cap %d: count", prof.Name, seed, limit)
				require.True(t, maps.Equal(c0.masked, c.masked), "%s seed %d cap %d: masked loops differ", prof.Name, seed, limit)
				compared++
				if len(c0.masked) > before {
					masking++
				}
			}
		}
	}
	t.Logf("%d programs×caps compared, %d of them masking loops", compared, masking)
	require.Greater(t, masking, 50, "the programs exercise the masking")
}
