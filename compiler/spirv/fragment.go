package spirv

import (
	"github.com/gpudiff/gpudiff/ir"
)

// emitFragment emits the fragment entry point ep of m as written
// (ARCHITECTURE.md "Entry points as written (fragment)"): ep and the
// functions it calls as ordinary functions (ep takes its position as a
// parameter and returns its outputs), the private globals they use, and
// an OpEntryPoint Fragment named ep.Name whose function loads FragCoord
// (an Input BuiltIn, the pixel centre with OriginUpperLeft, Vulkan's only
// origin), calls ep and stores its result, or each member of a struct
// result, to an Output variable decorated with its Location. The
// interface lists FragCoord (when ep takes the position) and the outputs.
func emitFragment(m *ir.Module, ep *ir.Func, opts Options, w workarounds) ([]uint32, error) {
	e := newEmitter(m, opts, w)
	e.derivatives = true
	e.header()
	fns := m.CallGraph(ep.Name)
	for _, fn := range fns {
		e.declareFunc(fn)
	}
	for _, g := range m.GlobalsUsed(ep.Name) {
		e.declareGlobal(g)
	}
	e.declareTextures(m, ep)
	for _, fn := range fns {
		e.function(fn)
	}
	e.fragmentEntry(ep)
	if len(e.errs) > 0 {
		e.errs.Sort()
		return nil, e.errs
	}
	return e.b.words(), nil
}

// fragmentEntry emits the Fragment entry point function of ep (see
// emitFragment).
func (e *emitter) fragmentEntry(ep *ir.Func) {
	b := e.b
	var iface []uint32
	fcType := e.typeOf(ir.Vec(4, ir.F32))
	fragCoord := uint32(0)
	if len(ep.Params) > 0 {
		fragCoord = b.variable(b.typePointer(storageClassInput, fcType), storageClassInput, 0)
		b.name(fragCoord, "fragcoord")
		b.decorate(fragCoord, decorationBuiltIn, builtInFragCoord)
		iface = append(iface, fragCoord)
	}
	type output struct {
		v      uint32
		member int
		t      *ir.Type
	}
	var outs []output
	addOut := func(t *ir.Type, loc, member int, name string) {
		v := b.variable(b.typePointer(storageClassOutput, e.typeOf(t)), storageClassOutput, 0)
		b.name(v, name)
		b.decorate(v, decorationLocation, uint32(loc))
		outs = append(outs, output{v, member, t})
		iface = append(iface, v)
	}
	switch {
	case ep.Result.Kind == ir.KindStruct:
		for i, fl := range ep.Result.Struct.Fields {
			addOut(fl.Type, fl.Location, i, "out_"+fl.Name)
		}
	case !ep.Result.IsVoid():
		addOut(ep.Result, ep.ResultLocation, -1, "out")
	}

	main := b.id()
	f := e.newFn(ir.Void)
	var header []uint32
	emit(&header, opFunction, b.typeVoid(), main, functionControlNone, b.typeFunction(b.typeVoid()))
	entry := b.id()
	f.cur = entry
	for _, g := range e.inits {
		f.store(e.globals[g.Name], f.expr(g.Init))
	}
	fi := e.funcs[ep.Name]
	call := []uint32{fi.id}
	for range ep.Params {
		call = append(call, f.op(opLoad, fcType, fragCoord))
	}
	result := f.op(opFunctionCall, fi.result, call...)
	for _, o := range outs {
		v := result
		if o.member >= 0 {
			v = f.op(opCompositeExtract, e.typeOf(o.t), result, uint32(o.member))
		}
		f.store(o.v, v)
	}
	f.terminate(opReturn)
	f.finish(header, entry)
	emit(&b.entryPoints, opEntryPoint, append(append([]uint32{executionModelFragment, main}, stringWords(ep.Name)...), iface...)...)
	emit(&b.execModes, opExecutionMode, main, executionModeOriginUpperLeft)
}
