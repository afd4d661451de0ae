package wgsl

import (
	"fmt"
	"strings"
	"testing"
)

// ptBigFunction returns a module whose kernel has n statements: lets,
// compound assignments, ifs with else branches, and a bounded loop every
// 100 statements.
func ptBigFunction(n int) []byte {
	var b strings.Builder
	b.WriteString("fn big(x: i32, y: f32) -> i32 {\n  var acc = 0;\n  var f = y;\n")
	for i := 0; i < n; i++ {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "  let v%d = acc * %d + x;\n", i, i%7+1)
		case 1:
			fmt.Fprintf(&b, "  acc += (x << %du) ^ %d;\n", i%31, i)
		case 2:
			fmt.Fprintf(&b, "  if (acc > %d) { acc -= %d; } else { f = f * 0.5 + %d.0; }\n", i, i%13, i%3)
		case 3:
			fmt.Fprintf(&b, "  f = max(f, vec2(f32(acc), %d.5).x);\n", i%9)
		case 4:
			if i%100 == 4 {
				fmt.Fprintf(&b, "  for (var i%d = 0; i%d < 4; i%d++) { acc += i%d; }\n", i, i, i, i)
			} else {
				fmt.Fprintf(&b, "  acc = select(acc, acc + 1, f < %d.0);\n", i%11)
			}
		}
	}
	b.WriteString("  return acc + i32(f);\n}\n")
	return []byte(b.String())
}

// BenchmarkParse10kStatements parses and checks a 10,000-statement
// function (the front end's cost per large generated or shrunk program).
func BenchmarkParse10kStatements(b *testing.B) {
	src := ptBigFunction(10000)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		if _, err := Parse("big.wgsl", src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBigFunctionParses keeps the benchmark input valid.
func TestBigFunctionParses(t *testing.T) {
	m := ptParse(t, string(ptBigFunction(1000)))
	ptRoundTrip(t, "big.wgsl", m)
}
