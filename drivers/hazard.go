package drivers

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/check"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// Hazard is one operation of a kernel whose raw-mode SPIR-V instruction
// SPIR-V leaves undefined for the operands some invocations give it
// (check.Hazard, the fact check.AttributeRow reads).
type Hazard = check.Hazard

// hazardSite is one instrumented operation: the probe function replacing
// it reports, per invocation, a bit mask of the domains reached.
type hazardSite struct {
	pos     ir.Pos
	ops     [2]string // instruction per domain bit (bit 0, bit 1)
	domains [2]string
	// text is the probe function's WGSL (name gpudiff_hzf<k>) and its
	// flag global (gpudiff_hz<k>).
	text string
}

// FindHazards reports which invocations of fn (a function of m, e.g. a
// kernel or its flattened twin) make gpudiff's raw SPIR-V execute an
// instruction in a domain SPIR-V leaves undefined:
//
//   - OpSDiv, OpSRem: a zero divisor, or INT_MIN and -1 (signed overflow);
//     OpUDiv, OpUMod: a zero divisor;
//   - OpShiftLeftLogical, OpShiftRightArithmetic, OpShiftRightLogical: a
//     shift count ≥ 32, the bit width;
//   - OpConvertFToS, OpConvertFToU: a value that, truncated, is not
//     representable in the integer type;
//   - GLSL.std.450 SClamp, UClamp, FClamp: minVal > maxVal;
//   - OpBitFieldSExtract, OpBitFieldUExtract, OpBitFieldInsert: Offset +
//     Count greater than 32.
//
// It is dynamic: the interpreter runs an instrumented copy of the module in
// which each such operation calls a probe that records the domain its
// operands reach and then computes the operation as WGSL defines it, so
// only operations an invocation actually executes, on the values it
// actually computes, count. A hazard is kept only when gpudiff's raw SPIR-V
// of fn (spirv.Emit, Raw) does contain its instruction: the claim is about
// the SPIR-V gpudiff emits, checked, not assumed.
//
// Operations whose operands have side effects that a probe would repeat (a
// compound assignment whose left side contains a call) are not probed.
// The instrumented module is never run anywhere but in the interpreter.
func FindHazards(m *ir.Module, fn string, args [][]ir.Value) ([]Hazard, error) {
	if m.Func(fn) == nil {
		return nil, fmt.Errorf("hazards: no function %q", fn)
	}
	words, err := spirv.Emit(m, fn, spirv.Options{Mode: spirv.Raw})
	if err != nil {
		return nil, fmt.Errorf("hazards: raw SPIR-V: %w", err)
	}
	asm, err := spirv.Disassemble(words)
	if err != nil {
		return nil, fmt.Errorf("hazards: disassembling raw SPIR-V: %w", err)
	}
	present := map[string]bool{}
	for _, op := range spirvOpRE.FindAllString(asm, -1) {
		present[op] = true
	}

	probe := ir.CloneModule(m)
	var sites []hazardSite
	for _, f := range probe.Funcs {
		instrument(f, &sites)
	}
	if len(sites) == 0 {
		return nil, nil
	}
	var src strings.Builder
	src.WriteString(ir.Print(probe))
	for _, s := range sites {
		src.WriteString("\n")
		src.WriteString(s.text)
	}
	pm, err := wgsl.Parse("hazard-probe.wgsl", []byte(src.String()))
	if err != nil {
		return nil, fmt.Errorf("hazards: instrumented module: %w", err)
	}
	abi, err := ir.NewKernelABI(pm, fn)
	if err != nil {
		return nil, fmt.Errorf("hazards: %w", err)
	}
	invs, err := interp.Run(pm, fn, args, interp.Options{})
	if err != nil {
		return nil, fmt.Errorf("hazards: interpreter: %w", err)
	}
	byName := map[string]int{}
	for j, o := range abi.Outputs {
		byName[o.Name] = j
	}
	var out []Hazard
	for k, s := range sites {
		j, ok := byName[fmt.Sprintf("gpudiff_hz%d", k)]
		if !ok {
			continue // the site is in a function fn never calls
		}
		for bit := 0; bit < 2; bit++ {
			if s.ops[bit] == "" || !present[s.ops[bit]] {
				continue
			}
			h := Hazard{Op: s.ops[bit], Domain: s.domains[bit], Pos: s.pos}
			for i, inv := range invs {
				if inv.Err == nil && inv.Outputs[j].Value.Bits&(1<<bit) != 0 {
					h.Invocations = append(h.Invocations, i)
				}
			}
			if len(h.Invocations) > 0 {
				out = append(out, h)
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Pos.Line != out[b].Pos.Line {
			return out[a].Pos.Line < out[b].Pos.Line
		}
		return out[a].Pos.Col < out[b].Pos.Col
	})
	return out, nil
}

// spirvOpRE finds instruction names in a disassembly: core opcodes and the
// GLSL.std.450 extended instructions FindHazards cares about.
var spirvOpRE = regexp.MustCompile(`\bOp[A-Za-z0-9]+\b|\b[SUF]Clamp\b`)

// instrument replaces each hazardous operation in f by a call of a new
// probe (appending its site), innermost first.
func instrument(f *ir.Func, sites *[]hazardSite) {
	var edit func(n ir.Node) ir.Node
	edit = func(n ir.Node) ir.Node {
		ir.EditChildren(n, edit)
		switch x := n.(type) {
		case *ir.Binary:
			if s, ok := binarySite(x, len(*sites)); ok {
				*sites = append(*sites, s)
				return probeCall(x.Pos, len(*sites)-1, x.T, x.X, x.Y)
			}
		case *ir.Convert:
			if s, ok := convertSite(x, len(*sites)); ok {
				*sites = append(*sites, s)
				return probeCall(x.Pos, len(*sites)-1, x.T, x.X)
			}
		case *ir.BuiltinCall:
			if s, ok := builtinSite(x, len(*sites)); ok {
				*sites = append(*sites, s)
				return probeCall(x.Pos, len(*sites)-1, x.T, x.Args...)
			}
		case *ir.Assign:
			if x.Op == ir.OpNone || ir.HasCall(x.LHS) {
				break
			}
			lt := x.LHS.Type()
			b := &ir.Binary{Pos: x.Pos, Op: x.Op, X: ir.CloneExpr(x.LHS), Y: x.RHS, T: lt}
			if s, ok := binarySite(b, len(*sites)); ok {
				*sites = append(*sites, s)
				return &ir.Assign{Pos: x.Pos, LHS: x.LHS, RHS: probeCall(x.Pos, len(*sites)-1, lt, b.X, b.Y)}
			}
		}
		return n
	}
	ir.EditChildren(f, edit)
}

func probeCall(pos ir.Pos, k int, t *ir.Type, args ...ir.Expr) ir.Expr {
	return &ir.Call{Pos: pos, Func: fmt.Sprintf("gpudiff_hzf%d", k), Args: args, T: t}
}

// lane is operand p's component j as WGSL text (p itself for a scalar).
func lane(p string, t *ir.Type, j int) string {
	if t.Kind == ir.KindVec {
		return fmt.Sprintf("%s[%d]", p, j)
	}
	return p
}

func lanes(ts ...*ir.Type) int {
	n := 1
	for _, t := range ts {
		if t.Kind == ir.KindVec {
			n = t.Len
		}
	}
	return n
}

// probeText writes the probe function k: parameters p0.. of types ts,
// result rt, body: for each lane, set bit 0 of the flag where cond0 holds
// and bit 1 where cond1 holds, then return expr.
func probeText(k int, ts []*ir.Type, rt *ir.Type, cond [2]func(j int) string, expr string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "var<private> gpudiff_hz%d: u32;\n", k)
	fmt.Fprintf(&b, "fn gpudiff_hzf%d(", k)
	for i, t := range ts {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "p%d: %s", i, t)
	}
	fmt.Fprintf(&b, ") -> %s {\n", rt)
	n := lanes(ts...)
	for bit, c := range cond {
		if c == nil {
			continue
		}
		for j := 0; j < n; j++ {
			fmt.Fprintf(&b, "  gpudiff_hz%d = gpudiff_hz%d | select(0u, %du, %s);\n", k, k, 1<<bit, c(j))
		}
	}
	fmt.Fprintf(&b, "  return %s;\n}\n", expr)
	return b.String()
}

