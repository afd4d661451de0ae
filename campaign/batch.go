package campaign

import (
	"fmt"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/ir"
)

// Batching several programs into one shader module.
//
// A GPU stack pays a fixed cost per shader module and pipeline (lavapipe
// runs LLVM once per pipeline, at its first dispatch; SwiftShader at
// pipeline creation), so a campaign checks a few programs per module: a
// batch module holds the call graphs of every function of its programs
// (originals and twins), renamed apart, and one kernel, gpudiff_batch,
// that switches on a per-invocation selector and calls the function the
// selector names:
//
//	fn gpudiff_batch(sel: u32, b0_p0: i32, …, b1_p0: vec2<f32>, …) -> gpudiff_BatchResult {
//	  var r: gpudiff_BatchResult;
//	  switch (sel) {
//	    case 0u: { r.r0 = kernel_b0(b0_p0, …); }
//	    case 1u: { r.r1 = kernel_flat_b0(b0_p0, …); }
//	    case 2u: { kernel_b1(b1_p0, …); }        // a void kernel
//	    …
//	    default: {}
//	  }
//	  return r;
//	}
//
// The batch kernel is an ordinary kernel of the kernel ABI, so the WGSL and
// SPIR-V emitters serve it unchanged, in either mode, and every private
// global of every program is an output. Each function's invocations get
// their own workgroups (records 64·v … 64·v+n-1 for variant v; the padding
// records select nothing), so invocation i of a function runs in lane i of
// a workgroup that runs nothing else, as in its own dispatch.
//
// The batch is a way to run the same functions, not a different test:
// the campaign takes a batched run only when it agrees with the reference.
// A batch the stack rejects, crashes on or times out on is run again one
// module per function, and a program with any finding is executed again
// unbatched (Execute), so verdicts, messages and saved cases are those of
// the unbatched path.

// batchProgram is one program of a batch: its module (with the twin, when
// flattened), the functions to run (the kernel first) and its encoded
// inputs.
type batchProgram struct {
	mod   *ir.Module
	funcs []string
	abi   *ir.KernelABI // the kernel's ABI (inputs are shared by its twin)
	in    []byte        // abi.EncodeInputs of the arguments
	n     int           // invocations
	label string        // dispatch label prefix ("p5/")
}

// batchVariant is one function of one program of a batch.
type batchVariant struct {
	prog int    // index of the program in the batch
	fn   string // the function's name in the program's module
	abi  *ir.KernelABI
	// ret is the index of the function's result in gpudiff_BatchResult
	// (-1 for a void function).
	ret  int
	base int // first record of the function's invocations
}

// batchModule is a built batch: the module, its kernel and ABI, and how
// to find each function's invocations in the buffers.
type batchModule struct {
	mod      *ir.Module
	kernel   string
	abi      *ir.KernelABI
	variants []batchVariant
	globals  []map[string]string // per program: global name → name in the batch
	records  int                 // invocation records in the dispatch
	in       []byte              // the input buffer
	labels   []string            // per variant: the label its own dispatch would have, without the format
}

// batchKernel is the name of the batch module's kernel.
const batchKernel = "gpudiff_batch"

// programOf is the batch program of a prepared case: check's accessors
// give everything a batch needs (the module with the twin, the functions,
// the kernel's ABI, the encoded inputs).
func programOf(x *check.Execution) batchProgram {
	return batchProgram{mod: x.Module(), funcs: x.Functions(), abi: x.ABI(0), in: x.Inputs(), n: x.Invocations(), label: x.Label()}
}

