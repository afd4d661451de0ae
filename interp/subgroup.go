package interp

import (
	"fmt"
	"math/bits"
	"sort"

	"github.com/gpudiff/gpudiff/ir"
)

// Subgroups (WGSL #subgroups, #subgroup-builtin-functions,
// #quad-builtin-functions; issue 40).
//
// # The partition
//
// A dispatch runs over an explicit partition of its invocations into
// subgroups (SubgroupPartition, Options.Subgroups): the subgroup size S
// (a power of two in [4, 128], uniform in the dispatch) and, for every
// invocation, its subgroup within its workgroup and its
// subgroup_invocation_id. WGSL fixes none of it (there is no defined
// relation to local_invocation_index; subgroups may be partial), so the
// caller gives either a size, whose linear partition (subgroup lidx / S,
// id lidx % S, the last one partial) stands for a device that does the
// obvious thing, or the partition a GPU run observed
// (ObservedSubgroups, from ir.AddSubgroupProbe's records). The builtin
// values subgroup_invocation_id, subgroup_size, subgroup_id (the
// subgroup's index in its workgroup: lidx / S in the linear partition,
// the device's own numbering when it was recorded) and num_subgroups
// come from it.
//
// # Executing a subgroup operation
//
// The invocations of a subgroup run one after another, as every
// invocation of a workgroup does (dispatch.go); a subgroup builtin needs
// the operands of the other invocations that execute it together, its
// active set. Every subgroup call of the entry point's call graph is
// inlined into its body first (ir.InlineCollectives), so that a dynamic
// instance of a call is named by its call site and the iteration counts
// of the loops around it: each such loop gets a counter, a u32 local set
// to 0 before the loop and incremented at the start of each iteration
// (prepareSubgroups). Under maximal reconvergence — the model of
// VK_KHR_shader_maximal_reconvergence, and of the WebGPU CTS's
// reconvergence tests — the invocations of a subgroup whose keys (site,
// counters) are equal execute the instance together: the active set is
// the subgroup's invocations that log an operand at that key.
//
// As quad.go does for derivatives, the reference runs the dispatch
// again until the operands logged at every key are those of the
// previous pass (a fixed point): a result is computed from this
// invocation's own operand and the other invocations' operands of the
// previous pass, so each pass fixes at least one more link of a chain of
// dependent subgroup operations. In the first pass, and past
// maxSubgroupPasses passes (every writable binding is then any value), a
// result is any value. The passes are the dispatch's own (dispatch.go's
// run: races and contended atomics settle in the same loop), so shared
// memory, barriers and atomics are those of an ordinary pass; but a pass
// whose subgroup operands have not settled ran on results that may be
// wrong, so what it observed of races and atomics is not assumed by the
// next (a spurious race through an index computed from a result not
// known yet would otherwise make later passes' loads indeterminate).
// The last pass settled both.
//
// An invocation whose segment forks (fork.go: control on an
// indeterminate value) takes several paths: a key it logs there is
// certain only when every path (all explored) logs it with the same
// operands; otherwise it is uncertain, and a result at such a key is any
// value for the other invocations (whether it runs it, and with what,
// depends on the path its device takes; the invocation's own results
// are per path, joined as fork.go joins). The keys and operands logged
// so far are hashed into a local of the frame (the trace), so fork.go
// prunes a path only where its logs equal the other's. An invocation
// whose rest became indeterminate (poisonRest) may still run any key it
// did not log, so every key it did not log is uncertain too.
//
// # Semantics
//
// Over the active set, ordered by subgroup_invocation_id:
// reductions (add and mul wrap for integers; min, max; and, or, xor);
// inclusive and exclusive scans over the active invocations of lower
// (or equal) id, T(0) or T(1) for an empty prefix; subgroupAll and
// subgroupAny; subgroupBallot (bit id of component id/32 set for each
// active invocation whose predicate holds); subgroupElect (true for the
// active invocation of least id); subgroupBroadcast and
// subgroupBroadcastFirst; subgroupShuffle, ShuffleXor, ShuffleUp,
// ShuffleDown; and the quad operations on the quad of ids 4k..4k+3.
// Indeterminate (WGSL's words): a shuffle that reads an inactive or
// out-of-range invocation, a relative shuffle whose delta (mask) differs
// among the active invocations, a quad operation reading an inactive
// invocation; subgroupBroadcast from an inactive id is a dynamic error,
// any value too. Float reductions and scans may associate in any order
// (WGSL #reassociation-and-fusion, the accuracy table's "inherited from
// the sum"): the bound covers every order — n − 1 roundings of 1 ULP of
// the sum of magnitudes (which bounds every partial sum, so an overflow
// of any is indeterminate), the product's n − 1 relative roundings —
// and a subnormal term, which may be flushed, adds its magnitude.
//
// # Reconvergence
//
// A call site that WGSL's uniformity analysis (ir.Uniformity, at
// workgroup scope, which is the conservative side of subgroup scope)
// places in uniform control flow runs with its whole subgroup active: its
// result is definite. A key that such a site reaches with fewer than all
// of its subgroup's invocations is a bug of the keying, reported as an
// internal error. Any other site (the module turned the diagnostic off,
// or the flow is divergent) runs with the key's active set — maximal
// reconvergence's answer, which flatten's twin computes too — but WGSL
// does not promise it ("may contain a different set of active
// invocations than the shader author expects"). So once a dispatch ran
// such a site, it runs again with the results of every such site
// indeterminate (the taint run), and every leaf of a binding that is
// determinate in the first run but indeterminate in the second depends
// on one: Output.Reconvergence marks it, and Output.Why names the call.
// Indeterminacy propagates through data flow, control (forks) and
// memory, so the marks cover every way a leaf can depend on the active
// set; the taint run is used for nothing else.
//
// # Fragments
//
// The subgroup of a fragment is an unknown set of quads: a subgroup
// builtin in a fragment entry point (RunQuads, RunQuadList) returns any
// value, except the quad operations in uniform control flow, which read
// the fragment's quad (lane x&1 + 2·(y&1) is the quad invocation ID,
// WGSL #fragment-shaders-helper-invocations) through quad.go's fixed
// point, as derivatives do. Outside a dispatch or a quad run a subgroup
// builtin is not executable (Invocation.Err), as before.