const intMinText = "(-2147483647i - 1i)"

func binarySite(x *ir.Binary, k int) (hazardSite, bool) {
	xt, yt := x.X.Type(), x.Y.Type()
	sk := xt.Scalar().Kind
	if sk != ir.KindI32 && sk != ir.KindU32 {
		return hazardSite{}, false
	}
	ts := []*ir.Type{xt, yt}
	s := hazardSite{pos: x.Pos}
	var cond [2]func(int) string
	var sym string
	switch x.Op {
	case ir.OpDiv, ir.OpRem:
		sym = map[ir.BinaryOp]string{ir.OpDiv: "/", ir.OpRem: "%"}[x.Op]
		zero := "0u"
		if sk == ir.KindI32 {
			zero = "0i"
		}
		cond[0] = func(j int) string { return fmt.Sprintf("%s == %s", lane("p1", yt, j), zero) }
		s.domains[0] = "a zero divisor"
		switch {
		case x.Op == ir.OpDiv && sk == ir.KindI32:
			s.ops = [2]string{"OpSDiv", "OpSDiv"}
		case x.Op == ir.OpDiv:
			s.ops[0] = "OpUDiv"
		case sk == ir.KindI32:
			s.ops = [2]string{"OpSRem", "OpSRem"}
		default:
			s.ops[0] = "OpUMod"
		}
		if sk == ir.KindI32 {
			cond[1] = func(j int) string {
				return fmt.Sprintf("%s == %s && %s == -1i", lane("p0", xt, j), intMinText, lane("p1", yt, j))
			}
			s.domains[1] = "INT_MIN and -1 (signed overflow)"
		}
	case ir.OpShl, ir.OpShr:
		sym = map[ir.BinaryOp]string{ir.OpShl: "<<", ir.OpShr: ">>"}[x.Op]
		cond[0] = func(j int) string { return fmt.Sprintf("%s >= 32u", lane("p1", yt, j)) }
		s.domains[0] = "a shift count ≥ 32"
		switch {
		case x.Op == ir.OpShl:
			s.ops[0] = "OpShiftLeftLogical"
		case sk == ir.KindI32:
			s.ops[0] = "OpShiftRightArithmetic"
		default:
			s.ops[0] = "OpShiftRightLogical"
		}
	default:
		return hazardSite{}, false
	}
	s.text = probeText(k, ts, x.T, cond, "p0 "+sym+" p1")
	return s, true
}

