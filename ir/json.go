package ir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// JSON form of values, shared by `gpudiff exec --inputs/--json`, case
// files and golden files:
//
//   - i32 and u32: JSON integers;
//   - f32: the shortest decimal that round-trips the float32 (1, 0.5,
//     -3.25, 1e+20); non-finite values are the strings "NaN", "+Inf",
//     "-Inf" (they have no JSON number);
//   - bool: true / false;
//   - vectors and arrays: JSON arrays of their components;
//   - structs: JSON objects keyed by member name, in declaration order.

// MarshalValue returns v in the JSON form above.
func MarshalValue(v Value) []byte {
	var b bytes.Buffer
	writeJSON(&b, v)
	return b.Bytes()
}

func writeJSON(b *bytes.Buffer, v Value) {
	switch v.Type.Kind {
	case KindBool:
		if v.Bool() {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case KindI32:
		b.WriteString(strconv.FormatInt(int64(v.I32()), 10))
	case KindU32:
		b.WriteString(strconv.FormatUint(uint64(v.U32()), 10))
	case KindF32:
		f := v.F32()
		switch {
		case math.IsNaN(float64(f)):
			b.WriteString(`"NaN"`)
		case math.IsInf(float64(f), 1):
			b.WriteString(`"+Inf"`)
		case math.IsInf(float64(f), -1):
			b.WriteString(`"-Inf"`)
		default:
			b.WriteString(FormatF32JSON(f))
		}
	case KindVec, KindArray, KindRuntimeArray, KindMat:
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	case KindStruct:
		b.WriteByte('{')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			name, _ := json.Marshal(v.Type.Struct.Fields[i].Name)
			b.Write(name)
			b.WriteString(": ")
			writeJSON(b, e)
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

// UnmarshalValue parses raw (the JSON form above) as a value of type t.
// Integers must be exactly representable in t: an integer out of range or
// a fraction for an integer type is an error (so inputs never change
// silently); an f32 number is rounded to the nearest float32. Errors name the path of
// the offending component, e.g. `[2].pos[1]: 1.5 is not an integer`.
func UnmarshalValue(t *Type, raw json.RawMessage) (Value, error) {
	return unmarshalAt("", t, raw)
}

func unmarshalAt(path string, t *Type, raw json.RawMessage) (Value, error) {
	fail := func(format string, args ...any) (Value, error) {
		p := path
		if p == "" {
			p = "value"
		}
		return Value{}, fmt.Errorf("%s: "+format, append([]any{p}, args...)...)
	}
	raw = bytes.TrimSpace(raw)
	switch t.Kind {
	case KindBool:
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return fail("want a bool, got %s", short(raw))
		}
		return BoolVal(b), nil
	case KindI32, KindU32:
		var n json.Number
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&n); err != nil {
			return fail("want an integer, got %s", short(raw))
		}
		i, err := strconv.ParseInt(n.String(), 10, 64)
		if err != nil {
			return fail("%s is not an integer", n)
		}
		if t.Kind == KindI32 && (i < math.MinInt32 || i > math.MaxInt32) {
			return fail("%d is out of range for i32", i)
		}
		if t.Kind == KindU32 && (i < 0 || i > math.MaxUint32) {
			return fail("%d is out of range for u32", i)
		}
		if t.Kind == KindI32 {
			return I32Val(int32(i)), nil
		}
		return U32Val(uint32(i)), nil
	case KindF32:
		var s string
		if json.Unmarshal(raw, &s) == nil {
			switch s {
			case "NaN":
				return F32Val(float32(math.NaN())), nil
			case "+Inf", "Inf":
				return F32Val(float32(math.Inf(1))), nil
			case "-Inf":
				return F32Val(float32(math.Inf(-1))), nil
			}
			return fail("want a number, got %s", short(raw))
		}
		var n json.Number
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&n); err != nil {
			return fail("want a number, got %s", short(raw))
		}
		f, err := strconv.ParseFloat(n.String(), 32)
		if err != nil {
			return fail("%s is not an f32", n)
		}
		return F32Val(float32(f)), nil
	case KindAtomic:
		return unmarshalAt(path, t.Elem, raw)
	case KindRuntimeArray:
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil || items == nil {
			return fail("want an array of %v elements for %v, got %s", t.Elem, t, short(raw))
		}
		v := Value{Type: t, Elems: make([]Value, len(items))}
		for i, it := range items {
			e, err := unmarshalAt(fmt.Sprintf("%s[%d]", path, i), t.Elem, it)
			if err != nil {
				return Value{}, err
			}
			v.Elems[i] = e
		}
		return v, nil
	case KindVec, KindArray, KindMat: // a matrix: an array of its columns
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return fail("want an array of %d components for %v, got %s", t.Len, t, short(raw))
		}
		if len(items) != t.Len {
			return fail("want %d components for %v, got %d", t.Len, t, len(items))
		}
		es := make([]Value, t.Len)
		for i, it := range items {
			e, err := unmarshalAt(fmt.Sprintf("%s[%d]", path, i), t.Elem, it)
			if err != nil {
				return Value{}, err
			}
			es[i] = e
		}
		return CompositeVal(t, es...), nil
	case KindStruct:
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
			return fail("want an object for struct %s, got %s", t.Struct.Name, short(raw))
		}
		es := make([]Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			it, ok := obj[f.Name]
			if !ok {
				return fail("struct %s: missing member %q", t.Struct.Name, f.Name)
			}
			e, err := unmarshalAt(path+"."+f.Name, f.Type, it)
			if err != nil {
				return Value{}, err
			}
			es[i] = e
		}
		for k := range obj {
			if t.Struct.FieldIndex(k) < 0 {
				return fail("struct %s has no member %q", t.Struct.Name, k)
			}
		}
		return CompositeVal(t, es...), nil
	}
	return fail("type %v has no JSON form", t)
}

func short(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}