// maxSubgroupPasses bounds the passes a dispatch takes to settle its
// subgroup operands (beyond maxPasses for races and atomics). A chain of
// k subgroup operations each of whose operands depends on the one
// before (x = subgroupAdd(x) in a loop of k iterations) settles in k + 1
// passes: every dynamic instance's operands depend only on the results
// of instances before it in its invocation's program order, so each pass
// fixes at least the next one.
const maxSubgroupPasses = 28

// DefaultSubgroupSize is the size of the linear partition a dispatch uses
// when Options.Subgroups is nil and Options.SubgroupSize is 0.
const DefaultSubgroupSize = 32

// SubgroupPartition is a partition of a dispatch's invocations into
// subgroups (WGSL #subgroups): the subgroup size S and, for each
// invocation (workgroup, local_invocation_index), the index of its
// subgroup within the workgroup and its subgroup_invocation_id in
// [0, S). Subgroups never span workgroups. Make one with
// LinearSubgroups or ObservedSubgroups; it is immutable.
type SubgroupPartition struct {
	size int
	// local is the workgroup size of an observed partition (0: linear);
	// sub and id hold, at workgroup·local + lidx, the invocation's
	// subgroup within its workgroup and its id; nsub the number of
	// subgroups of each workgroup.
	local int
	sub   []int32
	id    []uint8
	nsub  []int32
}

// Size returns the subgroup size S (subgroup_size).
func (p *SubgroupPartition) Size() int { return p.size }