func convertSite(x *ir.Convert, k int) (hazardSite, bool) {
	from := x.X.Type()
	to := x.T.Scalar().Kind
	if from.Scalar().Kind != ir.KindF32 || (to != ir.KindI32 && to != ir.KindU32) {
		return hazardSite{}, false
	}
	s := hazardSite{pos: x.Pos, domains: [2]string{"a value out of the integer type's range"}}
	var cond [2]func(int) string
	if to == ir.KindI32 {
		s.ops[0] = "OpConvertFToS"
		cond[0] = func(j int) string {
			v := lane("p0", from, j)
			return fmt.Sprintf("!(%s >= -2147483648.0f && %s < 2147483648.0f)", v, v)
		}
	} else {
		s.ops[0] = "OpConvertFToU"
		cond[0] = func(j int) string {
			v := lane("p0", from, j)
			return fmt.Sprintf("!(%s > -1.0f && %s < 4294967296.0f)", v, v)
		}
	}
	s.text = probeText(k, []*ir.Type{from}, x.T, cond, fmt.Sprintf("%s(p0)", x.T))
	return s, true
}

func builtinSite(x *ir.BuiltinCall, k int) (hazardSite, bool) {
	var ts []*ir.Type
	for _, a := range x.Args {
		ts = append(ts, a.Type())
	}
	s := hazardSite{pos: x.Pos}
	var cond [2]func(int) string
	var call string
	switch x.Fn {
	case ir.BClamp:
		switch x.T.Scalar().Kind {
		case ir.KindI32:
			s.ops[0] = "SClamp"
		case ir.KindU32:
			s.ops[0] = "UClamp"
		case ir.KindF32:
			s.ops[0] = "FClamp"
		default:
			return hazardSite{}, false
		}
		s.domains[0] = "minVal > maxVal"
		cond[0] = func(j int) string { return fmt.Sprintf("%s > %s", lane("p1", ts[1], j), lane("p2", ts[2], j)) }
		call = "clamp(p0, p1, p2)"
	case ir.BExtractBits, ir.BInsertBits:
		o, c := 1, 2
		call = "extractBits(p0, p1, p2)"
		s.ops[0] = "OpBitFieldUExtract"
		if x.T.Scalar().Kind == ir.KindI32 {
			s.ops[0] = "OpBitFieldSExtract"
		}
		if x.Fn == ir.BInsertBits {
			o, c = 2, 3
			call = "insertBits(p0, p1, p2, p3)"
			s.ops[0] = "OpBitFieldInsert"
		}
		s.domains[0] = "Offset + Count > 32"
		cond[0] = func(int) string {
			return fmt.Sprintf("p%d > 32u || p%d > 32u || p%d + p%d > 32u", o, c, o, c)
		}
	default:
		return hazardSite{}, false
	}
	s.text = probeText(k, ts, x.T, cond, call)
	return s, true
}
