package interp

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// code is compiled expression code: operations in evaluation order (each
// operand's code before its operation: WGSL #program-order). The hot
// scalar operations — copies, integer arithmetic and comparisons, f32
// + - * and comparisons on exact normal operands, i32 → f32, scalar select
// — are instructions that run's switch executes in place, on slots named
// by index; everything else, and the general (inexact, indeterminate,
// subnormal) cases of the hot f32 operations, is a closure (fn). Flat code
// keeps every operation a leaf, and the switch spares the hot ones a call.
type code []instr

// instr is one operation of code: op reads slots a, b (and c) and writes
// slot d; x is an immediate (a sign bit to flip, a comparison, a count);
// fn is the operation itself for opFn, and the general path of an f32
// instruction whose fast path does not apply.
type instr struct {
	op      opcode
	x       uint32
	a, b, c int32
	d       int32
	fn      exprFn
	st      stmtFn // opStmt
}

type opcode uint8

const (
	opFn    opcode = iota // fn(fr)
	opCopy1               // s[d] = s[a]
	opCopyN               // s[d:d+x] = s[a:a+x]
	opClear               // s[d:d+x] = zero
	// Integer (and bool) operations on bits; why is the first
	// indeterminate operand's.
	opAdd
	opSub
	opMul
	opAnd
	opOr
	opXor
	opShl
	opShrU
	opShrI
	opDivU
	opDivI
	opRemU
	opRemI
	opNeg   // -a (i32/u32)
	opNot   // !a (bool)
	opCompl // ~a
	// Integer comparisons of a^x and b^x (x = 1<<31 for i32).
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
	// f32 on exact normal operands, else fn.
	opAddF // a + (b ^ x): x = 1<<31 for subtraction
	opMulF
	opCmpF // comparison x (an ir.BinaryOp)
	opI2F  // f32(i32), exact below 2^24
	opNegF // -a (exact)
	// Scalar select: s[c] ? s[b] : s[a], with the condition's
	// indeterminacy.
	opSel
	// Lane-wise f32 on x&7 lanes; operand k's stride (0: a broadcast
	// scalar) is bit 3+k of x. When any lane is not exact and normal, fn
	// computes them all.
	opAddFV   // a + (b ^ x&1<<31)
	opMulFV   // a * b
	opClampFV // clamp(a, b, c)
	opScaleFV // a * ±2^c (a constant scalar): lanes x&7, a's stride bit 3 of x, the sign bit 31 of x
	opSplat   // s[d:d+x] = s[a]

	// Statements (stmt.go). Jumps go to instruction d; c is the reason
	// site of a branch; b indexes Program.positions or Program.tables.
	opSteps    // steps += x; past the limit: stop at positions[b]
	opAddSteps // steps += x, unchecked (the break of if (c) { break; })
	opLoopStep // steps++; past the limit: stop at positions[b]
	opLoopBack // steps++ (checked as opLoopStep), then go to d
	opStop     // return cAbort if the invocation has stopped
	opStmt     // a statement closure: return its ctl unless cNext
	opJmp      // go to d
	opBrEq     // unless s[a]^x == s[b]^x, go to d (x = 1<<31 for i32)
	opBrNe     // likewise !=
	opBrLt     // <
	opBrLe     // <=
	opBrGt     // >
	opBrGe     // >=
	opBrF      // unless f32 s[a] (x) s[b], go to d; fn: the general case
	opBrBool   // unless (s[a] != 0) != (x != 0), go to d
	opSwitch   // go to the target of s[a] in tables[b]
	opRet      // return cReturn
	opCount    // ops++ (compileOpts.countOps)

	// Scalar integer operations with a constant right operand, its bits in
	// x (constants are never indeterminate: the result has a's why).
	opAddK
	opMulK
	opAndK
	opOrK
	opXorK
	opShlK
	opShrUK
	opShrIK
	opRemUK
	opDivUK
	// Branches on integer comparisons with a constant: unless
	// s[a]^b (x) x, go to d, where b is the sign flip (1<<31 for i32) and
	// x the constant already flipped.
	opBrEqK
	opBrNeK
	opBrLtK
	opBrLeK
	opBrGtK
	opBrGeK
	opNop
	opBarrier // a barrier of an entry point's body (dispatch.go): fr.resume = pc+1, return cBarrier

	// Pairs of instructions executed in one dispatch (fuse.go): this
	// instruction, then the next one, whose fields it reads; the next one
	// is never a jump target, and stays in place.
	opAndKBrEqK    // opAndK, then opBrEqK on its result
	opAndKBrNeK    // opAndK, then opBrNeK on its result
	opRemUKBrEqK   // opRemUK, then opBrEqK on its result
	opRemUKBrNeK   // opRemUK, then opBrNeK on its result
	opAddKLoopBack // opAddK (a loop counter's increment), then opLoopBack
	opShlKXor      // opShlK, then opXor (x ^ (x << k): xorshift hashes)
	opShrUKXor     // opShrUK, then opXor (x ^ (x >> k))
	opAndKI2F      // opAndK, then opI2F on its result (f32(i & m))
	opMulKAdd      // opMulK, then opAdd (x * k + y: LCG and index arithmetic)
	opMulKAddK     // opMulK, then opAddK (x * k + c)
	// opAddFV on four lanes, then opClampFV of its result between
	// constant bounds (goodB): clamp(a + b, lo, hi). When the sum's fast
	// path does not apply, the opAddFV runs alone (fn) and the opClampFV
	// in its own dispatch.
	opAddFVClampFV

	numOpcodes // not an opcode: the count, opInfos' length
)

// opArg is the role of one field (a, b, c or d) of an instruction, as
// opInfos states it for each opcode: what execAt reads through it.
type opArg uint8

const (
	argNone   opArg = iota // unused, or an immediate (a sign flip, a reason site, a constant)
	argSlot                // one slot, read or written through sat (unchecked): checkSlots checks it
	argLanes               // x&7 slots through sat when a vector (a, b, c: stride bit 3, 4, 5 of x; d: always), one when a scalar: checked
	argVec4                // four slots through sat: checked
	argSlice               // slots through a bounds-checked slice of the frame (opCopyN, opClear, opSplat's lanes): not checked
	argIndex               // an index into Program.positions or Program.tables (bounds-checked slices)
	argTarget              // a jump target, an instruction index read unsigned: checkSlots checks it is in [0, len(code)]
)