// Of returns the subgroup (an index within workgroup wg, by linear
// workgroup index) and the subgroup_invocation_id of local invocation
// lidx of workgroup wg. For an observed partition wg and lidx must be
// within what was observed.
func (p *SubgroupPartition) Of(wg, lidx int) (subgroup, id int) {
	if p.local == 0 {
		return lidx / p.size, lidx % p.size
	}
	k := wg*p.local + lidx
	return int(p.sub[k]), int(p.id[k])
}

// subgroups returns the number of subgroups of workgroup wg (local
// invocations).
func (p *SubgroupPartition) subgroups(wg, local int) int {
	if p.local == 0 {
		return (local + p.size - 1) / p.size
	}
	return int(p.nsub[wg])
}

// validSubgroupSize reports why s is not a subgroup size WGSL allows (a
// power of two in [4, 128], #subgroups), or "".
func validSubgroupSize(s int) string {
	if s < 4 || s > 128 || s&(s-1) != 0 {
		return fmt.Sprintf("subgroup size %d is not a power of two in [4, 128] (WGSL #subgroups)", s)
	}
	return ""
}

// LinearSubgroups returns the linear partition of subgroup size size:
// local invocation lidx is in subgroup lidx / size with id lidx % size;
// the last subgroup of a workgroup whose size is not a multiple of size
// is partial. It fails when size is not a power of two in [4, 128].
func LinearSubgroups(size int) (*SubgroupPartition, error) {
	if why := validSubgroupSize(size); why != "" {
		return nil, fmt.Errorf("interp: %s", why)
	}
	return &SubgroupPartition{size: size}, nil
}

// SubgroupObservation is what one invocation of a GPU run recorded of
// its subgroup at the start of the entry point, in uniform control flow
// (ir.AddSubgroupProbe, as the WebGPU CTS records it).
type SubgroupObservation struct {
	// ID is its subgroup_invocation_id; Size its subgroup_size.
	ID, Size uint32
	// First is subgroupBroadcastFirst(local_invocation_index): the local
	// index of the invocation of ID 0 of its subgroup (the whole
	// subgroup is active there, and compute ids are dense), which names
	// the subgroup.
	First uint32
	// SubgroupID is its subgroup_id, when HasSubgroupID (the probe
	// records it, as its fourth component minus 1, for an entry point
	// that takes subgroup_id: ir.SubgroupProbe.IDs): the device's
	// numbering of the workgroup's subgroups, which the partition then
	// uses.
	SubgroupID    uint32
	HasSubgroupID bool
}

