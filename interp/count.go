package interp

import "github.com/gpudiff/gpudiff/ir"

// CountOps runs kernel once per element of args, as Run does, and returns
// how many IR operations the invocations executed together: statements
// executed plus non-leaf expressions evaluated (literals and variable
// reads are not operations). It is the denominator of a
// nanoseconds-per-operation figure (BenchmarkInterp, and fuzz's
// BenchmarkGpudiff): count once, then time Program.Run. It compiles an
// instrumented copy of the kernel, slower than Compile's.
func CountOps(m *ir.Module, kernel string, args [][]ir.Value) (int64, error) {
	p, err := compile(m, kernel, compileOpts{countOps: true})
	if err != nil {
		return 0, err
	}
	if _, err := p.Run(args, Options{}); err != nil { // checks the arguments
		return 0, err
	}
	fr := p.getFrame()
	defer p.frames.Put(fr)
	ops := int64(0)
	for _, a := range args {
		fr.ops = 0
		p.invoke(fr, a, DefaultMaxSteps)
		ops += fr.ops
	}
	return ops, nil
}