// buildBatch builds the batch module of progs. It fails (and the programs
// are then run one module per function) when a program cannot take part:
// opaque declarations, functions whose parameters differ from the
// kernel's, or a module that does not verify once merged.
func buildBatch(progs []batchProgram) (*batchModule, error) {
	namer := ir.NewNamer(nil)
	for _, p := range progs {
		if len(p.mod.Opaque) > 0 {
			return nil, fmt.Errorf("batch: module has opaque declarations")
		}
		for _, s := range p.mod.Structs {
			namer.Reserve(s.Name)
		}
		for _, g := range p.mod.Globals {
			namer.Reserve(g.Name)
		}
		for _, f := range p.mod.Funcs {
			namer.ReserveFunc(f)
		}
	}
	out := &ir.Module{File: "gpudiff-batch"}
	bm := &batchModule{mod: out, kernel: namer.Fresh(batchKernel)}
	var calls []callee
	var resultFields []ir.Field
	kparams := []*ir.Param{{Name: namer.Fresh("sel"), T: ir.U32}}
	for j, p := range progs {
		r := newRenamer(namer, j)
		var used []*ir.Func
		seen := map[string]bool{}
		for _, fn := range p.funcs {
			for _, f := range p.mod.CallGraph(fn) {
				if !seen[f.Name] {
					seen[f.Name] = true
					used = append(used, f)
				}
			}
		}
		kernel := p.mod.Func(p.funcs[0])
		var params []*ir.Param
		for _, prm := range kernel.Params {
			np := &ir.Param{Name: namer.Fresh(fmt.Sprintf("b%d_%s", j, prm.Name)), T: r.typ(prm.T)}
			params = append(params, np)
			kparams = append(kparams, np)
		}
		globals := map[string]string{}
		for _, fn := range p.funcs {
			for _, g := range p.mod.GlobalsUsed(fn) {
				globals[g.Name] = r.global(g.Name)
			}
		}
		// Structs in module order (a struct's fields only name earlier ones).
		for _, s := range p.mod.Structs {
			out.Structs = append(out.Structs, r.structDecl(s))
		}
		for _, g := range p.mod.Globals {
			if _, ok := globals[g.Name]; !ok {
				continue
			}
			ng := &ir.Global{Pos: g.Pos, Name: globals[g.Name], T: r.typ(g.T), Init: ir.CloneExpr(g.Init)}
			if ng.Init != nil {
				r.node(ng.Init)
			}
			out.Globals = append(out.Globals, ng)
		}
		for _, f := range used {
			g := ir.CloneFunc(f)
			g.Name = r.fn(f.Name)
			for _, prm := range g.Params {
				prm.T = r.typ(prm.T)
			}
			g.Result = r.typ(g.Result)
			r.node(g.Body)
			out.Funcs = append(out.Funcs, g)
		}
		bm.globals = append(bm.globals, globals)
		for _, fn := range p.funcs {
			f := p.mod.Func(fn)
			if len(f.Params) != len(kernel.Params) {
				return nil, fmt.Errorf("batch: %s and %s have different parameters", fn, kernel.Name)
			}
			for k, prm := range f.Params {
				if !ir.Identical(prm.T, kernel.Params[k].T) {
					return nil, fmt.Errorf("batch: %s and %s have different parameters", fn, kernel.Name)
				}
			}
			abi, err := ir.NewKernelABI(p.mod, fn)
			if err != nil {
				return nil, err
			}
			v := batchVariant{prog: j, fn: fn, abi: abi, ret: -1}
			if !f.Result.IsVoid() {
				v.ret = len(resultFields)
				resultFields = append(resultFields, ir.Field{Name: fmt.Sprintf("r%d", len(bm.variants)), Type: r.typ(f.Result)})
			}
			bm.variants = append(bm.variants, v)
			calls = append(calls, callee{name: r.fn(fn), params: params, result: r.typ(f.Result)})
			bm.labels = append(bm.labels, p.label+fn)
		}
	}

	out.Funcs = append(out.Funcs, bm.kernelFunc(namer, kparams, calls, resultFields))
	if err := ir.Verify(out); err != nil {
		return nil, fmt.Errorf("batch: merged module does not verify: %w", err)
	}
	abi, err := ir.NewKernelABI(out, bm.kernel)
	if err != nil {
		return nil, err
	}
	bm.abi = abi

	bm.encodeInputs(progs)
	return bm, nil
}

// callee is one function the batch kernel calls: its name in the batch,
// the batch kernel's parameters passed to it, and its result type.
type callee struct {
	name   string
	params []*ir.Param
	result *ir.Type
}

