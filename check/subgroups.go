package check

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Subgroup operations on devices (issue 40). A subgroup operation's
// result depends on the partition of the workgroup into subgroups, which
// WGSL leaves to the implementation (the size, a power of two in [4, 128]
// within the adapter's range, and which invocations share a subgroup:
// subgroup_invocation_id has no defined relation to
// local_invocation_index). So the reference of a device run is computed
// for the partition that run observed, as the WebGPU CTS does: every
// module that uses subgroups runs on devices with a probe
// (ir.AddSubgroupProbe) recording each invocation's
// subgroup_invocation_id, subgroupBroadcastFirst(local_invocation_index)
// (its subgroup's identity) and subgroup_size at the start of the entry
// point; check reads it back, checks that it describes a partition WGSL
// allows (an impossible one is the run's own difference: a finding, as
// gpuweb/cts#4035's driver that ran at size 8 while reporting 16 would
// be), runs the reference again under it (once per distinct partition)
// and judges the run against that reference. Without a device, the
// reference uses the linear partition at Options.SubgroupSize.

// subgroupCase is a subgroup case's device-side state.
type subgroupCase struct {
	mod          *ir.Module // the case's module (and twin) with the probe: what devices run
	probe        *ir.SharedVar
	ids          bool      // the probe records 1 + subgroup_id (ir.SubgroupProbe.IDs)
	bytes        int       // the probe binding's size
	workgroups   [3]uint32 // the dispatch
	perWorkgroup uint32    // invocations per workgroup
	// reference computes the original's reference outputs under a
	// partition (Options.Interp with Subgroups set).
	reference func(p *interp.SubgroupPartition) ([]oracle.Expected, error)

	mu    sync.Mutex
	parts map[string]*observedPartition // by key
}

// observedPartition is one partition a run observed, and the reference
// computed for it (once).
type observedPartition struct {
	key   string
	hash  string
	part  *interp.SubgroupPartition
	err   error // an impossible partition: the run's own difference
	once  sync.Once
	ref   []oracle.Expected
	rerr  error
	probe []byte
}

// newSubgroupCase prepares the probed module for funcs of m (the entry
// point and its twin), dispatched as workgroups of f's workgroup size.
func newSubgroupCase(m *ir.Module, funcs []string, workgroups [3]uint32, reference func(*interp.SubgroupPartition) ([]oracle.Expected, error)) (*subgroupCase, error) {
	pm := ir.CloneModule(m)
	p, err := ir.AddSubgroupProbe(pm, funcs...)
	if err != nil {
		return nil, err
	}
	f := m.Func(funcs[0])
	w := f.WorkgroupSize[0] * max(f.WorkgroupSize[1], 1) * max(f.WorkgroupSize[2], 1)
	n := int(w) * int(workgroups[0]) * int(workgroups[1]) * int(workgroups[2])
	return &subgroupCase{mod: pm, probe: p.Var, ids: p.IDs, bytes: n * ir.SubgroupProbeStride, workgroups: workgroups, perWorkgroup: w,
		reference: reference, parts: map[string]*observedPartition{}}, nil
}

// binding is the probe's binding in a dispatch: zeroed, so an invocation
// that never ran reads as such (its fourth component 0).
func (s *subgroupCase) binding() harness.BufferBinding {
	return harness.BufferBinding{Group: uint32(s.probe.Group), Binding: uint32(s.probe.Binding), Kind: harness.BindingStorage, Data: make([]byte, s.bytes)}
}

