package interp

// fuse turns pairs of instructions of a function body that often follow
// each other into one dispatch each (the pair opcodes of code.go): a bit
// test or remainder compared with a constant and branched on
// (`if ((x & 1) == 0)`, `if (i % 3u != 0u)`), a loop counter's
// increment followed by the loop's back edge (`i++` of a for loop), and
// integer expressions that hash and index arithmetic repeat: a shift
// xored with another value (`h ^ (h << 13u)`: xorshift), a product by a
// constant plus a value or a constant (`h * 5u + i`: LCGs, `i * 4u + 1u`),
// a bit mask converted to f32 (`f32(i & 7)`). A pair whose second
// instruction reads the first's result takes it from a register, not
// from its slot (the slot is still written). The
// first instruction takes the pair's opcode and the second stays where it
// is, unchanged, so that every jump, branch site (fork points name the
// branch's pc) and step-limit position stays the same; a pair is fused
// only when its second instruction is not a jump target, which makes it
// reachable only through the first. tables are the program's switch
// tables (jump targets too).
// testBranches are the pair opcodes of a bit test or remainder with a
// branch on its result.
var testBranches = map[[2]opcode]opcode{
	{opAndK, opBrEqK}: opAndKBrEqK, {opAndK, opBrNeK}: opAndKBrNeK,
	{opRemUK, opBrEqK}: opRemUKBrEqK, {opRemUK, opBrNeK}: opRemUKBrNeK,
}

func fuse(cd code, tables [][]uint32) {
	target := make([]bool, len(cd)+1)
	target[0] = true
	for pc, in := range cd {
		switch {
		case opInfos[in.op].jumps():
			target[in.d] = true
		case in.op == opSwitch:
			tbl := tables[in.b] // value, target pairs, then the default target
			for i := 1; i < len(tbl); i += 2 {
				target[tbl[i]] = true
			}
			target[tbl[len(tbl)-1]] = true
		case in.op == opBarrier:
			target[pc+1] = true // where the entry point resumes
		}
	}
	for pc := 0; pc+1 < len(cd); pc++ {
		in, next := &cd[pc], &cd[pc+1]
		if target[pc+1] {
			continue
		}
		switch {
		case (in.op == opAndK || in.op == opRemUK) && (next.op == opBrEqK || next.op == opBrNeK) && next.a == in.d:
			in.op = testBranches[[2]opcode{in.op, next.op}]
			pc++
		case in.op == opAddK && next.op == opLoopBack:
			in.op = opAddKLoopBack
			pc++
		case (in.op == opShlK || in.op == opShrUK) && next.op == opXor && (next.a == in.d || next.b == in.d):
			if in.op == opShrUK {
				in.op = opShrUKXor
			} else {
				in.op = opShlKXor
			}
			pc++
		case in.op == opAddFV && (in.x&0x1f == 4|3<<3 || in.x&0x1f == 4|1<<3) &&
			next.op == opClampFV && next.x&0x3f == 4|7<<3 && next.x&goodB != 0 && next.a == in.d:
			in.op = opAddFVClampFV
			pc++
		case in.op == opAndK && next.op == opI2F && next.a == in.d:
			in.op = opAndKI2F
			pc++
		case in.op == opMulK && (next.op == opAdd && (next.a == in.d || next.b == in.d) || next.op == opAddK && next.a == in.d):
			in.op = opMulKAdd
			if next.op == opAddK {
				in.op = opMulKAddK
			}
			pc++
		}
	}
}
