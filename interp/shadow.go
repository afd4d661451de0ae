package interp

import "sync/atomic"

// The race shadow: per shared location, constant state that tells a new
// access whether it races with an earlier one (dispatch.go).

// accessTag names one access: its invocation (linear index in the
// dispatch + 1; 0: none), the epoch of its workgroup at the access (the
// barriers of the location's address space it had passed), and the
// reason id of its position. 12 bytes; the workgroup is the invocation's
// (inv - 1) / workgroup size (shadowTab.wg).
type accessTag struct {
	inv int32
	ep  uint32
	pos int32
}

// accessor is an access about to be checked: its tag, and the
// invocations of its workgroup (lo..hi, inclusive, as tags number them).
type accessor struct {
	accessTag
	lo, hi int32
}

// same reports whether t is by an invocation of the accessor's workgroup.
func (m *accessor) same(t accessTag) bool { return t.inv >= m.lo && t.inv <= m.hi }

// access is a location's race shadow (28 bytes): its last write w, and
// the reads since that write summarized so that a later access learns
// exactly whether some read is unordered with it. Workgroups run one
// after another and a workgroup's epochs only grow, so a read is
// unordered with a later access by invocation I of workgroup M at epoch E
// exactly when the read is from another workgroup, or from M at epoch E by
// another invocation. Hence it is enough to keep:
//
//   - ra: the first read of the newest (workgroup, epoch) seen, when
//     every read since w is from one workgroup (older epochs of it are
//     ordered before every later access of that workgroup, and ra stands
//     for the workgroup towards other workgroups);
//   - rb: a second read of ra's epoch by another invocation, or, when
//     multi is set, a read from a workgroup other than ra's (then every
//     later access has a read of another workgroup to race with).
//
// rb and multi are rare (a location read by two invocations between two
// writes), so they live in the pass's table of extra reads
// (shadowTab.extra), at index x-1; a location keeps its entry once it has
// one (an entry with rb.inv 0 is "no second read").
//
// The last write suffices for writes: a write unordered with an
// earlier one was reported when it happened, on this location.
type access struct {
	w, ra accessTag
	x     int32
}

// extraRead is a location's second read (see access).
type extraRead struct {
	rb    accessTag
	multi bool // reads since w come from two or more workgroups
}

// shadowTab is what the shadows a worker uses share: the extra reads
// and the storage locations' records of the running workgroup (both
// dropped when it ends), and the workgroup size (for a tag's workgroup).
type shadowTab struct {
	local int32
	extra []extraRead
	recs  []shadowRec
	// oob holds, for the pass, what the worker's accesses through an
	// invalid reference computed (see oobFact), so that a race reported
	// later against one of them can name its index.
	oob map[oobKey]oobFact
}

// An access through an invalid memory reference (an index out of
// bounds, or indeterminate) is race-checked on the location its clamped
// index designates, with a tag whose position is the access's "bad"
// reason id (entryInfo.badPos) — so a tag always tells whether its
// access was such a one — and its index is kept here, by variable,
// invocation and that position: the first of the access's newest epoch
// (an invocation that computes several at one position in one epoch is
// named with the first). The table is bounded (maxOOBFacts); past it an
// earlier access is named out of bounds without its index.
type oobKey struct{ id, inv, pos int32 }

// oobFact is the index an access through an invalid reference computed:
// the index of its chain that was out of bounds or indeterminate first
// (site: entryInfo.oobSites[site-1]), its value and its array's element
// count, and the epoch of the access.
type oobFact struct {
	site  int32
	bits  uint32
	bound int32
	indet bool
	ep    uint32
}

// maxOOBFacts bounds a worker's table of oobFacts in a pass.
const maxOOBFacts = 1 << 16

// noteOOB records f, an access's fact, under k at epoch ep.
func (st *shadowTab) noteOOB(k oobKey, f oobFact, ep uint32) {
	old, ok := st.oob[k]
	if ok && old.ep == ep || !ok && len(st.oob) >= maxOOBFacts {
		return
	}
	if st.oob == nil {
		st.oob = map[oobKey]oobFact{}
	}
	f.ep = ep
	st.oob[k] = f
}

// wg returns the linear workgroup index of t's invocation.
func (st *shadowTab) wg(t accessTag) int32 { return (t.inv - 1) / st.local }

