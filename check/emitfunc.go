package check

import (
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
)

// EmitFunc is the function of m that gpudiff emit emits for kernel (""
// the module's entry point, else its only uncalled function; KindOf): its
// kind and its name, or with flat its twin's (flatten.Function with opts,
// which adds the twin to m; gpudiff flatten --kernel).
func EmitFunc(m *ir.Module, kernel string, flat bool, opts flatten.Options) (testcase.Kind, string, error) {
	kind := testcase.KindOf(m, kernel)
	f, err := kind.Func(m, kernel)
	if err != nil {
		return kind, "", err
	}
	if !flat {
		return kind, f.Name, nil
	}
	tw, err := flatten.Function(m, f.Name, opts)
	if err != nil {
		return kind, "", err
	}
	return kind, tw.Name, nil
}
