package amber

import (
	"fmt"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// FormatError is Emit's refusal of a format it does not know.
type FormatError struct{ Format string }

func (e *FormatError) Error() string {
	return fmt.Sprintf("--format must be wgsl, spirv or spirv-asm, got %q", e.Format)
}

// Emit is what `gpudiff emit` prints for function fn of m, a case of kind
// k, in format: "wgsl" (k.EmitWGSL), "spirv" (spirv.Emit's words as
// bytes, WordsToBytes; binary is true) or "spirv-asm" (their
// DefaultDisassembler text). An unknown format is a *FormatError; the
// others' errors are the emitters' own.
func Emit(m *ir.Module, k testcase.Kind, fn, format string, mode wgsl.Mode, fragment bool) (data []byte, binary bool, err error) {
	switch format {
	case "wgsl":
		src, err := check.EmitWGSL(k, m, fn, mode, fragment)
		return []byte(src), false, err
	case "spirv", "spirv-asm":
		words, err := spirv.Emit(m, fn, spirv.Options{Mode: mode, Fragment: fragment})
		if err != nil {
			return nil, false, err
		}
		if format == "spirv" {
			return WordsToBytes(words), true, nil
		}
		asm, err := DefaultDisassembler().Run(words)
		return []byte(asm), false, err
	}
	return nil, false, &FormatError{Format: format}
}