// ObservedSubgroups returns the partition a GPU run observed: obs[g·local
// + l] is what local invocation l of the workgroup of linear index g
// recorded (ir.SubgroupProbe's element order), local the workgroup's
// invocation count. Subgroups of a workgroup are indexed by their
// recorded subgroup_id (HasSubgroupID), else in the order of their
// First. It fails, saying what is impossible, when len(obs) is not a
// positive multiple of local, the sizes differ or one is not a power of
// two in [4, 128] (WGSL #subgroups), a First is not a local index of the
// workgroup whose own record names the same subgroup with ID 0, the ids
// of a subgroup repeat, reach the size or are not dense (0, 1, …: WGSL
// #subgroup-invocation-id-builtin-value for compute), or subgroup_id is
// recorded for some invocations only, differs within a subgroup, repeats
// across subgroups or reaches their number (WGSL
// #subgroup-id-builtin-value).
func ObservedSubgroups(local int, obs []SubgroupObservation) (*SubgroupPartition, error) {
	if local <= 0 || len(obs) == 0 || len(obs)%local != 0 {
		return nil, fmt.Errorf("interp: observed subgroups: %d records for workgroups of %d invocations", len(obs), local)
	}
	size := int(obs[0].Size)
	for i, o := range obs {
		if int(o.Size) != size {
			return nil, fmt.Errorf("interp: observed subgroups: invocation %d saw subgroup_size %d, invocation 0 saw %d (the size is uniform in a dispatch, WGSL #subgroups)", i, o.Size, size)
		}
	}
	if why := validSubgroupSize(size); why != "" {
		return nil, fmt.Errorf("interp: observed subgroups: %s", why)
	}
	withIDs := false
	for _, o := range obs {
		withIDs = withIDs || o.HasSubgroupID
	}
	nwg := len(obs) / local
	p := &SubgroupPartition{size: size, local: local, sub: make([]int32, len(obs)), id: make([]uint8, len(obs)), nsub: make([]int32, nwg)}
	for g := 0; g < nwg; g++ {
		rec := obs[g*local : (g+1)*local]
		type group struct {
			first  uint32
			ids    []uint32
			owners map[uint32]int
		}
		groups := map[uint32]*group{}
		for l, o := range rec {
			if int(o.First) >= local {
				return nil, fmt.Errorf("interp: observed subgroups: workgroup %d, local invocation %d: its subgroup's first invocation %d is not in the workgroup (%d invocations)", g, l, o.First, local)
			}
			if f := rec[o.First]; f.First != o.First || f.ID != 0 {
				return nil, fmt.Errorf("interp: observed subgroups: workgroup %d, local invocation %d names local invocation %d as its subgroup's first, which recorded subgroup_invocation_id %d and first %d (the first invocation has id 0 and names itself)", g, l, o.First, f.ID, f.First)
			}
			if int(o.ID) >= size {
				return nil, fmt.Errorf("interp: observed subgroups: workgroup %d, local invocation %d: subgroup_invocation_id %d is not below subgroup_size %d", g, l, o.ID, size)
			}
			gr := groups[o.First]
			if gr == nil {
				gr = &group{first: o.First, owners: map[uint32]int{}}
				groups[o.First] = gr
			}
			if other, dup := gr.owners[o.ID]; dup {
				return nil, fmt.Errorf("interp: observed subgroups: workgroup %d: local invocations %d and %d both have subgroup_invocation_id %d in the subgroup of local invocation %d", g, other, l, o.ID, o.First)
			}
			gr.owners[o.ID] = l
			gr.ids = append(gr.ids, o.ID)
		}
		firsts := make([]uint32, 0, len(groups))
		for f, gr := range groups {
			firsts = append(firsts, f)
			if len(gr.ids) > size {
				return nil, fmt.Errorf("interp: observed subgroups: workgroup %d: the subgroup of local invocation %d has %d invocations, more than subgroup_size %d", g, f, len(gr.ids), size)
			}
			for want := uint32(0); want < uint32(len(gr.ids)); want++ {
				if _, ok := gr.owners[want]; !ok {
					return nil, fmt.Errorf("interp: observed subgroups: workgroup %d: the subgroup of local invocation %d has %d invocations but no subgroup_invocation_id %d (compute ids are dense, WGSL #subgroup-invocation-id-builtin-value)", g, f, len(gr.ids), want)
				}
			}
		}
		sort.Slice(firsts, func(i, j int) bool { return firsts[i] < firsts[j] })
		index := map[uint32]int32{}
		for i, f := range firsts {
			index[f] = int32(i)
		}
		if withIDs {
			owner := map[uint32]uint32{} // subgroup_id → its subgroup's First
			for l, o := range rec {
				switch {
				case !o.HasSubgroupID:
					return nil, fmt.Errorf("interp: observed subgroups: workgroup %d, local invocation %d recorded no subgroup_id, others did", g, l)
				case o.SubgroupID != rec[o.First].SubgroupID:
					return nil, fmt.Errorf("interp: observed subgroups: workgroup %d: local invocations %d and %d of one subgroup saw subgroup_id %d and %d", g, l, o.First, o.SubgroupID, rec[o.First].SubgroupID)
				case int(o.SubgroupID) >= len(firsts):
					return nil, fmt.Errorf("interp: observed subgroups: workgroup %d, local invocation %d: subgroup_id %d of %d subgroups (WGSL #subgroup-id-builtin-value: in [0, num_subgroups))", g, l, o.SubgroupID, len(firsts))
				}
				if f, ok := owner[o.SubgroupID]; ok && f != o.First {
					return nil, fmt.Errorf("interp: observed subgroups: workgroup %d: the subgroups of local invocations %d and %d both saw subgroup_id %d", g, f, o.First, o.SubgroupID)
				}
				owner[o.SubgroupID] = o.First
				index[o.First] = int32(o.SubgroupID)
			}
		}
		for l, o := range rec {
			p.sub[g*local+l] = index[o.First]
			p.id[g*local+l] = uint8(o.ID)
		}
		p.nsub[g] = int32(len(firsts))
	}
	return p, nil
}