// kernelFunc builds the batch kernel: it declares the result struct
// (resultFields, one per non-void variant) in bm.mod and switches on the
// selector, kparams[0], calling calls[v] for variant v.
func (bm *batchModule) kernelFunc(namer *ir.Namer, kparams []*ir.Param, calls []callee, resultFields []ir.Field) *ir.Func {
	out := bm.mod
	k := &ir.Func{Name: bm.kernel, Params: kparams, Result: ir.Void, Body: &ir.Block{}}
	res := func() *ir.Ident { return nil }
	if len(resultFields) > 0 {
		sd := &ir.StructDecl{Name: namer.Fresh("gpudiff_BatchResult"), Fields: resultFields}
		out.Structs = append(out.Structs, sd)
		k.Result = ir.StructType(sd)
		name := namer.Fresh("r")
		res = func() *ir.Ident { return &ir.Ident{Name: name, T: k.Result, Ref: ir.RefVar} }
		k.Body.Stmts = append(k.Body.Stmts, &ir.Decl{Name: name, T: k.Result, Mutable: true})
	}
	sw := &ir.Switch{Selector: &ir.Ident{Name: kparams[0].Name, T: ir.U32, Ref: ir.RefParam}}
	for v, c := range calls {
		args := make([]ir.Expr, len(c.params))
		for i, prm := range c.params {
			args[i] = &ir.Ident{Name: prm.Name, T: prm.T, Ref: ir.RefParam}
		}
		call := &ir.Call{Func: c.name, Args: args, T: c.result}
		var s ir.Stmt = &ir.ExprStmt{X: call}
		if r := bm.variants[v].ret; r >= 0 {
			s = &ir.Assign{LHS: &ir.Member{X: res(), Field: r, T: c.result}, Op: ir.OpNone, RHS: call}
		}
		sw.Cases = append(sw.Cases, &ir.Case{Values: []ir.Value{ir.U32Val(uint32(v))}, Body: &ir.Block{Stmts: []ir.Stmt{s}}})
	}
	sw.Cases = append(sw.Cases, &ir.Case{Default: true, Body: &ir.Block{}})
	k.Body.Stmts = append(k.Body.Stmts, sw)
	if r := res(); r != nil {
		k.Body.Stmts = append(k.Body.Stmts, &ir.Return{Value: r})
	}
	return k
}

// encodeInputs lays out the batch's input buffer: each function's
// invocations from a workgroup boundary, the padding records selecting
// nothing, and every record holding its program's arguments.
func (bm *batchModule) encodeInputs(progs []batchProgram) {
	abi := bm.abi
	// Inputs: each function's invocations from a workgroup boundary.
	base := 0
	for v := range bm.variants {
		bm.variants[v].base = base
		base += roundUp(progs[bm.variants[v].prog].n, ir.WorkgroupSize)
	}
	bm.records = base
	bm.in = make([]byte, bm.records*abi.InputStride)
	for i := 0; i < bm.records; i++ {
		put32(bm.in[i*abi.InputStride+abi.Inputs[0].Offset:], ^uint32(0)) // padding selects nothing
	}
	field := 1 // abi.Inputs[0] is sel
	first := make([]int, len(progs))
	for j, p := range progs {
		first[j] = field
		field += len(p.abi.Inputs)
	}
	for v, bv := range bm.variants {
		p := progs[bv.prog]
		for i := 0; i < p.n; i++ {
			rec := bm.in[(bv.base+i)*abi.InputStride:]
			put32(rec[abi.Inputs[0].Offset:], uint32(v))
			src := p.in[i*p.abi.InputStride:]
			for k, f := range p.abi.Inputs {
				copy(rec[abi.Inputs[first[bv.prog]+k].Offset:], src[f.Offset:f.Offset+ir.SizeOf(f.T)])
			}
		}
	}
}

// outputs extracts variant v's output records from the batch's output
// buffer, laid out as the function's own dispatch lays them out, so that
// its ABI decodes them exactly as it decodes a dispatch of its own.
func (bm *batchModule) outputs(v int, buf []byte, n int) []byte {
	bv := bm.variants[v]
	out := make([]byte, n*bv.abi.OutputStride)
	var retOff []int
	if bv.ret >= 0 {
		retOff = ir.FieldOffsets(bm.abi.Result.Struct)
	}
	offsetOf := func(f ir.ABIField) int {
		name := "ret"
		if f.Global {
			name = bm.globals[bv.prog][f.Name]
		}
		for _, m := range bm.abi.Outputs {
			if m.Name == name {
				if !f.Global {
					return m.Offset + retOff[bv.ret]
				}
				return m.Offset
			}
		}
		panic("batch: output " + f.Name + " missing from the batch ABI") // buildBatch made every one
	}
	for _, f := range bv.abi.Outputs {
		off, size := offsetOf(f), ir.SizeOf(f.T)
		for i := 0; i < n; i++ {
			src := buf[(bv.base+i)*bm.abi.OutputStride+off:]
			copy(out[i*bv.abi.OutputStride+f.Offset:], src[:size])
		}
	}
	return out
}