// observe records the probe bytes a run read back and returns the key of
// its partition (oracle.Run.Subgroups), in words a user reads: "size 8,
// linear" when subgroup k of each workgroup is local invocations
// [k·S, (k+1)·S) with ids in order, else "size S, partition " and a hash
// of the probe, or "impossible partition " and the hash.
func (s *subgroupCase) observe(b []byte) string {
	h := sha256.Sum256(b)
	hash := hex.EncodeToString(h[:6])
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, op := range s.parts {
		if op.hash == hash {
			return op.key
		}
	}
	op := &observedPartition{hash: hash, probe: append([]byte(nil), b...)}
	op.part, op.err = s.partition(b)
	switch {
	case op.err != nil:
		op.key = "impossible partition " + hash
	case linearProbe(b, s.perWorkgroup, op.part.Size()):
		op.key = fmt.Sprintf("size %d, linear", op.part.Size())
	default:
		op.key = fmt.Sprintf("size %d, partition %s", op.part.Size(), hash)
	}
	s.parts[op.key] = op
	return op.key
}

// linearProbe reports whether probe bytes b record the linear partition
// of size size: local invocation l has id l mod size and its subgroup's
// first invocation is l − l mod size.
func linearProbe(b []byte, perWorkgroup uint32, size int) bool {
	for i := 0; i+ir.SubgroupProbeStride <= len(b); i += ir.SubgroupProbeStride {
		l := uint32(i/ir.SubgroupProbeStride) % perWorkgroup
		id, first := binary.LittleEndian.Uint32(b[i:]), binary.LittleEndian.Uint32(b[i+4:])
		if id != l%uint32(size) || first != l-l%uint32(size) {
			return false
		}
	}
	return true
}

// partition decodes the probe bytes b into a partition, or says why they
// describe none WGSL allows.
func (s *subgroupCase) partition(b []byte) (*interp.SubgroupPartition, error) {
	n := len(b) / ir.SubgroupProbeStride
	obs := make([]interp.SubgroupObservation, n)
	for i := range n {
		e := b[i*ir.SubgroupProbeStride:]
		ran := binary.LittleEndian.Uint32(e[12:])
		if ran == 0 || !s.ids && ran != 1 {
			return nil, fmt.Errorf("invocation %d (workgroup %d, local index %d) did not run the entry point's first statement (probe marker %d)", i, i/int(s.perWorkgroup), i%int(s.perWorkgroup), ran)
		}
		obs[i] = interp.SubgroupObservation{ID: binary.LittleEndian.Uint32(e[0:]), First: binary.LittleEndian.Uint32(e[4:]), Size: binary.LittleEndian.Uint32(e[8:]),
			// The run's own numbering of its subgroups (subgroup_id),
			// where the module reads it: the reference takes it.
			SubgroupID: ran - 1, HasSubgroupID: s.ids}
	}
	return interp.ObservedSubgroups(int(s.perWorkgroup), obs)
}

// judgeRuns judges runs (a case's device runs and the twin's interpreter
// run) each against the reference of the partition it observed
// (Run.Subgroups; "" for the interpreter's: the default reference ref):
// a run whose partition is impossible gets that as its difference, one
// whose partition's reference failed is an error run.
func (s *subgroupCase) judgeRuns(ref [][]oracle.Expected, names []string, runs []oracle.Run) ([]oracle.Judged, oracle.Verdict) {
	refs := map[string][][]oracle.Expected{"": ref}
	for k := range runs {
		r := &runs[k]
		if r.Subgroups == "" || r.Failed != "" {
			continue
		}
		s.mu.Lock()
		op := s.parts[r.Subgroups]
		s.mu.Unlock()
		switch {
		case op == nil:
			continue
		case op.err != nil:
			r.InvocationErr = []string{"impossible subgroup partition: " + op.err.Error()}
			continue
		}
		op.once.Do(func() { op.ref, op.rerr = s.reference(op.part) })
		if op.rerr != nil {
			r.Failed, r.Message = oracle.Error, "the reference under the run's subgroup partition: "+op.rerr.Error()
			continue
		}
		refs[r.Subgroups] = [][]oracle.Expected{op.ref}
	}
	return oracle.JudgeEach(func(r oracle.Run) [][]oracle.Expected {
		if rf, ok := refs[r.Subgroups]; ok {
			return rf
		}
		return ref
	}, names, runs)
}