// opInfo describes an opcode (after Go's cmd/compile/internal/ssa
// opInfo): its name and the role of each of its fields. It is the one
// statement of what an instruction touches: checkSlots reads it to
// prove execAt's unchecked slot accesses and jumps in range, and fuse
// reads it for jump targets; execAt's switch, which executes the
// opcodes, is held to it by TestCheckSlotsCoversExecAt.
type opInfo struct {
	name string
	args [4]opArg // a, b, c, d
	// pair: the opcode executes the next instruction too, in the same
	// dispatch (fuse.go); that instruction stays in place and is checked
	// as itself, except for the fields next names, which the pair reads
	// in its own way (opAddFVClampFV reads its clamp's bounds and result
	// as four lanes each).
	pair bool
	next [4]opArg
	// four: the opcode runs on exactly four lanes of a vector a (x&7 = 4,
	// a's stride bit set): checkSlots requires it.
	four bool
}

// jumps reports whether the opcode's d is a jump target.
func (i *opInfo) jumps() bool { return i.args[3] == argTarget }

func (op opcode) String() string {
	if op < numOpcodes {
		return opInfos[op].name
	}
	return fmt.Sprintf("opcode(%d)", uint8(op))
}

// Field roles of opInfos' entries: a, b, c, d.
var (
	rNone      = [4]opArg{}
	rAD        = [4]opArg{argSlot, argNone, argNone, argSlot}     // d = f(a)
	rABD       = [4]opArg{argSlot, argSlot, argNone, argSlot}     // d = f(a, b)
	rBranch2   = [4]opArg{argSlot, argSlot, argNone, argTarget}   // branch on (a, b); c: the reason site
	rBranch1   = [4]opArg{argSlot, argNone, argNone, argTarget}   // branch on a; b: a sign flip, c: the reason site
	rLanesABD  = [4]opArg{argLanes, argLanes, argNone, argLanes}  // lane-wise d = f(a, b)
	rLanesABCD = [4]opArg{argLanes, argLanes, argLanes, argLanes} // lane-wise d = f(a, b, c)
	rStepsAt   = [4]opArg{argNone, argIndex, argNone, argNone}    // b: the step limit's position
	rLoopBack  = [4]opArg{argNone, argIndex, argNone, argTarget}  // b: the position; d: the loop's head
	rSwitch    = [4]opArg{argSlot, argIndex, argNone, argNone}    // a: the selector; b: its table; c: the reason site
	rSel       = [4]opArg{argSlot, argSlot, argSlot, argSlot}     // d = c ? b : a
	rSplat     = [4]opArg{argSlot, argNone, argNone, argSlice}    // d[0:x] = a
	rCopyN     = [4]opArg{argSlice, argNone, argNone, argSlice}   // d[0:x] = a[0:x]
	rClear     = [4]opArg{argNone, argNone, argNone, argSlice}    // d[0:x] = 0
	rScale     = [4]opArg{argLanes, argNone, argNone, argLanes}   // d = a × ±2^c (c the exponent)
	rAddFVClmp = [4]opArg{argVec4, argLanes, argNone, argVec4}    // d = a + b, four lanes
	rClampNext = [4]opArg{argNone, argVec4, argVec4, argVec4}     // the clamp's bounds and result, four lanes
)