func roundUp(n, a int) int { return (n + a - 1) / a * a }

func put32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// renamer renames one program's module-scope names apart from the other
// programs' of a batch, rewriting every reference and every type.
type renamer struct {
	namer   *ir.Namer
	suffix  string
	fns     map[string]string
	globals map[string]string
	structs map[*ir.StructDecl]*ir.StructDecl
	byName  map[string]*ir.StructDecl // original struct name → renamed declaration
	types   map[*ir.Type]*ir.Type
}

func newRenamer(n *ir.Namer, j int) *renamer {
	return &renamer{namer: n, suffix: fmt.Sprintf("_b%d", j), fns: map[string]string{}, globals: map[string]string{},
		structs: map[*ir.StructDecl]*ir.StructDecl{}, byName: map[string]*ir.StructDecl{}, types: map[*ir.Type]*ir.Type{}}
}

func (r *renamer) fn(name string) string {
	if n, ok := r.fns[name]; ok {
		return n
	}
	n := r.namer.Fresh(name + r.suffix)
	r.fns[name] = n
	return n
}

func (r *renamer) global(name string) string {
	if n, ok := r.globals[name]; ok {
		return n
	}
	n := r.namer.Fresh(name + r.suffix)
	r.globals[name] = n
	return n
}

func (r *renamer) structDecl(s *ir.StructDecl) *ir.StructDecl {
	if n, ok := r.structs[s]; ok {
		return n
	}
	if n, ok := r.byName[s.Name]; ok {
		r.structs[s] = n
		return n
	}
	n := &ir.StructDecl{Pos: s.Pos, Name: r.namer.Fresh(s.Name + r.suffix)}
	r.structs[s], r.byName[s.Name] = n, n
	for _, f := range s.Fields {
		n.Fields = append(n.Fields, ir.Field{Pos: f.Pos, Name: f.Name, Type: r.typ(f.Type)})
	}
	return n
}

// typ returns t with every struct renamed.
func (r *renamer) typ(t *ir.Type) *ir.Type {
	if t == nil {
		return nil
	}
	if n, ok := r.types[t]; ok {
		return n
	}
	n := t
	switch t.Kind {
	case ir.KindVec, ir.KindArray:
		if e := r.typ(t.Elem); e != t.Elem {
			c := *t
			c.Elem = e
			n = &c
		}
	case ir.KindStruct:
		n = ir.StructType(r.structDecl(t.Struct))
	}
	r.types[t] = n
	return n
}

func (r *renamer) value(v ir.Value) ir.Value {
	v.Type = r.typ(v.Type)
	if v.Elems != nil {
		es := make([]ir.Value, len(v.Elems))
		for i, e := range v.Elems {
			es[i] = r.value(e)
		}
		v.Elems = es
	}
	return v
}

// node rewrites, in place, the names and types of everything under n (a
// clone: ir.CloneFunc and ir.CloneExpr copy the nodes).
func (r *renamer) node(n ir.Node) {
	ir.Inspect(n, func(x ir.Node) bool {
		switch x := x.(type) {
		case *ir.Lit:
			x.Val = r.value(x.Val)
		case *ir.Ident:
			x.T = r.typ(x.T)
			if x.Ref == ir.RefGlobal {
				x.Name = r.global(x.Name)
			}
		case *ir.Unary:
			x.T = r.typ(x.T)
		case *ir.Binary:
			x.T = r.typ(x.T)
		case *ir.Select:
			x.T = r.typ(x.T)
		case *ir.Call:
			x.T = r.typ(x.T)
			x.Func = r.fn(x.Func)
		case *ir.BuiltinCall:
			x.T = r.typ(x.T)
		case *ir.Construct:
			x.T = r.typ(x.T)
		case *ir.Convert:
			x.T = r.typ(x.T)
		case *ir.Bitcast:
			x.T = r.typ(x.T)
		case *ir.Index:
			x.T = r.typ(x.T)
		case *ir.Member:
			x.T = r.typ(x.T)
		case *ir.Swizzle:
			x.T = r.typ(x.T)
		case *ir.Decl:
			x.T = r.typ(x.T)
		}
		return true
	})
}
