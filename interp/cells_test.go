package interp

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCellsSharedPagesActAsPerLeafSlots: a memory made indeterminate
// whole (fill: shared pages) then written, tainted at the end of a pass
// (taintAll) and cleared reads back, leaf by leaf, what a plain slice of
// slots given the same operations holds — the copy a write makes of a
// shared page never shows in another memory that shares it — and fill
// and taintAll of untouched pages allocate no page of their own.
func TestCellsSharedPagesActAsPerLeafSlots(t *testing.T) {
	const n = 5*(1<<extPageBits) + 77 // a partial last page
	rng := rand.New(rand.NewPCG(1, 2))
	a, b := newCells(n), newCells(n)
	want := make([]slot, n)
	check := func(what string) {
		for i := range want {
			if got := a.get(int32(i)); got != want[i] {
				t.Fatalf("%s: leaf %d is %+v, want %+v", what, i, got, want[i])
			}
		}
	}
	put := func(i int, v slot) { a.put(int32(i), v); want[i] = v }
	for i := range 300 {
		put(rng.IntN(n), slot{bits: uint32(i), why: int32(rng.IntN(3)) - 1, err: float64(rng.IntN(2)) / 4})
	}
	check("random writes")

	a.fill(-7)
	b.fill(-7)
	for i := range want {
		want[i] = slot{bits: want[i].bits, why: -7}
	}
	check("fill")
	for i := range a.pages {
		require.True(t, a.pages[i].Load().shared, "page %d", i)
	}
	require.False(t, a.exact())

	// Writes into shared pages: the first copies the page.
	put(3, slot{bits: 9})
	put(2*(1<<extPageBits)+5, slot{bits: 1, why: -4})
	put(n-1, slot{bits: 2, err: 0.5})
	check("writes after fill")
	require.False(t, a.pages[0].Load().shared)
	require.True(t, a.pages[1].Load().shared)
	for i := range n {
		require.Equal(t, slot{why: -7}, b.get(int32(i)), "the other memory sharing the pages, leaf %d", i)
	}

	// taintAll: determinate leaves and leaves with a set become -why;
	// leaves already any value keep their reason.
	c := newCells(n)
	c.put(10, slot{bits: 1, why: -3})            // any value: kept
	c.put(11, slot{bits: 1, why: -3, err: -2})   // a set: tainted
	c.put(4*(1<<extPageBits), slot{bits: 5})     // exact
	c.put(4*(1<<extPageBits)+1, slot{err: 0.25}) // a bound
	c.taintAll(6)
	for i := range n {
		w := slot{why: -6}
		switch i {
		case 10:
			w = slot{bits: 1, why: -3}
		case 11:
			w = slot{bits: 1, why: -6}
		case 4 * (1 << extPageBits):
			w = slot{bits: 5, why: -6}
		}
		require.Equal(t, w, c.get(int32(i)), "taintAll leaf %d", i)
	}
	require.True(t, c.pages[1].Load().shared, "an untouched page becomes a shared one")
	require.Same(t, uniformPage(-6), c.pages[1].Load())

	a.clear()
	clear(want)
	check("clear")
	require.True(t, a.exact())
	require.Equal(t, slot{why: -7}, b.get(0), "clear leaves the shared page alone")
}

// TestCellsConcurrentWritesIntoSharedPages: workers of a parallel pass
// writing disjoint leaves of one shared page (each first write copies
// it, by compare-and-swap) lose none of their writes.
func TestCellsConcurrentWritesIntoSharedPages(t *testing.T) {
	const n = 4 << extPageBits
	for round := range 20 {
		c := newCells(n)
		c.fill(-1)
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < n; i += 4 {
					c.put(int32(i), slot{bits: uint32(i), why: int32(round)})
				}
			}()
		}
		wg.Wait()
		for i := range n {
			require.Equal(t, slot{bits: uint32(i), why: int32(round)}, c.get(int32(i)), "round %d leaf %d", round, i)
		}
	}
}