// opInfos describes every opcode (TestOpInfosNameEveryOpcode: each entry
// names its constant, in order).
var opInfos = [numOpcodes]opInfo{
	opFn:    {name: "opFn"},
	opCopy1: {name: "opCopy1", args: rAD},
	opCopyN: {name: "opCopyN", args: rCopyN},
	opClear: {name: "opClear", args: rClear},

	opAdd:   {name: "opAdd", args: rABD},
	opSub:   {name: "opSub", args: rABD},
	opMul:   {name: "opMul", args: rABD},
	opAnd:   {name: "opAnd", args: rABD},
	opOr:    {name: "opOr", args: rABD},
	opXor:   {name: "opXor", args: rABD},
	opShl:   {name: "opShl", args: rABD},
	opShrU:  {name: "opShrU", args: rABD},
	opShrI:  {name: "opShrI", args: rABD},
	opDivU:  {name: "opDivU", args: rABD},
	opDivI:  {name: "opDivI", args: rABD},
	opRemU:  {name: "opRemU", args: rABD},
	opRemI:  {name: "opRemI", args: rABD},
	opNeg:   {name: "opNeg", args: rAD},
	opNot:   {name: "opNot", args: rAD},
	opCompl: {name: "opCompl", args: rAD},
	opEq:    {name: "opEq", args: rABD},
	opNe:    {name: "opNe", args: rABD},
	opLt:    {name: "opLt", args: rABD},
	opLe:    {name: "opLe", args: rABD},
	opGt:    {name: "opGt", args: rABD},
	opGe:    {name: "opGe", args: rABD},
	opAddF:  {name: "opAddF", args: rABD},
	opMulF:  {name: "opMulF", args: rABD},
	opCmpF:  {name: "opCmpF", args: rABD},
	opI2F:   {name: "opI2F", args: rAD},
	opNegF:  {name: "opNegF", args: rAD},
	opSel:   {name: "opSel", args: rSel},

	opAddFV:   {name: "opAddFV", args: rLanesABD},
	opMulFV:   {name: "opMulFV", args: rLanesABD},
	opClampFV: {name: "opClampFV", args: rLanesABCD},
	opScaleFV: {name: "opScaleFV", args: rScale},
	opSplat:   {name: "opSplat", args: rSplat},

	opSteps:    {name: "opSteps", args: rStepsAt},
	opAddSteps: {name: "opAddSteps", args: rNone},
	opLoopStep: {name: "opLoopStep", args: rStepsAt},
	opLoopBack: {name: "opLoopBack", args: rLoopBack},
	opStop:     {name: "opStop", args: rNone},
	opStmt:     {name: "opStmt", args: rNone},
	opJmp:      {name: "opJmp", args: [4]opArg{argNone, argNone, argNone, argTarget}},
	opBrEq:     {name: "opBrEq", args: rBranch2},
	opBrNe:     {name: "opBrNe", args: rBranch2},
	opBrLt:     {name: "opBrLt", args: rBranch2},
	opBrLe:     {name: "opBrLe", args: rBranch2},
	opBrGt:     {name: "opBrGt", args: rBranch2},
	opBrGe:     {name: "opBrGe", args: rBranch2},
	opBrF:      {name: "opBrF", args: rBranch2},
	opBrBool:   {name: "opBrBool", args: rBranch1},
	opSwitch:   {name: "opSwitch", args: rSwitch},
	opRet:      {name: "opRet", args: rNone},
	opCount:    {name: "opCount", args: rNone},

	opAddK:    {name: "opAddK", args: rAD},
	opMulK:    {name: "opMulK", args: rAD},
	opAndK:    {name: "opAndK", args: rAD},
	opOrK:     {name: "opOrK", args: rAD},
	opXorK:    {name: "opXorK", args: rAD},
	opShlK:    {name: "opShlK", args: rAD},
	opShrUK:   {name: "opShrUK", args: rAD},
	opShrIK:   {name: "opShrIK", args: rAD},
	opRemUK:   {name: "opRemUK", args: rAD},
	opDivUK:   {name: "opDivUK", args: rAD},
	opBrEqK:   {name: "opBrEqK", args: rBranch1},
	opBrNeK:   {name: "opBrNeK", args: rBranch1},
	opBrLtK:   {name: "opBrLtK", args: rBranch1},
	opBrLeK:   {name: "opBrLeK", args: rBranch1},
	opBrGtK:   {name: "opBrGtK", args: rBranch1},
	opBrGeK:   {name: "opBrGeK", args: rBranch1},
	opNop:     {name: "opNop", args: rNone},
	opBarrier: {name: "opBarrier", args: rNone},

	opAndKBrEqK:    {name: "opAndKBrEqK", args: rAD, pair: true},
	opAndKBrNeK:    {name: "opAndKBrNeK", args: rAD, pair: true},
	opRemUKBrEqK:   {name: "opRemUKBrEqK", args: rAD, pair: true},
	opRemUKBrNeK:   {name: "opRemUKBrNeK", args: rAD, pair: true},
	opAddKLoopBack: {name: "opAddKLoopBack", args: rAD, pair: true},
	opShlKXor:      {name: "opShlKXor", args: rAD, pair: true},
	opShrUKXor:     {name: "opShrUKXor", args: rAD, pair: true},
	opAndKI2F:      {name: "opAndKI2F", args: rAD, pair: true},
	opMulKAdd:      {name: "opMulKAdd", args: rAD, pair: true},
	opMulKAddK:     {name: "opMulKAddK", args: rAD, pair: true},
	opAddFVClampFV: {name: "opAddFVClampFV", args: rAddFVClmp, pair: true, next: rClampNext, four: true},
}

// vcode is code whose slot operands checkSlots found inside the frame
// (compiler.verified, its only maker: TestOnlyVerifiedMakesVcode): the
// code execAt runs, reading and writing those slots without bounds checks
// (row (d) of `make bench`: 5% of the interpreter's time).
type vcode []instr

// run executes expression code.
func (cd vcode) run(fr *frame) { cd.exec(fr) }

// exec executes code (a function body, or expression code) and returns
// how it ended: cNext when it ran to its end, cReturn at a return, cAbort
// when the invocation stopped.
func (cd vcode) exec(fr *frame) ctl { return cd.execAt(fr, 0) }

