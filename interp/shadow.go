package interp

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

// shadowTab is what the shadows of one dispatch pass share: the extra
// reads, and the workgroup size (for a tag's workgroup).
type shadowTab struct {
	local int32
	extra []extraRead
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
