package spirv

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// matCx2 in var<uniform> (Tint's Std140 transform,
// src/tint/lang/core/ir/transform/std140.cc).
//
// WGSL lays out matCx2<f32> with an 8-byte column stride in every address
// space (#alignment-and-size: AlignOf = 8, column stride 8). Vulkan's
// extended layout, the one a Uniform-class Block follows without
// uniformBufferStandardLayout (Vulkan §15.6.4 "Offset and Stride
// Assignment"), gives a matrix the extended alignment of an array of its
// columns — rounded up to 16 — and MatrixStride must be a multiple of it,
// so no matrix decoration can describe those bytes. As Tint does, the
// Uniform-class mirror of a type (uniformType) therefore holds every
// matCx2 as C vec2 columns at the matrix's WGSL offsets:
//
//   - a matCx2 member of a struct (or the whole binding: the Block's
//     members) becomes C consecutive vec2 members at off, off+8, …;
//   - a matCx2 array element becomes a struct matCx2_std140 of C vec2
//     members at 0, 8, … (a struct's extended alignment is 16, and WGSL's
//     uniform constraint makes the array's stride a multiple of 16);
//   - a struct or array containing either is a new type (S_std140), other
//     types keep their storage mirror (abiType).
//
// The vec2 members need only an 8-byte alignment, so the same bytes are
// valid under the extended layout. A load through such a binding
// (uniformLoad) remaps the access chain's member indices; where the chain
// reaches a matrix it loads its C columns and rebuilds the matrix, except
// that a constant column index loads only that column's member (Tint
// folds it the same way); a dynamic column index, and any index after it,
// applies to the rebuilt value. Loading an aggregate holding such a matrix
// rebuilds it member by member (fromUniform). Uniform bindings are never
// stored to, so there is no way back. matCx3 and matCx4 keep their
// 16-byte MatrixStride and are not split (Tint also splits matCx3, for a
// Qualcomm driver bug, crbug.com/tint/2074; Vulkan does not require it).

// isMatCx2 reports whether t is a matrix that a Uniform block holds split
// into its columns: one whose WGSL column stride (ir.ArrayStride: the
// MatrixStride it would have) is not a multiple of 16 — matCx2<f32>
// (8) and every f16 matrix (matCx2<f16> 4, matCx3<f16> and matCx4<f16>
// 8; f16.go). The name is the f32 case's, the only one before f16.
func isMatCx2(t *ir.Type) bool { return t.Kind == ir.KindMat && ir.ArrayStride(t)%16 != 0 }

// colStride is the byte distance between the columns of the matrix t
// (WGSL #alignment-and-size: roundUp(AlignOf(vecR), SizeOf(vecR))).
func colStride(t *ir.Type) int { return ir.ArrayStride(t) }

// uniformMembers lays out the members of a Uniform-class struct with the
// given fields (at WGSL offsets offs): a matCx2 field becomes Cols vec2
// members 8 bytes apart. It returns the members' types, Offsets and names,
// and first[i], the index of field i's (first) member.
func (e *emitter) uniformMembers(fields []ir.Field, offs []int) (types []uint32, moffs []int, names []string, first []int) {
	first = make([]int, len(fields))
	for i, fd := range fields {
		first[i] = len(types)
		if isMatCx2(fd.Type) {
			col := e.typeOf(fd.Type.Elem)
			for j := 0; j < fd.Type.Len; j++ {
				types = append(types, col)
				moffs = append(moffs, offs[i]+colStride(fd.Type)*j)
				names = append(names, fmt.Sprintf("%s_%d", fd.Name, j))
			}
			continue
		}
		types = append(types, e.uniformType(fd.Type))
		moffs = append(moffs, offs[i])
		names = append(names, fd.Name)
	}
	return types, moffs, names, first
}