// execAt is exec starting at instruction pc (an entry point resuming
// after a barrier). fr must be a frame of the program cd was compiled
// into (len(fr.s) is its image's length; checked). Slot indices and jump
// targets are read as uint32 (checkSlots found them non-negative): Go
// folds a zero-extending load of an instruction's field into one indexed
// MOVL, a sign-extending one into LEAQ, LEAQ, MOVSXD (4% of row (d) each
// for operands and for jumps).
func (cd vcode) execAt(fr *frame, pc int) ctl {
	s := fr.s
	if len(s) < len(fr.p.image) {
		panic("interp: a frame smaller than its program's image")
	}
	sp := unsafe.Pointer(unsafe.SliceData(s))
	for ; pc < len(cd); pc++ {
		in := &cd[pc]
		switch in.op {
		case opFn:
			in.fn(fr)
		case opCopy1:
			*sat(sp, in.d) = *sat(sp, in.a)
		case opCopyN:
			copy(s[in.d:in.d+int32(in.x)], s[in.a:in.a+int32(in.x)])
		case opClear:
			clear(s[in.d : in.d+int32(in.x)])
		case opAdd:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: wgslsem.Add(a.bits, b.bits), why: firstWhy(a.why, b.why)}
		case opSub:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: wgslsem.Sub(a.bits, b.bits), why: firstWhy(a.why, b.why)}
		case opMul:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: wgslsem.Mul(a.bits, b.bits), why: firstWhy(a.why, b.why)}
		case opAnd:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: a.bits & b.bits, why: firstWhy(a.why, b.why)}
		case opOr:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: a.bits | b.bits, why: firstWhy(a.why, b.why)}
		case opXor:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: a.bits ^ b.bits, why: firstWhy(a.why, b.why)}
		case opShl:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: wgslsem.Shl(a.bits, b.bits), why: firstWhy(a.why, b.why)}
		case opShrU:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: wgslsem.Shr(a.bits, b.bits), why: firstWhy(a.why, b.why)}
		case opShrI:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: uint32(wgslsem.Shr(int32(a.bits), b.bits)), why: firstWhy(a.why, b.why)}
		case opDivU:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: wgslsem.DivU32(a.bits, b.bits), why: firstWhy(a.why, b.why)}
		case opDivI:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: uint32(wgslsem.DivI32(int32(a.bits), int32(b.bits))), why: firstWhy(a.why, b.why)}
		case opRemU:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: wgslsem.RemU32(a.bits, b.bits), why: firstWhy(a.why, b.why)}
		case opRemI:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: uint32(wgslsem.RemI32(int32(a.bits), int32(b.bits))), why: firstWhy(a.why, b.why)}
		case opNeg:
			a := *sat(sp, in.a)
			a.bits = uint32(wgslsem.Neg(int32(a.bits)))
			a.dropSet()
			*sat(sp, in.d) = a
		case opNot:
			a := *sat(sp, in.a)
			a.bits ^= 1
			a.dropSet()
			*sat(sp, in.d) = a
		case opCompl:
			a := *sat(sp, in.a)
			a.bits = ^a.bits
			a.dropSet()
			*sat(sp, in.d) = a
		case opEq:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: b2u(a.bits == b.bits), why: firstWhy(a.why, b.why)}
		case opNe:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: b2u(a.bits != b.bits), why: firstWhy(a.why, b.why)}
		case opLt:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: b2u(a.bits^in.x < b.bits^in.x), why: firstWhy(a.why, b.why)}
		case opLe:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: b2u(a.bits^in.x <= b.bits^in.x), why: firstWhy(a.why, b.why)}
		case opGt:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: b2u(a.bits^in.x > b.bits^in.x), why: firstWhy(a.why, b.why)}
		case opGe:
			a, b := sat(sp, in.a), sat(sp, in.b)
			*sat(sp, in.d) = slot{bits: b2u(a.bits^in.x >= b.bits^in.x), why: firstWhy(a.why, b.why)}
		case opAddF:
			a, b := sat(sp, in.a), sat(sp, in.b)
			if a.why|b.why == 0 && !isSubnormal(a.bits) && !isSubnormal(b.bits) {
				if r, ok := exactSum32(a.bits, b.bits^in.x); ok {
					*sat(sp, in.d) = slot{bits: r}
					continue
				}
			}
			in.fn(fr)
		case opMulF:
			a, b := sat(sp, in.a), sat(sp, in.b)
			if a.why|b.why == 0 && !isSubnormal(a.bits) && !isSubnormal(b.bits) {
				if r, ok := exactMul32(a.bits, b.bits); ok {
					*sat(sp, in.d) = slot{bits: r}
					continue
				}
			}
			in.fn(fr)
		case opCmpF:
			a, b := sat(sp, in.a), sat(sp, in.b)
			if a.why|b.why == 0 && a.err == 0 && b.err == 0 && !isSubnormal(a.bits) && !isSubnormal(b.bits) {
				*sat(sp, in.d) = slot{bits: b2u(cmpF32(in.x, a.bits, b.bits))}
				continue
			}
			in.fn(fr)
		case opI2F:
			a := sat(sp, in.a)
			if v := int32(a.bits); a.why == 0 && v >= -1<<24 && v <= 1<<24 {
				*sat(sp, in.d) = slot{bits: math.Float32bits(float32(v))}
				continue
			}
			in.fn(fr)
		case opNegF:
			a := *sat(sp, in.a)
			a.bits ^= 0x80000000
			a.dropSet()
			*sat(sp, in.d) = a
		case opSel:
			cv := *sat(sp, in.c)
			src := in.a
			if cv.bits != 0 {
				src = in.b
			}
			r := *sat(sp, src)
			if cv.why < 0 {
				r.taint(cv.why)
			}
			*sat(sp, in.d) = r
		case opAddFV:
			if in.x&0x1f == 4|3<<3 || in.x&0x1f == 4|1<<3 { // four lanes, b a vector or a scalar
				x := (*[4]slot)(unsafe.Pointer(sat(sp, in.a)))
				sb := int32(in.x >> 4 & 1)
				b0, b1, b2, b3 := sat(sp, in.b), sat(sp, in.b+sb), sat(sp, in.b+2*sb), sat(sp, in.b+3*sb)
				if good4(x) && (in.x&goodB != 0 || b0.why|b1.why|b2.why|b3.why == 0 && normal4(b0.bits, b1.bits, b2.bits, b3.bits)) {
					neg := in.x & (1 << 31)
					r0, ok0 := exactSum32(x[0].bits, b0.bits^neg)
					r1, ok1 := exactSum32(x[1].bits, b1.bits^neg)
					r2, ok2 := exactSum32(x[2].bits, b2.bits^neg)
					r3, ok3 := exactSum32(x[3].bits, b3.bits^neg)
					if ok0 && ok1 && ok2 && ok3 {
						d := (*[4]slot)(unsafe.Pointer(sat(sp, in.d)))
						d[0], d[1], d[2], d[3] = slot{bits: r0}, slot{bits: r1}, slot{bits: r2}, slot{bits: r3}
						continue
					}
				}
				in.fn(fr)
				continue
			}
			lanesF32(fr, in, 2, addLane)
		case opMulFV:
			if in.x&0x1f == 4|3<<3 || in.x&0x1f == 4|1<<3 { // four lanes, b a vector or a scalar
				x := (*[4]slot)(unsafe.Pointer(sat(sp, in.a)))
				sb := int32(in.x >> 4 & 1)
				b0, b1, b2, b3 := sat(sp, in.b), sat(sp, in.b+sb), sat(sp, in.b+2*sb), sat(sp, in.b+3*sb)
				if good4(x) && (in.x&goodB != 0 || b0.why|b1.why|b2.why|b3.why == 0 && normal4(b0.bits, b1.bits, b2.bits, b3.bits)) {
					r0, ok0 := exactMul32(x[0].bits, b0.bits)
					r1, ok1 := exactMul32(x[1].bits, b1.bits)
					r2, ok2 := exactMul32(x[2].bits, b2.bits)
					r3, ok3 := exactMul32(x[3].bits, b3.bits)
					if ok0 && ok1 && ok2 && ok3 {
						d := (*[4]slot)(unsafe.Pointer(sat(sp, in.d)))
						d[0], d[1], d[2], d[3] = slot{bits: r0}, slot{bits: r1}, slot{bits: r2}, slot{bits: r3}
						continue
					}
				}
				in.fn(fr)
				continue
			}
			lanesF32(fr, in, 2, mulLane)
		case opScaleFV:
			// Multiplying a normal f32 by ±2^k adds k to its exponent: the
			// product is exact when that exponent stays normal (the
			// general case, fn, rounds or saturates it otherwise); a
			// zero keeps its magnitude.
			sign := in.x & (1 << 31)
			if in.x&0xf == 4|1<<3 { // four lanes
				x := (*[4]slot)(unsafe.Pointer(sat(sp, in.a)))
				r0, ok0 := scale2(x[0].bits, in.c, sign)
				r1, ok1 := scale2(x[1].bits, in.c, sign)
				r2, ok2 := scale2(x[2].bits, in.c, sign)
				r3, ok3 := scale2(x[3].bits, in.c, sign)
				if ok0 && ok1 && ok2 && ok3 && x[0].why|x[1].why|x[2].why|x[3].why == 0 {
					d := (*[4]slot)(unsafe.Pointer(sat(sp, in.d)))
					d[0], d[1], d[2], d[3] = slot{bits: r0}, slot{bits: r1}, slot{bits: r2}, slot{bits: r3}
					continue
				}
				in.fn(fr)
				continue
			}
			lanesF32(fr, in, 1, scaleLane)
		case opClampFV:
			if in.x&0x3f == 4|7<<3 { // four lanes, all vectors
				x, lo, hi := (*[4]slot)(unsafe.Pointer(sat(sp, in.a))), (*[4]slot)(unsafe.Pointer(sat(sp, in.b))), (*[4]slot)(unsafe.Pointer(sat(sp, in.c)))
				if in.x&goodB != 0 {
					// Constant bounds, exact, normal and ordered (goodB).
					if good4(x) {
						d := (*[4]slot)(unsafe.Pointer(sat(sp, in.d)))
						d[0], d[1], d[2], d[3] = slot{bits: clampBits(x[0].bits, lo[0].bits, hi[0].bits)}, slot{bits: clampBits(x[1].bits, lo[1].bits, hi[1].bits)},
							slot{bits: clampBits(x[2].bits, lo[2].bits, hi[2].bits)}, slot{bits: clampBits(x[3].bits, lo[3].bits, hi[3].bits)}
						continue
					}
				} else if good4(x) && good4(lo) && good4(hi) {
					r0, ok0 := clampF32(x[0].bits, lo[0].bits, hi[0].bits)
					r1, ok1 := clampF32(x[1].bits, lo[1].bits, hi[1].bits)
					r2, ok2 := clampF32(x[2].bits, lo[2].bits, hi[2].bits)
					r3, ok3 := clampF32(x[3].bits, lo[3].bits, hi[3].bits)
					if ok0 && ok1 && ok2 && ok3 {
						d := (*[4]slot)(unsafe.Pointer(sat(sp, in.d)))
						d[0], d[1], d[2], d[3] = slot{bits: r0}, slot{bits: r1}, slot{bits: r2}, slot{bits: r3}
						continue
					}
				}
				in.fn(fr)
				continue
			}
			lanesF32(fr, in, 3, clampLane)
		case opSplat:
			v := *sat(sp, in.a)
			for i := in.d; i < in.d+int32(in.x); i++ {
				s[i] = v
			}
		case opSteps:
			fr.steps += int64(in.x)
			if fr.steps > fr.limit {
				if k := fr.overLimit(fr.p.positions[in.b]); k != cNext {
					return k
				}
			}
		case opAddSteps:
			fr.steps += int64(in.x)
		case opLoopStep:
			fr.steps++
			if fr.steps > fr.limit {
				if k := fr.overLimit(fr.p.positions[in.b]); k != cNext {
					return k
				}
			}
			goto enter
		case opLoopBack:
			fr.steps++
			if fr.steps > fr.limit {
				if k := fr.overLimit(fr.p.positions[in.b]); k != cNext {
					return k
				}
			}
			pc = int(uint32(in.d)) - 1
			goto enter
		case opStop:
			if fr.stop {
				return cAbort
			}
		case opStmt:
			if k := in.st(fr); k != cNext {
				return k
			}
		case opJmp:
			pc = int(uint32(in.d)) - 1
			goto enter
		case opBrEq:
			a, b := sat(sp, in.a), sat(sp, in.b)
			jump := a.bits != b.bits
			if w := firstWhy(a.why, b.why); w < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), w, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrNe:
			a, b := sat(sp, in.a), sat(sp, in.b)
			jump := a.bits == b.bits
			if w := firstWhy(a.why, b.why); w < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), w, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrLt:
			a, b := sat(sp, in.a), sat(sp, in.b)
			jump := !(a.bits^in.x < b.bits^in.x)
			if w := firstWhy(a.why, b.why); w < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), w, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrLe:
			a, b := sat(sp, in.a), sat(sp, in.b)
			jump := !(a.bits^in.x <= b.bits^in.x)
			if w := firstWhy(a.why, b.why); w < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), w, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrGt:
			a, b := sat(sp, in.a), sat(sp, in.b)
			jump := !(a.bits^in.x > b.bits^in.x)
			if w := firstWhy(a.why, b.why); w < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), w, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrGe:
			a, b := sat(sp, in.a), sat(sp, in.b)
			jump := !(a.bits^in.x >= b.bits^in.x)
			if w := firstWhy(a.why, b.why); w < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), w, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrF:
			a, b := sat(sp, in.a), sat(sp, in.b)
			if exactNormal(*a) && exactNormal(*b) {
				if !cmpF32(in.x, a.bits, b.bits) {
					pc = int(uint32(in.d)) - 1
				}
				goto enter
			}
			fr.brPC = int32(pc)
			in.fn(fr)
			if fr.stop {
				return cAbort
			}
			if !fr.cb {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrBool:
			v := sat(sp, in.a)
			jump := (v.bits != 0) == (in.x != 0)
			if v.why < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), v.why, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opSwitch:
			v := sat(sp, in.a)
			tbl := fr.p.tables[in.b]
			to := tbl[len(tbl)-1]
			for i := 0; i+1 < len(tbl); i += 2 {
				if tbl[i] == v.bits {
					to = tbl[i+1]
					break
				}
			}
			if v.why < 0 {
				var stop bool
				if to, stop = fr.forkSwitch(in.c, int32(pc), v.why, tbl, to); stop {
					return cAbort
				}
			}
			pc = int(to) - 1
			goto enter
		case opAddK:
			a := sat(sp, in.a)
			*sat(sp, in.d) = slot{bits: a.bits + in.x, why: a.why}
		case opMulK:
			a := sat(sp, in.a)
			*sat(sp, in.d) = slot{bits: a.bits * in.x, why: a.why}
		case opAndK:
			a := sat(sp, in.a)
			*sat(sp, in.d) = slot{bits: a.bits & in.x, why: a.why}
		case opOrK:
			a := sat(sp, in.a)
			*sat(sp, in.d) = slot{bits: a.bits | in.x, why: a.why}
		case opXorK:
			a := sat(sp, in.a)
			*sat(sp, in.d) = slot{bits: a.bits ^ in.x, why: a.why}
		case opShlK:
			a := sat(sp, in.a)
			*sat(sp, in.d) = slot{bits: wgslsem.Shl(a.bits, in.x), why: a.why}
		case opShrUK:
			a := sat(sp, in.a)
			*sat(sp, in.d) = slot{bits: wgslsem.Shr(a.bits, in.x), why: a.why}
		case opShrIK:
			a := sat(sp, in.a)
			*sat(sp, in.d) = slot{bits: uint32(wgslsem.Shr(int32(a.bits), in.x)), why: a.why}
		case opRemUK:
			a := sat(sp, in.a)
			*sat(sp, in.d) = slot{bits: wgslsem.RemU32(a.bits, in.x), why: a.why}
		case opDivUK:
			a := sat(sp, in.a)
			*sat(sp, in.d) = slot{bits: wgslsem.DivU32(a.bits, in.x), why: a.why}
		case opBrEqK:
			a := sat(sp, in.a)
			jump := a.bits^uint32(in.b) != in.x
			if a.why < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), a.why, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrNeK:
			a := sat(sp, in.a)
			jump := a.bits^uint32(in.b) == in.x
			if a.why < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), a.why, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrLtK:
			a := sat(sp, in.a)
			jump := !(a.bits^uint32(in.b) < in.x)
			if a.why < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), a.why, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrLeK:
			a := sat(sp, in.a)
			jump := !(a.bits^uint32(in.b) <= in.x)
			if a.why < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), a.why, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrGtK:
			a := sat(sp, in.a)
			jump := !(a.bits^uint32(in.b) > in.x)
			if a.why < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), a.why, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opBrGeK:
			a := sat(sp, in.a)
			jump := !(a.bits^uint32(in.b) >= in.x)
			if a.why < 0 {
				var stop bool
				if jump, stop = fr.fork2(in.c, int32(pc), a.why, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(in.d)) - 1
			}
			goto enter
		case opRet:
			return cReturn
		case opBarrier:
			fr.resume = pc + 1
			fr.barrier = in.x
			return cBarrier
		case opCount:
			fr.ops++
		case opAndKBrEqK, opAndKBrNeK, opRemUKBrEqK, opRemUKBrNeK:
			a := sat(sp, in.a)
			v := slot{why: a.why}
			if in.op <= opAndKBrNeK {
				v.bits = a.bits & in.x
			} else {
				v.bits = wgslsem.RemU32(a.bits, in.x)
			}
			*sat(sp, in.d) = v
			pc++ // the branch: as opBrEqK / opBrNeK, at its own pc
			br := &cd[pc]
			jump := (v.bits^uint32(br.b) != br.x) == (br.op == opBrEqK)
			if v.why < 0 {
				var stop bool
				if jump, stop = fr.fork2(br.c, int32(pc), v.why, jump); stop {
					return cAbort
				}
			}
			if jump {
				pc = int(uint32(br.d)) - 1
			}
			goto enter
		case opShlKXor, opShrUKXor:
			// The opXor reads the shift's result t (fuse) and another
			// operand: t reaches it in a register, not through its slot.
			a := sat(sp, in.a)
			t := slot{bits: wgslsem.Shl(a.bits, in.x), why: a.why}
			if in.op == opShrUKXor {
				t.bits = wgslsem.Shr(a.bits, in.x)
			}
			*sat(sp, in.d) = t
			pc++ // the opXor
			x := &cd[pc]
			o, w := pairOperand(x, in.d, sp, t.why)
			*sat(sp, x.d) = slot{bits: t.bits ^ o, why: w}
		case opMulKAdd, opMulKAddK:
			a := sat(sp, in.a)
			m := slot{bits: a.bits * in.x, why: a.why}
			*sat(sp, in.d) = m
			pc++ // the opAdd or opAddK, on m
			x := &cd[pc]
			if in.op == opMulKAddK {
				*sat(sp, x.d) = slot{bits: m.bits + x.x, why: m.why}
				continue
			}
			o, w := pairOperand(x, in.d, sp, m.why)
			*sat(sp, x.d) = slot{bits: m.bits + o, why: w}
		case opAndKI2F:
			a := sat(sp, in.a)
			v := slot{bits: a.bits & in.x, why: a.why}
			*sat(sp, in.d) = v
			pc++ // the opI2F, on v
			x := &cd[pc]
			if i := int32(v.bits); v.why == 0 && i >= -1<<24 && i <= 1<<24 {
				*sat(sp, x.d) = slot{bits: math.Float32bits(float32(i))}
				continue
			}
			x.fn(fr)
		case opAddFVClampFV:
			// The sum is opAddFV's four-lane fast path written again: as a
			// shared function it is not inlined, and the call made row (d)
			// 6% slower (p1 518 → 550 µs per run).
			x := (*[4]slot)(unsafe.Pointer(sat(sp, in.a)))
			sb := int32(in.x >> 4 & 1)
			b0, b1, b2, b3 := sat(sp, in.b), sat(sp, in.b+sb), sat(sp, in.b+2*sb), sat(sp, in.b+3*sb)
			if !good4(x) || in.x&goodB == 0 && (b0.why|b1.why|b2.why|b3.why != 0 || !normal4(b0.bits, b1.bits, b2.bits, b3.bits)) {
				in.fn(fr)
				continue
			}
			neg := in.x & (1 << 31)
			r0, ok0 := exactSum32(x[0].bits, b0.bits^neg)
			r1, ok1 := exactSum32(x[1].bits, b1.bits^neg)
			r2, ok2 := exactSum32(x[2].bits, b2.bits^neg)
			r3, ok3 := exactSum32(x[3].bits, b3.bits^neg)
			if !(ok0 && ok1 && ok2 && ok3) {
				in.fn(fr)
				continue
			}
			d := (*[4]slot)(unsafe.Pointer(sat(sp, in.d)))
			d[0], d[1], d[2], d[3] = slot{bits: r0}, slot{bits: r1}, slot{bits: r2}, slot{bits: r3}
			pc++ // the opClampFV, of r0..r3
			c := &cd[pc]
			if !normal4(r0, r1, r2, r3) {
				c.fn(fr)
				continue
			}
			lo, hi := (*[4]slot)(unsafe.Pointer(sat(sp, c.b))), (*[4]slot)(unsafe.Pointer(sat(sp, c.c)))
			d = (*[4]slot)(unsafe.Pointer(sat(sp, c.d)))
			d[0], d[1], d[2], d[3] = slot{bits: clampBits(r0, lo[0].bits, hi[0].bits)}, slot{bits: clampBits(r1, lo[1].bits, hi[1].bits)},
				slot{bits: clampBits(r2, lo[2].bits, hi[2].bits)}, slot{bits: clampBits(r3, lo[3].bits, hi[3].bits)}
		case opAddKLoopBack:
			a := sat(sp, in.a)
			*sat(sp, in.d) = slot{bits: a.bits + in.x, why: a.why}
			pc++ // the back edge: as opLoopBack
			lb := &cd[pc]
			fr.steps++
			if fr.steps > fr.limit {
				if k := fr.overLimit(fr.p.positions[lb.b]); k != cNext {
					return k
				}
			}
			pc = int(uint32(lb.d)) - 1
			goto enter
		}
		continue
	enter:
		// A control transfer (loop step, jump, branch) into a block runs
		// the block's opSteps here rather than in another dispatch: the same
		// check, with nothing in between.
		if t := pc + 1; t < len(cd) && cd[t].op == opSteps {
			nx := &cd[t]
			fr.steps += int64(nx.x)
			if fr.steps > fr.limit {
				if k := fr.overLimit(fr.p.positions[nx.b]); k != cNext {
					return k
				}
			}
			pc = t
		}
	}
	return cNext
}

