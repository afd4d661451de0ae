package ir

// TagSwitch: the closed-set dynamic dispatch form, recognized over an
// existing Switch (issue 17). It is an analysis result, not a node: the
// Switch stays what every pass, the interpreter and the emitters already
// handle, and only flatten, which must evaluate every arm it keeps, needs
// to know that the arms are interchangeable implementations picked by a
// tag (cf. Slang's type-flow specialization, its
// type-flow design: the set of callees is a property computed
// about a call, not a new kind of call).

// TagSwitchForm says what each arm of a TagSwitch does with the call's
// result.
type TagSwitchForm uint8

const (
	TagSwitchReturn TagSwitchForm = iota + 1 // return f_k(args);
	TagSwitchAssign                          // x = f_k(args); (the same reference x in every arm)
	TagSwitchCall                            // f_k(args); (void callees writing private globals)
)

// TagSwitch is a switch on an i32 or u32 tag whose every arm calls a
// different function of one signature with the same arguments and
// returns the result, assigns it to the same reference, or calls a void
// function (TagSwitchForm); an arm may end in a break. The callees form
// the closed candidate set: Candidates maps each case value to its
// callee, Default is the default arm's callee ("" when the switch's
// default arm is empty).
type TagSwitch struct {
	Switch     *Switch
	Func       string // the function holding the switch
	Tag        Expr   // Switch.Selector
	Form       TagSwitchForm
	Candidates map[uint32]string // case value (bit pattern) → callee
	Default    string
}

// Callees returns the distinct callees of d: the case arms' in case
// order, then the default arm's.
func (d *TagSwitch) Callees() []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, cs := range d.Switch.Cases {
		for _, v := range cs.Values {
			add(d.Candidates[v.Bits])
		}
	}
	add(d.Default)
	return out
}

// Reachable returns the callees of d that run for some tag value in set:
// every one when set is unbounded, else the callees of the values in set
// (the default arm's for a value no case holds).
func (d *TagSwitch) Reachable(set TagSet) []string {
	if set.Unbounded || len(set.Vals) == 0 {
		return d.Callees()
	}
	keep := map[string]bool{}
	for _, v := range set.Vals {
		if f, ok := d.Candidates[v]; ok {
			keep[f] = true
		} else if d.Default != "" {
			keep[d.Default] = true
		}
	}
	var out []string
	for _, f := range d.Callees() {
		if keep[f] {
			out = append(out, f)
		}
	}
	return out
}

// FindTagSwitches returns the tag switches of f, in program order.
func FindTagSwitches(m *Module, f *Func) []*TagSwitch {
	var out []*TagSwitch
	Inspect(f.Body, func(n Node) bool {
		if s, ok := n.(*Switch); ok {
			if d := recognizeTagSwitch(m, s); d != nil {
				d.Func = f.Name
				out = append(out, d)
			}
		}
		return true
	})
	return out
}

// armCall is what one arm does: its form, the call, and the assigned
// reference's printed form (TagSwitchAssign).
type armCall struct {
	form TagSwitchForm
	call *Call
	lhs  string
}

func tagSwitchArm(b *Block) (armCall, bool) {
	stmts := b.Stmts
	if n := len(stmts); n > 0 {
		if _, ok := stmts[n-1].(*Break); ok {
			stmts = stmts[:n-1]
		}
	}
	if len(stmts) != 1 {
		return armCall{}, false
	}
	switch s := stmts[0].(type) {
	case *Return:
		if c, ok := s.Value.(*Call); ok {
			return armCall{form: TagSwitchReturn, call: c}, true
		}
	case *Assign:
		if c, ok := s.RHS.(*Call); ok && s.Op == OpNone {
			return armCall{form: TagSwitchAssign, call: c, lhs: PrintExpr(s.LHS)}, true
		}
	case *ExprStmt:
		if c, ok := s.X.(*Call); ok && c.T.IsVoid() {
			return armCall{form: TagSwitchCall, call: c}, true
		}
	}
	return armCall{}, false
}

func recognizeTagSwitch(m *Module, s *Switch) *TagSwitch {
	if t := s.Selector.Type(); t == nil || (t.Kind != KindI32 && t.Kind != KindU32) {
		return nil
	}
	d := &TagSwitch{Switch: s, Tag: s.Selector, Candidates: map[uint32]string{}}
	var first *armCall
	var firstFn *Func
	used := map[string]bool{}
	arms := 0
	for _, cs := range s.Cases {
		if cs.Default && len(cs.Values) == 0 && len(cs.Body.Stmts) == 0 {
			continue // an empty default arm: no candidate
		}
		a, ok := tagSwitchArm(cs.Body)
		if !ok || used[a.call.Func] {
			return nil
		}
		fn := m.Func(a.call.Func)
		if fn == nil {
			return nil
		}
		if first == nil {
			first, firstFn = &a, fn
		} else if a.form != first.form || a.lhs != first.lhs || !sameSignature(fn, firstFn) || !sameArgs(a.call.Args, first.call.Args) {
			return nil
		}
		used[a.call.Func] = true
		arms++
		for _, v := range cs.Values {
			d.Candidates[v.Bits] = a.call.Func
		}
		if cs.Default {
			d.Default = a.call.Func
		}
	}
	if arms < 2 {
		return nil
	}
	d.Form = first.form
	return d
}

func sameSignature(a, b *Func) bool {
	if !Identical(a.Result, b.Result) || len(a.Params) != len(b.Params) {
		return false
	}
	for i := range a.Params {
		if !Identical(a.Params[i].T, b.Params[i].T) {
			return false
		}
	}
	return true
}

func sameArgs(a, b []Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if PrintExpr(a[i]) != PrintExpr(b[i]) {
			return false
		}
	}
	return true
}
