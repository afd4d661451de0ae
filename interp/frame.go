package interp

import (
	"context"
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// slot is one leaf scalar of a value during execution. Every value lives
// in a contiguous range of slots in the frame (vectors component by
// component, arrays element by element, structs field by field: the order
// of ir.Type.ComponentTypes).
//
// why encodes the leaf's status: 0 means exact and determinate; > 0 means
// determinate but inexact (an f32 with err > 0), why naming the first
// operation that made it so; < 0 means indeterminate, -why naming the
// reason. Integer and bool leaves are never inexact, so their why is ≤ 0.
//
// err depends on why (16 bytes a slot, not 24: row (d) of `make bench`
// measured a 24-byte slot 4.4% slower):
//   - why ≥ 0: the absolute error bound of an f32 leaf (0 for other types,
//     and for every exact leaf);
//   - why < 0: minus the id of the leaf's allowed set (an indeterminate
//     leaf whose possible values the reference knows: a racy read, an
//     atomic counter, the union of a forked branch; see fork.go) in the
//     dispatch's set table, or 0: any value. A bound is never negative, so
//     no bound reads as a set.
//
// Only copies keep a set: an operation computes a new slot (a literal,
// err 0 once why < 0), so its result is "any value" once an operand is
// indeterminate; code that edits a copied slot's bits or why must drop
// the set (dropSet, taint), and code that reads a bound reads tol().
type slot struct {
	bits uint32
	why  int32
	err  float64
}

// taint makes s indeterminate with reason why (< 0), any value.
func (s *slot) taint(why int32) { s.why, s.err = why, 0 }

// dropSet makes an indeterminate s any value (its set, if any, is gone);
// a determinate s keeps its bound.
func (s *slot) dropSet() {
	if s.why < 0 {
		s.err = 0
	}
}

// setID is the id of s's allowed set in the dispatch's set table: 0 when
// s is determinate or any value.
func (s slot) setID() int32 {
	if s.why < 0 {
		return int32(-s.err)
	}
	return 0
}

// giveSet makes indeterminate s's allowed set the set with id (0: any
// value, as addSet returns for an empty set; +0, never -0, so that equal
// states hash equal: fork.go hashes slot bytes).
func (s *slot) giveSet(id int32) {
	if s.why >= 0 {
		panic("interp: an allowed set on a determinate slot")
	}
	s.err = 0
	if id != 0 {
		s.err = -float64(id)
	}
}

// tol is s's error bound: err for a determinate leaf, 0 for an
// indeterminate one (whose err is its set).
func (s slot) tol() float64 {
	if s.why < 0 {
		return 0
	}
	return s.err
}

// ctl is the outcome of executing a statement.
type ctl uint8

const (
	cNext     ctl = iota // continue with the next statement
	cBreak               // leave the innermost loop or switch
	cContinue            // go to the innermost loop's continuing block
	cReturn              // leave the function (its result is in its ret slots)
	cAbort               // stop the invocation (frame.stop is set)
	cBarrier             // an entry point reached a barrier (frame.resume, frame.barrier)
)

type (
	exprFn func(fr *frame)
	stmtFn func(fr *frame) ctl
)

// frame is the state of one invocation: every slot of the program (one
// static region per function — WGSL has no recursion — plus constants,
// globals and temporaries), the step counter and the stop state. A frame
// is reused for every invocation of a Run.
type frame struct {
	s     []slot
	steps int64
	// limit is the step count at which the next check runs (overLimit):
	// full, the invocation's step limit, or, while ctx may end, the next
	// cancellation checkpoint before it.
	limit int64
	full  int64
	ctx   context.Context
	// stop is set when the invocation must end early: err holds a failure,
	// or poison names the branch whose indeterminate condition made the
	// rest of the invocation indeterminate. Once stop is set, limit is -1
	// so that the next statement's step check unwinds the invocation.
	stop   bool
	err    *ir.Error
	poison int32 // reason id of the poisoning branch
	cause  int32 // why of its condition
	ops    int64 // executed operations (benchmarks only; see compileOpts.countOps)
	cb     bool  // the outcome of an f32 condition's general case (opBrF)
	// scratch for f32 kernels over whole vectors (dot, cross, …), so that
	// calling them through a function value allocates nothing.
	fin, fin2   [32]fv // two mat4x4 operands (matrix.go)
	fout, fout2 [16]fv
	p           *Program
	// Entry points (dispatch.go): where to resume after a barrier, which
	// barrier (its instruction index + 1, bit 31 for storageBarrier), and
	// the shared memory this invocation sees.
	resume  int
	barrier uint32
	sh      *invShared
	// fork drives the decisions at fork points (fork.go); nil: none, a
	// fork point poisons the rest of the invocation.
	fork *forker
	// snap is the frame at the start of an entry point's segment, which
	// each explored path starts from (segment.go); forkBuf its forker.
	snap    []slot
	forkBuf forker
	// calls are the call sites (reason ids) of the functions running,
	// while forking (a fork point's identity includes them); brPC is the
	// instruction of an f32 branch whose general case is running.
	calls []int32
	brPC  int32
	// quad is the fragment's 2×2 quad under RunQuads (quad.go), else nil.
	quad *quadCtx
	// arena holds the results collect builds (interp.go).
	arena outArena
	// tex is the textures of a function-mode run (a fragment entry
	// point's, texture.go); an entry point's dispatch keeps them in sh.
	tex *texState
	// discarded is set when the invocation executed discard (WGSL
	// #discard-statement): it is a helper from then on (render.go).
	discarded bool
}

// fail stops the invocation with a positioned error.
func (fr *frame) fail(pos ir.Pos, format string, args ...any) {
	if fr.stop {
		return
	}
	fr.err = &ir.Error{File: fr.p.file, Pos: pos, Pass: "interp", Msg: fmt.Sprintf(format, args...)}
	fr.stop = true
	fr.limit = -1
}

// cancelEvery is the number of steps between two looks at a run's
// context: well under a millisecond of interpretation.
const cancelEvery = 1 << 14

// start resets the step counter of a new invocation with step limit full.
func (fr *frame) start(full int64) {
	fr.steps, fr.full, fr.limit = 0, full, full
	fr.discarded = false
	if fr.ctx != nil && fr.ctx.Done() != nil {
		fr.limit = min(full, cancelEvery)
	}
}

// overLimit is called when the step counter passes the limit: the
// invocation already stopped (limit is -1), or ran out of steps, or
// reached a cancellation checkpoint (cNext: go on, unless the run's
// context ended, which stops the invocation with an error wrapping
// context.Cause).
func (fr *frame) overLimit(pos ir.Pos) ctl {
	switch {
	case fr.stop:
	case fr.steps <= fr.full:
		if fr.canceled() {
			return cAbort
		}
		fr.limit = min(fr.full, fr.steps+cancelEvery)
		return cNext
	default:
		fr.fail(pos, "step limit of %d exceeded (the kernel may not terminate)", fr.full)
	}
	return cAbort
}

// canceled reports whether the run's context ended, and then stops the
// invocation (with an error that Run replaces by stopped's).
func (fr *frame) canceled() bool {
	if fr.ctx == nil || fr.ctx.Err() == nil {
		return false
	}
	if !fr.stop {
		fr.err = &ir.Error{File: fr.p.file, Pass: "interp", Msg: "reference run stopped"}
		fr.stop, fr.limit = true, -1
	}
	return true
}

// stopped returns the error of a Run whose context ctx ended (nil: it
// has not): it wraps context.Cause(ctx), so errors.Is finds
// context.Canceled or context.DeadlineExceeded (or the cancel cause).
func stopped(ctx context.Context) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("interp: reference run stopped: %w", context.Cause(ctx))
}

// poisonAll stops the invocation because a branch at reason site r
// depends on an indeterminate condition whose why is cause: from here on
// every output of the invocation is indeterminate.
func (fr *frame) poisonAll(r, cause int32) ctl {
	if !fr.stop {
		fr.poison, fr.cause = r, cause
		fr.stop = true
		fr.limit = -1
	}
	return cAbort
}

// firstWhy merges the status of two integer or bool operands: the first
// indeterminate one wins (integer leaves are never merely inexact).
func firstWhy(a, b int32) int32 {
	if a != 0 {
		return a
	}
	return b
}

// mergeWhy merges the status of f32 operands: the first indeterminate
// reason, else the first inexact reason.
func mergeWhy(a, b int32) int32 {
	switch {
	case a < 0:
		return a
	case b < 0:
		return b
	case a != 0:
		return a
	}
	return b
}