// lanesF32 is a lane-wise f32 instruction (opAddFV, opMulFV,
// opScaleFV, opClampFV) on other than four lanes, or four that are not
// all vectors (cold: kept out of execAt's register allocation). Lane i of
// operand j (a, b, c; the first nops) is slot base_j + i*stride_j, the
// stride bit 3+j of in.x (0: a broadcast scalar); each must be exact and
// not subnormal, and lane gives the lane's result and whether it is
// exact. Where any lane is not, in.fn, the general case, computes them
// all.
//
//go:noinline
func lanesF32(fr *frame, in *instr, nops int, lane func(in *instr, x, y, z uint32) (uint32, bool)) {
	s := fr.s
	n := int32(in.x & 7)
	base := [3]int32{in.a, in.b, in.c}
	var r [4]uint32
	for i := int32(0); i < n; i++ {
		var v [3]uint32
		for j := 0; j < nops; j++ {
			o := &s[base[j]+i*int32(in.x>>(3+j)&1)]
			if o.why != 0 || isSubnormal(o.bits) {
				in.fn(fr)
				return
			}
			v[j] = o.bits
		}
		var ok bool
		if r[i], ok = lane(in, v[0], v[1], v[2]); !ok {
			in.fn(fr)
			return
		}
	}
	for i := int32(0); i < n; i++ {
		s[in.d+i] = slot{bits: r[i]}
	}
}

