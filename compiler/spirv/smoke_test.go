package spirv

import (
	"testing"

	"github.com/gpudiff/gpudiff/ir"
)

func TestSmoke(t *testing.T) {
	m := module(fn("k", params("a", ir.I32, "b", ir.I32), ir.I32,
		ret(bin(ir.OpDiv, param("a", ir.I32), param("b", ir.I32)))))
	w := emitValid(t, m, "k", DefaultOptions())
	s, err := Disassemble(w)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(s)
}
