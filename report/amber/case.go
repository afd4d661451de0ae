package amber

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
)

// ExportCase exports a case testcase.Load read (gpudiff export-amber): a
// draw's render pass (ExportDraw), a compute entry point's dispatch
// (ExportEntry) or a function kernel's
// invocations (Export), of these only the indices that only lists
// (comma-separated; "" keeps all; an entry point has none to pick). The
// script's source is the module's (a case file's without its record, whose
// seed and verdict it records) and its mode the case's.
func ExportCase(c *testcase.Case, only string, opts Options) (*Script, error) {
	opts.Source, opts.Mode = string(c.Source), c.Mode
	if rec := c.Record; rec != nil {
		opts.Source = string(c.Source[:bytes.LastIndex(c.Source, []byte(testcase.CaseMarker))])
		opts.Seed, opts.Verdict = rec.Seed, rec.Verdict
	}
	if c.Kind == testcase.KindDraw {
		if only != "" {
			return nil, fmt.Errorf("--only is for function kernels; a draw is one render pass")
		}
		return ExportDraw(c, opts)
	}
	if c.Kind == testcase.KindCompute {
		if only != "" {
			return nil, fmt.Errorf("--only is for function kernels; a compute entry point is one dispatch")
		}
		return ExportEntry(c, opts)
	}
	if only != "" {
		var kept [][]ir.Value
		for _, s := range strings.Split(only, ",") {
			i, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || i < 0 || i >= len(c.Args) {
				return nil, fmt.Errorf("--only: %q is not an invocation index in [0, %d)", s, len(c.Args))
			}
			kept = append(kept, c.Args[i])
		}
		c.Args = kept
	}
	return Export(c, opts)
}