// The lanes of lanesF32's instructions: a + (b ^ the sign flip of
// in.x), a * b, a * ±2^in.c, clamp(a, b, c).
func addLane(in *instr, x, y, _ uint32) (uint32, bool) { return exactSum32(x, y^in.x&(1<<31)) }
func mulLane(_ *instr, x, y, _ uint32) (uint32, bool)  { return exactMul32(x, y) }
func scaleLane(in *instr, x, _, _ uint32) (uint32, bool) {
	return scale2(x, in.c, in.x&(1<<31))
}
func clampLane(_ *instr, x, lo, hi uint32) (uint32, bool) { return clampF32(x, lo, hi) }

// scale2 returns the bits of f32 bits b times ±2^k (sign: the sign
// bit), and whether that product is exact: b is zero, or b and the
// product are normal (neither a subnormal, an infinity nor a NaN).
func scale2(b uint32, k int32, sign uint32) (uint32, bool) {
	m := b & 0x7fffffff
	if m == 0 {
		return b ^ sign, true
	}
	e := int32(m >> 23)
	return (b ^ sign) + uint32(k)<<23, uint32(e-1) < 254 && uint32(e+k-1) < 254
}

// pairOperand returns the bits of the operand of x, the second
// instruction of a pair, that is not the first's result (slot t, whose
// why is tw; fuse requires x to read it), and the why of x's result:
// firstWhy of its operands in x's order.
func pairOperand(x *instr, t int32, sp unsafe.Pointer, tw int32) (uint32, int32) {
	if x.a == t {
		o := sat(sp, x.b)
		return o.bits, firstWhy(tw, o.why)
	}
	o := sat(sp, x.a)
	return o.bits, firstWhy(o.why, tw)
}