// second returns a's extra read (the zero value when it has none).
func (st *shadowTab) second(a *access) extraRead {
	if a.x == 0 {
		return extraRead{}
	}
	return st.extra[a.x-1]
}

// setSecond records a's second read.
func (st *shadowTab) setSecond(a *access, e extraRead) {
	if a.x == 0 {
		st.extra = append(st.extra, e)
		a.x = int32(len(st.extra))
		return
	}
	st.extra[a.x-1] = e
}

// reset forgets every access to the location, keeping its extra entry.
func (st *shadowTab) reset(a *access) {
	x := a.x
	*a = access{x: x}
	if x != 0 {
		st.extra[x-1] = extraRead{}
	}
}

// racingRead returns a read since the last write that is unordered with
// an access by me, or ok false.
func (st *shadowTab) racingRead(a *access, me *accessor) (r accessTag, ok bool) {
	if a.ra.inv == 0 {
		return accessTag{}, false
	}
	e := st.second(a)
	switch {
	case e.multi:
		if !me.same(a.ra) {
			return a.ra, true
		}
		return e.rb, true
	case !me.same(a.ra):
		return a.ra, true
	case a.ra.ep < me.ep:
		return accessTag{}, false
	case a.ra.inv != me.inv:
		return a.ra, true
	case e.rb.inv != 0:
		return e.rb, true
	}
	return accessTag{}, false
}

// observe checks an access by me (a write when write is set) against
// the shadow a and records it. It returns an earlier access the new one
// races with (inv 0: none) and whether that access was a write.
func (st *shadowTab) observe(a *access, me *accessor, write bool) (other accessTag, otherWrite bool) {
	if a.w.inv != 0 && a.w.inv != me.inv && (!me.same(a.w) || a.w.ep >= me.ep) {
		other, otherWrite = a.w, true
	} else if write {
		if r, ok := st.racingRead(a, me); ok {
			other = r
		}
	}
	if write {
		st.reset(a)
		a.w = me.accessTag
	} else {
		st.addRead(a, me)
	}
	return other, otherWrite
}

// addRead records a read by me (after the race check).
func (st *shadowTab) addRead(a *access, me *accessor) {
	if a.ra.inv == 0 {
		a.ra = me.accessTag
		return
	}
	e := st.second(a)
	switch {
	case e.multi:
	case !me.same(a.ra):
		st.setSecond(a, extraRead{rb: me.accessTag, multi: true})
	case a.ra.ep < me.ep:
		a.ra = me.accessTag
		if a.x != 0 {
			st.extra[a.x-1] = extraRead{}
		}
	case a.ra.inv != me.inv && e.rb.inv == 0:
		st.setSecond(a, extraRead{rb: me.accessTag})
	}
}

// Storage shadows (issue 26). A workgroup variable's shadow is an access
// per location, the worker's own, cleared for each workgroup. A storage
// binding's lives for the whole pass, so it is 8 bytes per location (a
// shadow word), and a full access record only while the running
// workgroup uses the location:
//
//   - a word with refBit set refers to the running workgroup's record of
//     the location, shadowTab.recs[word & 0xffffffff], and names that
//     workgroup (bits 32–62: linear index + 1); in a parallel pass that
//     is the claim of the location (parallel.go), set by compare-and-swap
//     from 0, and it stays after the workgroup as its mark;
//   - in a sequential pass, when a workgroup ends, each of its records is
//     folded into its word (compact), and the next workgroup to use the
//     location expands the word into a record again (at).
//
// The fold keeps exactly what later workgroups can observe. For an
// access by another workgroup than a tag's, access.same is false, so
// observe, racingRead and addRead look only at the tags' invocations and
// positions (never their epochs, nor rb, which only ra's own workgroup
// is given), and at whether ra exists: multi changes nothing there (with
// or without it, such an access is blamed on ra, and a read leaves ra in
// place). And when w is set, every such access races with it and is
// blamed on w before any read is looked at (observe), so ra is
// unobservable. A word is therefore the last write if any, else the first
// read, else nothing. TestRaceShadowCompactionIsExact checks the fold
// against the whole record on random histories.
//
// Word layout (refBit clear): bits 0–1 kind (0 none, 1 w, 2 ra), bits
// 2–28 the tag's invocation (≤ 1<<26, Run's bound), bits 32–62 its
// position (a reason id, int32).

