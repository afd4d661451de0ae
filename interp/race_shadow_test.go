package interp

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRaceShadowFindsTheFirstRaceOfEveryHistory checks the constant-size
// race shadow (shadowTab.observe) against the definition it summarizes: in a
// history of accesses to one location, access j races when some earlier
// access i is by another invocation, at least one of the two writes, and
// no barrier orders them (they are in different workgroups, or in one
// workgroup at the same epoch). Histories are drawn as the dispatcher
// produces them: workgroups one after another, each invocation's epoch
// only growing, invocations of one epoch interleaved at random. The first
// racing access must be the same by both counts, in every history (after
// it the location is indeterminate, so later pairs need not be found).
func TestRaceShadowFindsTheFirstRaceOfEveryHistory(t *testing.T) {
	type acc struct {
		tag   accessor
		wg    int32
		write bool
	}
	unordered := func(x, y acc) bool {
		return x.tag.inv != y.tag.inv && (x.wg != y.wg || x.tag.ep == y.tag.ep)
	}
	r := rand.New(rand.NewSource(1))
	races := 0
	var a access
	st := &shadowTab{}
	for h := 0; h < 200000; h++ {
		var hist []acc
		inv := int32(0)
		for wg := int32(0); wg < int32(1+r.Intn(3)); wg++ {
			n := 1 + r.Intn(3) // invocations in the workgroup
			for ep := uint32(0); ep < uint32(1+r.Intn(3)); ep++ {
				for k := r.Intn(4); k > 0; k-- {
					me := accessor{accessTag{inv: inv + 1 + int32(r.Intn(n)), ep: ep}, inv + 1, inv + int32(n)}
					hist = append(hist, acc{me, wg, r.Intn(3) == 0})
				}
			}
			inv += int32(n)
		}
		want := -1
		for j := range hist {
			for i := 0; i < j && want < 0; i++ {
				if (hist[i].write || hist[j].write) && unordered(hist[i], hist[j]) {
					want = j
				}
			}
			if want >= 0 {
				break
			}
		}
		got := -1
		st.reset(&a) // one location's shadow reused, as a workgroup variable's is
		for j, x := range hist {
			if other, _ := st.observe(&a, &x.tag, x.write); other.inv != 0 {
				o := acc{tag: accessor{accessTag: other}}
				for _, y := range hist[:j] {
					if y.tag.accessTag == other {
						o = y
					}
				}
				require.NotZero(t, o.tag.hi, "history %d: access %d blamed an access not in the history", h, j)
				require.True(t, unordered(o, x), "history %d: access %d blamed an ordered access", h, j)
				got = j
				break
			}
		}
		require.Equal(t, want, got, "history %d: %+v", h, hist)
		if want >= 0 {
			races++
		}
	}
	require.Greater(t, races, 1000, "the histories exercise races")
}

// TestRaceShadowCompactionIsExact checks the storage shadow's fold
// (shadow.go: a location's record folded into an 8-byte word when its
// workgroup ends, expanded when another workgroup uses it) against the
// record kept whole for the pass, as the shadow was before the fold: on
// random histories of one location (several workgroups one after
// another, epochs growing, invocations of an epoch interleaved), every
// access — not only the first racing one — blames the same earlier
// access (invocation and position, what a report prints) or none, and
// whether it was a write. The fold drops only what no later workgroup
// can observe, so any difference here is a race found or missed.
func TestRaceShadowCompactionIsExact(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	compared, blamed := 0, 0
	for h := 0; h < 50000; h++ {
		var whole access
		stWhole := &shadowTab{}
		stFold := &shadowTab{}
		vs := newWordShadow(1)
		shadows := []*varShadow{vs}
		inv := int32(0)
		for wg := int32(0); wg < int32(1+r.Intn(5)); wg++ {
			n := 1 + r.Intn(3)
			for ep := uint32(0); ep < uint32(1+r.Intn(3)); ep++ {
				for k := r.Intn(4); k > 0; k-- {
					me := accessor{accessTag{inv: inv + 1 + int32(r.Intn(n)), ep: ep, pos: 1 + int32(r.Intn(1<<20))}, inv + 1, inv + int32(n)}
					write := r.Intn(3) == 0
					wo, ww := stWhole.observe(&whole, &me, write)
					fo, fw := stFold.observe(stFold.at(vs, 0, 0, false, wg, false), &me, write)
					require.Equal(t, [2]int32{wo.inv, wo.pos}, [2]int32{fo.inv, fo.pos}, "history %d", h)
					require.Equal(t, ww, fw, "history %d", h)
					compared++
					if wo.inv != 0 {
						blamed++
					}
				}
			}
			stFold.endWorkgroup(shadows, nil, false)
			inv += int32(n)
		}
	}
	require.Greater(t, blamed, 10000, "the histories exercise races (%d accesses)", compared)
}