// uniformType returns the Uniform-class mirror of t: abiType(t) when t
// holds no matCx2, else t rebuilt with its matrices split into columns
// (see the comment above). A bare matCx2 (an array element) is its
// matCx2_std140 struct.
func (e *emitter) uniformType(t *ir.Type) uint32 {
	if !hasMatCx2(t) {
		return e.abiType(t)
	}
	key := "std140:" + t.String()
	if id, ok := e.abiKey[key]; ok {
		return id
	}
	b := e.b
	var id uint32
	switch t.Kind {
	case ir.KindMat:
		col := e.typeOf(t.Elem)
		cols := make([]uint32, t.Len)
		for j := range cols {
			cols[j] = col
		}
		id = b.typeStruct("", cols...)
		b.name(id, fmt.Sprintf("mat%dx%d_%v_std140", t.Len, t.Rows(), t.Elem.Elem))
		for j := range cols {
			b.memberDecorate(id, j, decorationOffset, uint32(colStride(t)*j))
			b.memberName(id, j, fmt.Sprintf("col%d", j))
		}
	case ir.KindArray:
		id = b.typeStridedArray(e.uniformType(t.Elem), t.Len, hostStride(t))
	case ir.KindStruct:
		types, offs, names, _ := e.uniformMembers(t.Struct.Fields, hostOffsets(t.Struct))
		id = b.typeStruct("", types...)
		b.name(id, t.Struct.Name+"_std140")
		first := 0
		for _, fd := range t.Struct.Fields {
			if !hasMatCx2(fd.Type) {
				e.matrixLayout(id, first, fd.Type)
			}
			first += memberCount(fd.Type)
		}
		for i := range types {
			b.memberDecorate(id, i, decorationOffset, uint32(offs[i]))
			b.memberName(id, i, names[i])
		}
	default:
		panic(fmt.Sprintf("spirv: uniformType(%v)", t))
	}
	e.abiKey[key] = id
	return id
}

// memberCount is the number of Uniform-class struct members a field of
// type t takes: Cols for a matCx2, else 1.
func memberCount(t *ir.Type) int {
	if isMatCx2(t) {
		return t.Len
	}
	return 1
}

// declareUniformStd140 fills in sv, a var<uniform> whose type holds a
// matCx2, as declareShared does for other bindings: its Block struct's
// members are uniformMembers of the struct's fields, or of the single
// field "value" wrapping any other type (a bare matCx2 is then C vec2
// members of the Block itself, so sv.wrap stays empty; other types are
// wrapped at member 0).
func (e *emitter) declareUniformStd140(sv *sharedVar) {
	b, v := e.b, sv.v
	fields := []ir.Field{{Name: "value", Type: v.T}}
	offs := []int{0}
	name := v.Name + "_block"
	if v.T.Kind == ir.KindStruct {
		fields, offs, name = v.T.Struct.Fields, hostOffsets(v.T.Struct), v.T.Struct.Name+"_block"
	} else if !isMatCx2(v.T) {
		sv.wrap = []uint32{b.constU32(0)}
	}
	types, moffs, names, first := e.uniformMembers(fields, offs)
	sv.typ = b.typeStruct("", types...)
	b.name(sv.typ, name)
	b.decorate(sv.typ, decorationBlock)
	for i := range types {
		b.memberName(sv.typ, i, names[i])
		b.memberDecorate(sv.typ, i, decorationOffset, uint32(moffs[i]))
	}
	for i, fd := range fields {
		if !hasMatCx2(fd.Type) { // split matrices are vec2s, their arrays structs
			e.matrixLayout(sv.typ, first[i], fd.Type)
		}
	}
	sv.std140 = true
	sv.id = b.variable(b.typePointer(sv.class, sv.typ), sv.class, 0)
	b.decorate(sv.id, decorationDescriptorSet, uint32(v.Group))
	b.decorate(sv.id, decorationBinding, uint32(v.Binding))
}

// std140Root returns the declared var<uniform> holding a matCx2 that the
// Ident/Index/Member/Swizzle chain x is rooted at, or nil.
func (f *fnEmitter) std140Root(x ir.Expr) *sharedVar {
	for {
		switch y := x.(type) {
		case *ir.Ident:
			if y.Ref != ir.RefShared {
				return nil
			}
			if sv := f.e.shared[y.Name]; sv != nil && sv.std140 {
				return sv
			}
			return nil
		case *ir.Index:
			x = y.X
		case *ir.Member:
			x = y.X
		case *ir.Swizzle:
			x = y.X
		default:
			return nil
		}
	}
}

// uniformPlace is where a chain into a std140 uniform has got to: the
// access-chain indices from the variable (idx) and the logical type t of
// the place. When t is a split matCx2, col0 is the constant index, after
// idx, of its first column member.
type uniformPlace struct {
	idx   []uint32
	t     *ir.Type
	split bool   // t is a matCx2 stored as columns col0, col0+1, … after idx
	col0  uint32 // (split) the member index of column 0
}

