package flatten

// Tag-switch narrowing (issue 17). A twin cannot switch: it evaluates every
// arm it keeps under that arm's predicate. For a closed-set tag switch
// (ir.TagSwitch) whose tag the tag-set analysis (ir.AnalyzeTags, rooted at
// the function being flattened) bounds to a finite set, only the arms
// some value of the set selects are lowered, each under the predicate
// tag == k (for the values k of the set it holds) && P; a tag proven
// single-valued selects its arm statically, which is then lowered
// unpredicated: a direct call, inlined plainly. The pruning is legal
// because the analysis over-approximates the tag's values in every
// execution from the root, so a pruned arm's predicate is false in every
// invocation and lowering it would only add stores that select away.
// A tag switch the analysis cannot narrow is lowered as every other switch
// is, so twins without a narrowed tag switch are unchanged.

import (
	"slices"

	"github.com/gpudiff/gpudiff/ir"
)

// TagSwitchStat describes one tag switch in the call graph of a flattened
// function (Options.OnTagSwitch): where it is, the tag set the analysis
// found, its declared candidates and those the twin keeps.
type TagSwitchStat struct {
	Kernel     string // the function being flattened
	Func       string // the function holding the tag switch's switch
	Pos        ir.Pos
	Tag        ir.TagSet
	Candidates []string // the declared callees, in case order
	Kept       []string // the callees the tag set can select
}

// Pruned is the number of candidates the twin does not inline.
func (s TagSwitchStat) Pruned() int { return len(s.Candidates) - len(s.Kept) }

// narrowTagSwitches runs the tag-set analysis for f and returns the tag
// sets of the tag switches it narrows, keyed by their switch, with a
// TagSwitchStat for every tag switch in f's call graph, in call-graph order
// (callees first) and program order within a function.
func narrowTagSwitches(m *ir.Module, f *ir.Func) (map[*ir.Switch]ir.TagSet, []TagSwitchStat) {
	var stats []TagSwitchStat
	var tf *ir.TagFlow
	narrowed := map[*ir.Switch]ir.TagSet{}
	for _, g := range m.CallGraph(f.Name) {
		for _, d := range ir.FindTagSwitches(m, g) {
			if tf == nil {
				tf = ir.AnalyzeTags(m, f.Name)
			}
			set := tf.Selector(d.Switch)
			st := TagSwitchStat{Kernel: f.Name, Func: g.Name, Pos: d.Switch.Pos, Tag: set,
				Candidates: d.Callees(), Kept: d.Reachable(set)}
			if st.Pruned() > 0 {
				narrowed[d.Switch] = set
			}
			stats = append(stats, st)
		}
	}
	return narrowed, stats
}

// lowerTagSwitch lowers a narrowed tag switch s whose tag, already
// translated and not a literal, is sel.
func (l *lowerer) lowerTagSwitch(s *ir.Switch, sel ir.Expr, set ir.TagSet) {
	if v, ok := set.Single(); ok {
		if cs := matchingCase(s, ir.ScalarVal(sel.Type(), v)); cs != nil {
			l.block(cs.Body)
		}
		return
	}
	sel = l.bind("sel", sel, tempValue)
	inCase := map[uint32]bool{}
	for _, cs := range s.Cases {
		for _, v := range cs.Values {
			inCase[v.Bits] = true
		}
	}
	for _, cs := range s.Cases {
		if len(cs.Body.Stmts) == 0 {
			continue
		}
		var vals []uint32
		for _, v := range set.Vals {
			if slices.ContainsFunc(cs.Values, func(cv ir.Value) bool { return cv.Bits == v }) || (cs.Default && !inCase[v]) {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			continue // pruned: no value of the tag selects this arm
		}
		var match ir.Expr
		for _, v := range vals {
			match = or(match, &ir.Binary{Pos: s.Pos, Op: ir.OpEq, X: sel, Y: &ir.Lit{Pos: s.Pos, Val: ir.ScalarVal(sel.Type(), v)}, T: ir.Bool})
		}
		match = l.bind("case", match, tempValue)
		if l.dead() {
			return
		}
		l.withS(match, func() { l.block(cs.Body) })
	}
}
