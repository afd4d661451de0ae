package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
)

// FlattenStats is what `gpudiff flatten --stats` prints: the closed-set
// dispatches flatten met (flatten.Options.OnTagSwitch) and the loops it
// lowered, by what became of them (flatten.Options.OnLoop). Collect sets
// both hooks; Write prints them.
type FlattenStats struct {
	Dispatches                []flatten.TagSwitchStat
	Unrolled, Uniform, Masked int
}

// Collect makes o report its dispatches and loops to s.
func (s *FlattenStats) Collect(o *flatten.Options) {
	o.OnTagSwitch = func(st flatten.TagSwitchStat) { s.Dispatches = append(s.Dispatches, st) }
	o.OnLoop = func(_ ir.Pos, kind string) {
		switch kind {
		case "unrolled":
			s.Unrolled++
		case "uniform":
			s.Uniform++
		case "masked":
			s.Masked++
		}
	}
}

// Write prints one line per dispatch (the kernel flattened, the dispatch's
// function and position, its tag set, its candidates and the ones kept),
// the dispatch totals, then the loop totals:
//
//	dispatch materials: eval_brdf 20:3: tag {1u, 4u}: 6 candidates, 4 pruned, kept brdf_lambert brdf_mirror
//	dispatches: 1, candidates: 6, pruned: 4
//	loops: unrolled 2, kept uniform 1, masked 1
func (s *FlattenStats) Write(w io.Writer) {
	seen, pruned := 0, 0
	for _, d := range s.Dispatches {
		fmt.Fprintf(w, "dispatch %s: %s %d:%d: tag %v: %d candidates, %d pruned, kept %s\n",
			d.Kernel, d.Func, d.Pos.Line, d.Pos.Col, d.Tag, len(d.Candidates), d.Pruned(), strings.Join(d.Kept, " "))
		seen += len(d.Candidates)
		pruned += d.Pruned()
	}
	fmt.Fprintf(w, "dispatches: %d, candidates: %d, pruned: %d\n", len(s.Dispatches), seen, pruned)
	fmt.Fprintf(w, "loops: unrolled %d, kept uniform %d, masked %d\n", s.Unrolled, s.Uniform, s.Masked)
}
