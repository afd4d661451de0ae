package ir

import (
	"fmt"
)

// Host-shareable layout of bindings as written (ARCHITECTURE.md
// "Entry points as written"; WGSL #memory-layouts, #alignment-and-size,
// #address-space-layout-constraints). It is the kernel ABI's layout
// (AlignOf, SizeOf, ArrayStride, FieldOffsets: layout.go) applied to a
// binding's whole type: an atomic is laid out as its scalar, and a
// runtime-sized array (the whole type or the last member of a struct)
// holds as many elements as the value gives (encoding) or as fit in the
// buffer (decoding). Uniform buffers use the same layout; WGSL adds
// constraints a uniform type must meet (CheckUniformLayout) rather than a
// different layout.

// BindingBytes encodes v, a value of binding type t in the shape the
// reference dispatch takes (interp: an atomic's value is its scalar's, a
// runtime-sized array an ir.Value of that type with any number of Elems),
// as the binding's initial buffer contents, little-endian. Errors name the
// path of a component that does not fit t ("[3].pos: has type i32, want
// u32"). The buffer is padded to a multiple of t's alignment: a
// backend's store type wraps the binding in a struct (SPIR-V's Block;
// WGSL #memory-layouts: a struct's size rounds up to its alignment), so a
// bare vec3<f32> binding, 12 bytes, is bound as 16, the size the shader's
// minimum binding size asks for.
func BindingBytes(t *Type, v Value) ([]byte, error) {
	n, err := bindingSize(t, v)
	if err != nil {
		where := err.path
		if where == "" {
			where = "value"
		}
		return nil, fmt.Errorf("%s: %s", where, err.msg)
	}
	b := make([]byte, roundUp(AlignOf(t), n))
	encodeBinding(b, t, v)
	return b, nil
}

// bindingErr is a shape error of bindingSize: the path of the component
// from the value checked ("[3].pos"), built only on the way out of the
// recursion (a path per element cost a Sprintf per leaf: issue 26), and
// the message.
type bindingErr struct {
	path, msg string
}

// bindingSize is the byte size of v as a binding of type t, checking v's
// shape on the way.
func bindingSize(t *Type, v Value) (int, *bindingErr) {
	switch t.Kind {
	case KindAtomic:
		return bindingSize(t.Elem, v)
	case KindI32, KindU32, KindF32, KindF16:
		if v.Type == nil || v.Type.Kind != t.Kind || v.Elems != nil {
			return 0, &bindingErr{msg: fmt.Sprintf("has type %v, want %v", v.Type, t)}
		}
		return ScalarSize(t), nil
	case KindVec, KindMat:
		if v.Type == nil || !Identical(v.Type, t) {
			return 0, &bindingErr{msg: fmt.Sprintf("has type %v, want %v", v.Type, t)}
		}
		return SizeOf(t), nil
	case KindArray, KindRuntimeArray:
		if v.Type == nil || v.Type.Kind != KindArray && v.Type.Kind != KindRuntimeArray {
			return 0, &bindingErr{msg: fmt.Sprintf("has type %v, want %v", v.Type, t)}
		}
		if t.Kind == KindArray && len(v.Elems) != t.Len {
			return 0, &bindingErr{msg: fmt.Sprintf("%d elements, want %d for %v", len(v.Elems), t.Len, t)}
		}
		if k := t.Elem.Kind; k == KindI32 || k == KindU32 || k == KindF32 || k == KindF16 {
			// The common case, a buffer of scalars: no call per element.
			for i, e := range v.Elems {
				if e.Type == nil || e.Type.Kind != k || e.Elems != nil {
					return 0, &bindingErr{path: fmt.Sprintf("[%d]", i), msg: fmt.Sprintf("has type %v, want %v", e.Type, t.Elem)}
				}
			}
		} else {
			for i, e := range v.Elems {
				if _, err := bindingSize(t.Elem, e); err != nil {
					err.path = fmt.Sprintf("[%d]", i) + err.path
					return 0, err
				}
			}
		}
		return len(v.Elems) * ArrayStride(t), nil
	case KindStruct:
		if v.Type == nil || v.Type.Kind != KindStruct || len(v.Elems) != len(t.Struct.Fields) {
			return 0, &bindingErr{msg: fmt.Sprintf("has type %v, want %v", v.Type, t)}
		}
		offs := FieldOffsets(t.Struct)
		end := 0
		for i, f := range t.Struct.Fields {
			n, err := bindingSize(f.Type, v.Elems[i])
			if err != nil {
				err.path = "." + f.Name + err.path
				return 0, err
			}
			end = offs[i] + n
		}
		return max(roundUp(AlignOf(t), end), SizeOf(t)), nil
	}
	return 0, &bindingErr{msg: fmt.Sprintf("type %v is not host-shareable", t)}
}

