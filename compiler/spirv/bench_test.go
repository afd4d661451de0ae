package spirv

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// largeKernel is a kernel of n top-level statements: compound assignments
// with divisions and shifts (portable guards), every 10th an if/else,
// every 50th a small loop with break-if, every 25th a let.
func largeKernel(n int) *ir.Module {
	acc, x, i := local("acc", ir.I32), param("x", ir.I32), local("i", ir.I32)
	body := []ir.Stmt{varDecl("acc", ir.I32, x), varDecl("i", ir.I32, i32(0))}
	for s := 0; len(body) < n; s++ {
		switch {
		case s%50 == 49:
			body = append(body, loop(
				[]ir.Stmt{assignOp(ir.OpAdd, acc, bin(ir.OpShl, i, u32(1)))},
				[]ir.Stmt{assignOp(ir.OpAdd, i, i32(1))},
				bin(ir.OpGe, i, i32(int32(s%7)))))
		case s%25 == 24:
			name := "t" + string(rune('a'+s%26)) + itoa(s)
			body = append(body, letDecl(name, bin(ir.OpMul, acc, i32(3))),
				assign(acc, bin(ir.OpSub, letRef(name, ir.I32), x)))
		case s%10 == 9:
			body = append(body, ifElse(bin(ir.OpGt, acc, x),
				[]ir.Stmt{assignOp(ir.OpSub, acc, i32(7))},
				[]ir.Stmt{assignOp(ir.OpXor, acc, i32(int32(s)))}))
		default:
			body = append(body, assign(acc, bin(ir.OpAdd, bin(ir.OpDiv, acc, bin(ir.OpOr, x, i32(1))), bin(ir.OpShr, x, conv(ir.U32, i)))))
		}
	}
	body = append(body, ret(acc))
	return module(fn("k", params("x", ir.I32), ir.I32, body...))
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestLargeKernelValidates: the benchmark's kernel is valid SPIR-V.
func TestLargeKernelValidates(t *testing.T) {
	m := largeKernel(10000)
	require.NoError(t, ir.Verify(m))
	emitValid(t, m, "k", DefaultOptions())
}

// BenchmarkEmit10kStatements measures Emit on a 10,000-statement kernel
// (portable mode, debug names on).
func BenchmarkEmit10kStatements(b *testing.B) {
	m := largeKernel(10000)
	require.NoError(b, ir.Verify(m))
	var words []uint32
	b.ReportAllocs()
	for b.Loop() {
		var err error
		words, err = Emit(m, "k", DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(words)), "words")
}