const refBit = 1 << 63

// varShadow is one shared variable's race or contention shadow: full
// (a workgroup variable's) or words (a storage binding's, n of them).
// Words lie in pages of 1<<wordPageBits allocated on a location's first
// access (a nil page: every word 0, no access), so a binding's shadow
// costs 8 bytes a location its invocations touch, not a location it
// holds (cluster-lights' contention shadow covers a 1.8M-leaf binding
// for its one atomic). Workers of a parallel pass may allocate pages
// concurrently (atomic page pointers).
type varShadow struct {
	full  []access
	n     int
	pages []atomic.Pointer[wordPage]
}

// wordPageBits is log2 of the words of a page of a storage shadow.
const wordPageBits = 10

type wordPage [1 << wordPageBits]uint64

// newWordShadow returns a storage binding's shadow of n words, all 0.
func newWordShadow(n int) *varShadow {
	return &varShadow{n: n, pages: make([]atomic.Pointer[wordPage], (n+1<<wordPageBits-1)>>wordPageBits)}
}

// word returns location off's word, allocating its page.
func (vs *varShadow) word(off int32) *uint64 {
	pp := &vs.pages[off>>wordPageBits]
	p := pp.Load()
	if p == nil {
		q := new(wordPage)
		if pp.CompareAndSwap(nil, q) {
			p = q
		} else {
			p = pp.Load()
		}
	}
	return &p[off&(1<<wordPageBits-1)]
}

func (vs *varShadow) len() int {
	if vs.full != nil {
		return len(vs.full)
	}
	return vs.n
}

// shadowRec is the running workgroup's record of a storage location.
type shadowRec struct {
	a       access
	id, off int32
	atomic  bool // of the contention shadow (ashadow)
}

// at returns the access record of location off of var id in vs for the
// running workgroup wg (atomicShadow: vs is the contention shadow), or
// nil when, in a parallel pass (par), another workgroup has the
// location.
func (st *shadowTab) at(vs *varShadow, id, off int32, atomicShadow bool, wg int32, par bool) *access {
	if vs.full != nil {
		return &vs.full[off]
	}
	p := vs.word(off)
	var w uint64
	if par {
		w = atomic.LoadUint64(p)
	} else {
		w = *p
	}
	if w&refBit != 0 {
		if int32(w>>32&0x7fffffff) == wg+1 {
			return &st.recs[uint32(w)].a
		}
		return nil // parallel only: a sequential pass folds every record
	}
	i := len(st.recs)
	st.recs = append(st.recs, shadowRec{id: id, off: off, atomic: atomicShadow})
	ref := refBit | uint64(wg+1)<<32 | uint64(i)
	if par {
		if w != 0 || !atomic.CompareAndSwapUint64(p, 0, ref) {
			st.recs = st.recs[:i]
			return nil
		}
		return &st.recs[i].a
	}
	tag := accessTag{inv: int32(w >> 2 & (1<<27 - 1)), pos: int32(w >> 32 & 0x7fffffff)}
	switch w & 3 {
	case 1:
		st.recs[i].a.w = tag
	case 2:
		st.recs[i].a.ra = tag
	}
	*p = ref
	return &st.recs[i].a
}

// compact folds a into a word (see above).
func compact(a *access) uint64 {
	switch {
	case a.w.inv != 0:
		return 1 | uint64(a.w.inv)<<2 | uint64(a.w.pos)<<32
	case a.ra.inv != 0:
		return 2 | uint64(a.ra.inv)<<2 | uint64(a.ra.pos)<<32
	}
	return 0
}

// endWorkgroup forgets the running workgroup's records: in a sequential
// pass it folds each into its word first (a parallel pass's words stay
// the workgroup's marks).
func (st *shadowTab) endWorkgroup(shadow, ashadow []*varShadow, par bool) {
	if !par {
		for i := range st.recs {
			r := &st.recs[i]
			vs := shadow[r.id]
			if r.atomic {
				vs = ashadow[r.id]
			}
			*vs.word(r.off) = compact(&r.a)
		}
	}
	st.recs = st.recs[:0]
	st.extra = st.extra[:0]
}