// sat is slot i of the frame whose first slot is at p: no bounds check
// (execAt's operands, which checkSlots checked).
func sat(p unsafe.Pointer, i int32) *slot {
	return (*slot)(unsafe.Add(p, uintptr(uint32(i))*unsafe.Sizeof(slot{})))
}

// checkSlots returns an error naming the first instruction of cd that
// execAt would read or write outside a frame of n slots through sat, as
// opInfos states each opcode's fields: each slot operand (argSlot,
// argLanes, argVec4), with the lanes it spans, within [0, n); and each
// jump target (argTarget) within [0, len(cd)] (the end included).
// Operands that execAt reads through checked slices (argSlice, argIndex;
// lanesF32) need no check here; a pair's second instruction, which fuse
// keeps in place, is checked as itself (and must be there), and the
// fields of it the pair reads in its own way (opInfo.next) for the pair.
// An opcode without an opInfos entry is an error, so a new instruction
// must say what it touches.
func (cd code) checkSlots(n int32) error {
	for pc := range cd {
		in := &cd[pc]
		if in.op >= numOpcodes || opInfos[in.op].name == "" {
			return fmt.Errorf("instruction %d: opcode %d has no slot check (no opInfos entry)", pc, in.op)
		}
		info := &opInfos[in.op]
		if info.pair && pc+1 == len(cd) {
			return fmt.Errorf("instruction %d: pair %v is the last instruction", pc, in.op)
		}
		if info.four && (in.x&7 != 4 || in.x>>3&1 == 0) {
			return fmt.Errorf("instruction %d: %v on %d lanes (a's stride %d): it runs on four lanes of a vector", pc, in.op, in.x&7, in.x>>3&1)
		}
		if err := checkFields(cd, pc, in, in, &info.args, n); err != nil {
			return err
		}
		if info.next != rNone {
			if err := checkFields(cd, pc, in, &cd[pc+1], &info.next, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkFields checks the fields of f (instruction pc, in, or the second
// instruction of its pair) whose roles are roles, for checkSlots.
func checkFields(cd code, pc int, in, f *instr, roles *[4]opArg, n int32) error {
	vals := [4]int32{f.a, f.b, f.c, f.d}
	for k, role := range roles {
		at := vals[k]
		var span int32
		switch role {
		case argSlot:
			span = 1
		case argVec4:
			span = 4
		case argLanes:
			span = 1
			if k == 3 || f.x>>(3+k)&1 != 0 {
				span = int32(f.x & 7)
			}
		case argTarget:
			// execAt reads the target as unsigned (one load, not three).
			if at < 0 || int(at) > len(cd) {
				return fmt.Errorf("instruction %d (%v) jumps to %d, outside the code's %d instructions", pc, in.op, at, len(cd))
			}
			continue
		default:
			continue
		}
		if at < 0 || span < 1 || at > n-span {
			return fmt.Errorf("instruction %d (%v) names slots [%d, %d), outside the frame's %d", pc, in.op, at, int64(at)+int64(span), n)
		}
	}
	return nil
}

// fnInstr is the instruction that calls fn.
func fnInstr(fn exprFn) instr { return instr{op: opFn, fn: fn} }

// cmpF32 compares two finite f32 values (as bits) with comparison op (an
// ir.BinaryOp).
func cmpF32(op uint32, a, b uint32) bool {
	x, y := math.Float32frombits(a), math.Float32frombits(b)
	switch ir.BinaryOp(op) {
	case ir.OpEq:
		return x == y
	case ir.OpNe:
		return x != y
	case ir.OpLt:
		return x < y
	case ir.OpLe:
		return x <= y
	case ir.OpGt:
		return x > y
	}
	return x >= y
}

// emitI is the code of a hot operation: its operands' code, then in (or,
// when operations are counted, in.fn, which computes the same, wrapped for
// counting).
func (c *compiler) emitI(in instr, operands ...cexpr) code {
	if c.opts.countOps {
		return seq(operands, c.op(in.fn))
	}
	var out code
	for _, o := range operands {
		out = append(out, o.code...)
	}
	return append(out, in)
}

// clampF32 is clamp(x, lo, hi) of exact, normal f32 values (as bits)
// compared in f32; ok is false when lo > hi (the general kernel decides).
func clampF32(x, lo, hi uint32) (uint32, bool) {
	if !(math.Float32frombits(lo) <= math.Float32frombits(hi)) {
		return 0, false
	}
	return clampBits(x, lo, hi), true
}

// clampBits is clamp(x, lo, hi) of finite f32 values (as bits) with
// lo ≤ hi, compared in f32: x when lo ≤ x ≤ hi, else the bound it passes
// (the bits of x, lo or hi, so a signed zero stays as it is). With
// lo ≤ hi, hi < max(x, lo) is hi < x: the two selections are independent
// and compile to conditional moves (whether a value is clamped is data,
// and a branch on it mispredicts).
func clampBits(x, lo, hi uint32) uint32 {
	xv, lv, hv := math.Float32frombits(x), math.Float32frombits(lo), math.Float32frombits(hi)
	r := x
	if xv < lv {
		r = lo
	}
	if hv < xv {
		r = hi
	}
	return r
}

// laneBits encodes lane strides for the lane-wise instructions: n lanes,
// operand k's stride in bit 3+k.
func laneBits(n int32, strides ...int32) uint32 {
	x := uint32(n)
	for k, st := range strides {
		x |= uint32(st) << (3 + k)
	}
	return x
}

// normal4 reports whether none of four f32 values (as bits) is
// subnormal: a subnormal's magnitude bits minus one are below 0x7fffff,
// a zero's wrap around (no branches).
func normal4(a, b, c, d uint32) bool {
	const m = 0x7fffffff
	return min((a&m)-1, (b&m)-1, (c&m)-1, (d&m)-1) >= 0x7fffff
}

// good4 reports whether four f32 slots are exact and not subnormal.
func good4(x *[4]slot) bool {
	return x[0].why|x[1].why|x[2].why|x[3].why == 0 && normal4(x[0].bits, x[1].bits, x[2].bits, x[3].bits)
}

// goodB marks a lane-wise f32 instruction whose operand b (and, for
// opClampFV, c) is a constant that is exact and not subnormal (and, for
// opClampFV, ordered: b ≤ c in each lane), which the fast path need not
// check.
const goodB = 1 << 6