// uniformLoad loads the place x, a chain rooted at sv (a std140 uniform):
// the chain's steps are taken from the root outwards (indices evaluated
// in that order); a step into a split matrix that is a constant column
// index becomes that column's member, any other step past a matrix
// rebuilds the matrix and continues on the value (valueStep).
func (f *fnEmitter) uniformLoad(x ir.Expr, sv *sharedVar) uint32 {
	var steps []ir.Expr
	for y := x; ; {
		steps = append(steps, y)
		switch z := y.(type) {
		case *ir.Index:
			y = z.X
			continue
		case *ir.Member:
			y = z.X
			continue
		case *ir.Swizzle:
			y = z.X
			continue
		}
		break
	}
	// steps[len-1] is the root Ident; walk it outwards.
	p := uniformPlace{idx: append([]uint32(nil), sv.wrap...), t: sv.v.T}
	if isMatCx2(sv.v.T) {
		p.split, p.col0 = true, 0
	} else if sv.v.T.Kind == ir.KindStruct {
		p.t = sv.v.T
	}
	b := f.b
	for i := len(steps) - 2; i >= 0; i-- {
		switch s := steps[i].(type) {
		case *ir.Member:
			// p.t is a struct: its fields are members, a matCx2 field
			// split into columns.
			_, _, _, first := f.e.uniformMembers(p.t.Struct.Fields, hostOffsets(p.t.Struct))
			ft := p.t.Struct.Fields[s.Field].Type
			if isMatCx2(ft) {
				p = uniformPlace{idx: p.idx, t: ft, split: true, col0: uint32(first[s.Field])}
			} else {
				p = uniformPlace{idx: append(p.idx, b.constU32(uint32(first[s.Field]))), t: ft}
			}
		case *ir.Index:
			if p.split {
				lit, ok := s.Index.(*ir.Lit)
				if !ok {
					v := f.valueStep(f.uniformMatrix(sv, p), s)
					return f.valueSteps(v, steps[:i])
				}
				p = uniformPlace{idx: append(p.idx, b.constU32(p.col0+min(lit.Val.Bits, uint32(p.t.Len-1)))), t: p.t.Elem}
				continue
			}
			if isMatCx2(p.t) { // a matCx2_std140 array element
				lit, ok := s.Index.(*ir.Lit)
				if !ok {
					v := f.valueStep(f.uniformMatrix(sv, p), s)
					return f.valueSteps(v, steps[:i])
				}
				p = uniformPlace{idx: append(p.idx, b.constU32(min(lit.Val.Bits, uint32(p.t.Len-1)))), t: p.t.Elem}
				continue
			}
			var ix uint32
			if lit, ok := s.Index.(*ir.Lit); ok {
				ix = b.constU32(lit.Val.Bits)
			} else {
				ix = f.index(s.Index, p.t.Len)
			}
			p = uniformPlace{idx: append(p.idx, ix), t: p.t.Elem}
		case *ir.Swizzle:
			// one component of a vector (isPlace admits no other)
			p = uniformPlace{idx: append(p.idx, b.constU32(uint32(s.Comps[0]))), t: s.T}
		}
	}
	if isMatCx2(p.t) {
		return f.uniformMatrix(sv, p)
	}
	return f.uniformValue(sv, p)
}

// uniformMatrix loads the matCx2 at p — split into members col0… after
// p.idx, or a matCx2_std140 struct at p.idx — and rebuilds it.
func (f *fnEmitter) uniformMatrix(sv *sharedVar, p uniformPlace) uint32 {
	e, b := f.e, f.b
	colT := e.typeOf(p.t.Elem)
	ptrT := b.typePointer(sv.class, colT)
	cols := make([]uint32, p.t.Len)
	for j := range cols {
		c := p.col0 + uint32(j)
		if !p.split {
			c = uint32(j)
		}
		idx := append(append([]uint32{sv.id}, p.idx...), b.constU32(c))
		cols[j] = f.op(opLoad, colT, f.op(opAccessChain, ptrT, idx...))
	}
	return f.op(opCompositeConstruct, e.typeOf(p.t), cols...)
}

