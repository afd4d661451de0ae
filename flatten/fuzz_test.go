package flatten_test

import (
	"testing"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
)

// FuzzFlatten: for the program any byte string decodes to (gen.FromBytes
// yields a valid program for every input), flatten either refuses it or
// returns a twin that verifies after every pass and agrees with the
// original under the interpreter; it never panics or fails internally.
// `go test` runs the seeds; `go test -fuzz FuzzFlatten ./flatten` explores.
func FuzzFlatten(f *testing.F) {
	for _, s := range []string{"", "\x00", "flatten", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8", "loops and breaks and switches", "\x10\x20\x30\x40\x50\x60\x70\x80\x90\xa0"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := gen.FromBytes(data, gen.Config{})
		twin, err := flatten.Function(p.Module, p.Kernel, flatten.Options{VerifyPasses: true, Strict: true})
		if err != nil {
			if !flatten.IsRefusal(err) || p.OutsideSubset == "" {
				t.Fatalf("%v\n%s", err, ir.Print(p.Module))
			}
			return
		}
		diff, err := sameBehaviour(p.Module, p.Kernel, twin.Name, gen.Inputs(1, p.Module.Func(p.Kernel).Params, 16))
		if err != nil || diff != "" {
			t.Fatalf("%v %s\noriginal:\n%s\ntwin:\n%s", err, diff, ir.ProgramText(p.Module, p.Kernel), ir.PrintFunc(twin))
		}
	})
}
