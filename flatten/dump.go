package flatten

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// CheckLoops refuses an Options.Loops value other than auto, unroll and
// mask, naming `gpudiff flatten`'s --loops.
func CheckLoops(loops string) error {
	if !slices.Contains([]string{"auto", "unroll", "mask"}, loops) {
		return fmt.Errorf("--loops: %q is not one of auto, unroll, mask", loops)
	}
	return nil
}

// DumpAfter sets o.AfterPass to print the twin to w after each run of
// pass that changed it, or after every pass with "all" (`gpudiff flatten
// --dump-after`); "" sets nothing. A pass PassNames does not name is an
// error listing them.
func (o *Options) DumpAfter(pass string, w io.Writer) error {
	if pass == "" {
		return nil
	}
	if pass != "all" && !slices.Contains(PassNames(), pass) {
		return fmt.Errorf("--dump-after: no pass %q (passes: all, %s)", pass, strings.Join(PassNames(), ", "))
	}
	o.AfterPass = func(p string, twin *ir.Func) {
		if pass == "all" || p == pass {
			fmt.Fprintf(w, "// after %s:\n%s\n", p, ir.PrintFunc(twin))
		}
	}
	return nil
}