// uniformValue loads the place p (no split matrix itself) and converts it
// to its logical type (fromUniform).
func (f *fnEmitter) uniformValue(sv *sharedVar, p uniformPlace) uint32 {
	b := f.b
	if len(p.idx) == 0 { // the whole Block
		return f.fromUniformMembers(f.op(opLoad, sv.typ, sv.id), sv.v.T)
	}
	pointee := f.e.uniformType(p.t)
	ptr := f.op(opAccessChain, b.typePointer(sv.class, pointee), append([]uint32{sv.id}, p.idx...)...)
	return f.fromUniform(f.op(opLoad, pointee, ptr), p.t)
}

// fromUniform converts v, a value of uniformType(t), to the logical type
// t: split matrices are rebuilt from their columns, everything without
// one goes through fromHost.
func (f *fnEmitter) fromUniform(v uint32, t *ir.Type) uint32 {
	e := f.e
	if !hasMatCx2(t) {
		return f.fromHost(v, t)
	}
	switch t.Kind {
	case ir.KindMat:
		colT := e.typeOf(t.Elem)
		cols := make([]uint32, t.Len)
		for j := range cols {
			cols[j] = f.op(opCompositeExtract, colT, v, uint32(j))
		}
		return f.op(opCompositeConstruct, e.typeOf(t), cols...)
	case ir.KindArray:
		et := e.uniformType(t.Elem)
		parts := make([]uint32, t.Len)
		for i := range parts {
			parts[i] = f.fromUniform(f.op(opCompositeExtract, et, v, uint32(i)), t.Elem)
		}
		return f.op(opCompositeConstruct, e.typeOf(t), parts...)
	}
	return f.fromUniformMembers(v, t)
}

// fromUniformMembers rebuilds a value of logical type t from v, a struct
// laid out by uniformMembers: t's fields when t is a struct, else t as
// the only field (a Block wrapping a non-struct type).
func (f *fnEmitter) fromUniformMembers(v uint32, t *ir.Type) uint32 {
	e := f.e
	fields := []ir.Field{{Name: "value", Type: t}}
	offs := []int{0}
	if t.Kind == ir.KindStruct {
		fields, offs = t.Struct.Fields, hostOffsets(t.Struct)
	}
	types, _, _, first := e.uniformMembers(fields, offs)
	parts := make([]uint32, len(fields))
	for i, fd := range fields {
		if isMatCx2(fd.Type) {
			cols := make([]uint32, fd.Type.Len)
			for j := range cols {
				cols[j] = f.op(opCompositeExtract, types[first[i]+j], v, uint32(first[i]+j))
			}
			parts[i] = f.op(opCompositeConstruct, e.typeOf(fd.Type), cols...)
			continue
		}
		parts[i] = f.fromUniform(f.op(opCompositeExtract, types[first[i]], v, uint32(first[i])), fd.Type)
	}
	if t.Kind != ir.KindStruct {
		return parts[0]
	}
	return f.op(opCompositeConstruct, e.typeOf(t), parts...)
}

// valueSteps applies steps — a chain's steps from the whole expression
// (steps[0]) inwards — to v, the value below the last one, innermost
// first.
func (f *fnEmitter) valueSteps(v uint32, steps []ir.Expr) uint32 {
	for i := len(steps) - 1; i >= 0; i-- {
		v = f.valueStep(v, steps[i])
	}
	return v
}

// valueStep applies one Index, Member or one-component Swizzle step s to
// v, the value of s's operand, as access does for a chain on a value.
func (f *fnEmitter) valueStep(v uint32, s ir.Expr) uint32 {
	e := f.e
	t := e.typeOf(s.Type())
	switch s := s.(type) {
	case *ir.Member:
		return f.op(opCompositeExtract, t, v, uint32(s.Field))
	case *ir.Swizzle:
		return f.op(opCompositeExtract, t, v, uint32(s.Comps[0]))
	case *ir.Index:
		if lit, ok := s.Index.(*ir.Lit); ok {
			return f.op(opCompositeExtract, t, v, lit.Val.Bits)
		}
		xt := s.X.Type()
		idx := f.index(s.Index, xt.Len)
		if xt.Kind == ir.KindVec {
			return f.op(opVectorExtractDynamic, t, v, idx)
		}
		tmp := f.newVar(xt, "")
		f.store(tmp, v)
		ptr := f.op(opAccessChain, f.b.typePointer(storageClassFunction, t), tmp, idx)
		return f.load(s.T, ptr)
	}
	e.errorf(s.Position(), "unsupported access %T", s)
	return 0
}