func encodeBinding(b []byte, t *Type, v Value) {
	switch t.Kind {
	case KindAtomic:
		encodeBinding(b, t.Elem, v)
	case KindI32, KindU32, KindF32, KindF16:
		PutScalar(b, t, v.Bits)
	case KindVec:
		n := ScalarSize(t.Elem)
		for i, e := range v.Elems {
			PutScalar(b[n*i:], t.Elem, e.Bits)
		}
	case KindArray, KindRuntimeArray, KindMat:
		s := ArrayStride(t)
		for i, e := range v.Elems {
			encodeBinding(b[i*s:], t.Elem, e)
		}
	case KindStruct:
		for i, off := range FieldOffsets(t.Struct) {
			encodeBinding(b[off:], t.Struct.Fields[i].Type, v.Elems[i])
		}
	}
}

// BindingValue decodes a binding of type t from its buffer contents b, in
// the shape the reference dispatch returns (interp.DispatchResult: an
// atomic as its scalar, a runtime-sized array with as many elements as fit
// in b after the fixed part). It fails when b is shorter than t's fixed
// part.
func BindingValue(t *Type, b []byte) (Value, error) {
	if len(b) < SizeOf(t) {
		return Value{}, fmt.Errorf("binding of type %v needs at least %d bytes, got %d", t, SizeOf(t), len(b))
	}
	return decodeBinding(b, t), nil
}

func decodeBinding(b []byte, t *Type) Value {
	switch t.Kind {
	case KindAtomic:
		return decodeBinding(b, t.Elem)
	case KindRuntimeArray:
		s := ArrayStride(t)
		var es []Value
		if s > 0 && len(b) >= SizeOf(t.Elem) {
			es = make([]Value, 0, (len(b)-SizeOf(t.Elem))/s+1)
		}
		for off := 0; s > 0 && off+SizeOf(t.Elem) <= len(b); off += s {
			es = append(es, decodeBinding(b[off:], t.Elem))
		}
		return Value{Type: t, Elems: es}
	case KindArray:
		s := ArrayStride(t)
		es := make([]Value, t.Len)
		for i := range es {
			es[i] = decodeBinding(b[i*s:], t.Elem)
		}
		return CompositeVal(t, es...)
	case KindStruct:
		offs := FieldOffsets(t.Struct)
		es := make([]Value, len(offs))
		for i, off := range offs {
			es[i] = decodeBinding(b[off:], t.Struct.Fields[i].Type)
		}
		return CompositeVal(t, es...)
	}
	return decode(b, t)
}

// CheckUniformLayout reports the first place where t, the type of a
// var<uniform>, breaks WGSL's uniform constraints
// (#address-space-layout-constraints): an array's element stride must be
// a multiple of 16, a struct member of struct or array type must start at
// a multiple of 16, and the member after a struct member must start at
// least roundUp(16, its size) after it. nil when t meets them.
func CheckUniformLayout(t *Type) error {
	return checkUniform(t, "")
}

func checkUniform(t *Type, path string) error {
	switch t.Kind {
	case KindArray, KindRuntimeArray:
		if s := ArrayStride(t); s%16 != 0 {
			return fmt.Errorf("uniform %s: array %v has element stride %d, which the uniform address space requires to be a multiple of 16 (WGSL #address-space-layout-constraints)", path, t, s)
		}
		return checkUniform(t.Elem, path+"[]")
	case KindStruct:
		offs := FieldOffsets(t.Struct)
		for i, f := range t.Struct.Fields {
			p := path + "." + f.Name
			if k := f.Type.Kind; (k == KindStruct || k == KindArray) && offs[i]%16 != 0 {
				return fmt.Errorf("uniform %s: member of type %v at offset %d, which the uniform address space requires to be a multiple of 16 (WGSL #address-space-layout-constraints)", p, f.Type, offs[i])
			}
			if i > 0 && t.Struct.Fields[i-1].Type.Kind == KindStruct {
				prev := t.Struct.Fields[i-1]
				if min := offs[i-1] + roundUp(16, SizeOf(prev.Type)); offs[i] < min {
					return fmt.Errorf("uniform %s: starts at offset %d, but a member after the struct member %s must start at %d or later (WGSL #address-space-layout-constraints)", p, offs[i], prev.Name, min)
				}
			}
			if err := checkUniform(f.Type, p); err != nil {
				return err
			}
		}
	}
	return nil
}