// partition returns the partition of a dispatch of opts: Options.Subgroups,
// or the linear one of Options.SubgroupSize (0: DefaultSubgroupSize).
// An observed partition must match the dispatch (its workgroup size and
// number of workgroups).
func (o Options) partition(local int, nwg uint64) (*SubgroupPartition, error) {
	if p := o.Subgroups; p != nil {
		if p.local != 0 && (p.local != local || uint64(len(p.nsub)) != nwg) {
			return nil, fmt.Errorf("a subgroup partition observed for %d workgroups of %d invocations, for a dispatch of %d workgroups of %d", len(p.nsub), p.local, nwg, local)
		}
		return p, nil
	}
	size := o.SubgroupSize
	if size == 0 {
		size = DefaultSubgroupSize
	}
	p, err := LinearSubgroups(size)
	if err != nil {
		return nil, fmt.Errorf("Options.SubgroupSize: %s", validSubgroupSize(size))
	}
	return p, nil
}

// sgMask is a set of subgroup invocation ids (S ≤ 128).
type sgMask [2]uint64

func (m *sgMask) set(i int)     { m[i>>6] |= 1 << (i & 63) }
func (m sgMask) has(i int) bool { return i >= 0 && i < 128 && m[i>>6]&(1<<(i&63)) != 0 }
func (m sgMask) without(i int) sgMask {
	m[i>>6] &^= 1 << (i & 63)
	return m
}
func (m sgMask) and(o sgMask) sgMask    { return sgMask{m[0] & o[0], m[1] & o[1]} }
func (m sgMask) or(o sgMask) sgMask     { return sgMask{m[0] | o[0], m[1] | o[1]} }
func (m sgMask) andNot(o sgMask) sgMask { return sgMask{m[0] &^ o[0], m[1] &^ o[1]} }
func (m sgMask) empty() bool            { return m[0] == 0 && m[1] == 0 }

// lowest is the least id of a non-empty m.
func (m sgMask) lowest() int {
	if m[0] != 0 {
		return bits.TrailingZeros64(m[0])
	}
	return 64 + bits.TrailingZeros64(m[1])
}

// ids lists m's ids in ascending order into buf.
func (m sgMask) ids(buf []int) []int {
	buf = buf[:0]
	for w := 0; w < 2; w++ {
		for x := m[w]; x != 0; x &= x - 1 {
			buf = append(buf, w*64+bits.TrailingZeros64(x))
		}
	}
	return buf
}

// sgSite is a subgroup builtin call site of an entry point (after
// prepareSubgroups): its call, whether it is in uniform control flow,
// and the counters of the loops around it (outer first).
type sgSite struct {
	call    *ir.BuiltinCall
	uniform bool
	loops   []string
	// opaque: the call is in a short circuit the reference could not
	// turn into control flow (subgroup_lift.go): any value.
	opaque bool
}

// sgInfo is an entry point's subgroup call sites (entryInfo.sg).
type sgInfo struct {
	sites map[*ir.BuiltinCall]*sgSite
	order []*sgSite // in the body's order: a site's index + 1 is its key
	// trace is the vec2<u32> local that hashes what an invocation logged
	// (subgroup_run.go: sgSeen).
	trace string
}
