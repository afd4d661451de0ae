package oracle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// MarshalExpected writes e in the JSON form of values (ir.MarshalValue),
// with each indeterminate leaf written as the string "indeterminate" (any
// value), or, where the reference knows the values WGSL allows, as
// {"oneOf": [values...]} and/or {"range": [lo, hi]} (both keys when the
// set is a union of the two).
func MarshalExpected(e Expected) []byte {
	var b bytes.Buffer
	i := 0
	writeLeafJSON(&b, e.Val(), func(v ir.Value) string {
		defer func() { i++ }()
		if !e.indet(i) {
			return ""
		}
		set := e.Set(i)
		if set.IsAny() {
			return `"indeterminate"`
		}
		var parts []string
		if len(set.Values) > 0 {
			var vs []string
			for _, x := range set.Values {
				vs = append(vs, string(ir.MarshalValue(ir.Value{Type: v.Type, Bits: x})))
			}
			parts = append(parts, `"oneOf": [`+strings.Join(vs, ", ")+`]`)
		}
		if set.HasRange {
			parts = append(parts, `"range": [`+string(ir.MarshalValue(ir.Value{Type: v.Type, Bits: set.Lo}))+`, `+string(ir.MarshalValue(ir.Value{Type: v.Type, Bits: set.Hi}))+`]`)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	})
	return b.Bytes()
}

// writeLeafJSON writes v; indet returns a scalar leaf's replacement text
// ("" to write the value).
func writeLeafJSON(b *bytes.Buffer, v ir.Value, indet func(ir.Value) string) {
	switch v.Type.Kind {
	case ir.KindVec, ir.KindArray, ir.KindRuntimeArray:
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeLeafJSON(b, e, indet)
		}
		b.WriteByte(']')
	case ir.KindStruct:
		b.WriteByte('{')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			name, _ := json.Marshal(v.Type.Struct.Fields[i].Name)
			b.Write(name)
			b.WriteString(": ")
			writeLeafJSON(b, e, indet)
		}
		b.WriteByte('}')
	default:
		if r := indet(v); r != "" {
			b.WriteString(r)
			return
		}
		b.Write(ir.MarshalValue(v))
	}
}

// InvocationJSON renders one invocation's outputs: the bare value when the
// only output is "ret", otherwise an object keyed by output name.
func InvocationJSON(outs []Expected, names []string) json.RawMessage {
	if len(names) == 1 && names[0] == "ret" && len(outs) == 1 {
		return MarshalExpected(outs[0])
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, o := range outs {
		if i > 0 {
			b.WriteString(", ")
		}
		n, _ := json.Marshal(names[i])
		b.Write(n)
		b.WriteString(": ")
		b.Write(MarshalExpected(o))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// Human renders a leaf-annotated value for tables: like WGSL constructors
// but compact (vectors as (1, 2, 3), f32 as the shortest round-trip
// decimal) with "indet" for indeterminate leaves and their allowed set
// where the reference knows it ("indet{1, 7}", "indet[1, 16]").
func Human(e Expected) string {
	var b bytes.Buffer
	i := 0
	var rec func(v ir.Value)
	rec = func(v ir.Value) {
		switch v.Type.Kind {
		case ir.KindVec, ir.KindArray, ir.KindRuntimeArray:
			b.WriteByte('(')
			for k, c := range v.Elems {
				if k > 0 {
					b.WriteString(", ")
				}
				rec(c)
			}
			b.WriteByte(')')
		case ir.KindStruct:
			b.WriteByte('{')
			for k, c := range v.Elems {
				if k > 0 {
					b.WriteString(", ")
				}
				b.WriteString(v.Type.Struct.Fields[k].Name + ": ")
				rec(c)
			}
			b.WriteByte('}')
		default:
			ind, set := e.indet(i), e.Set(i)
			i++
			if ind {
				b.WriteString("indet")
				if !set.IsAny() {
					b.WriteString(set.Format(v.Type))
				}
				return
			}
			b.WriteString(HumanScalar(v))
		}
	}
	rec(e.Val())
	return b.String()
}

// HumanScalar prints one scalar compactly.
func HumanScalar(v ir.Value) string {
	switch v.Type.Kind {
	case ir.KindBool:
		return strconv.FormatBool(v.Bool())
	case ir.KindI32:
		return strconv.FormatInt(int64(v.I32()), 10)
	case ir.KindU32:
		return strconv.FormatUint(uint64(v.U32()), 10) + "u"
	case ir.KindF32:
		f := v.F32()
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return fmt.Sprint(f)
		}
		return ir.FormatF32JSON(f)
	}
	return v.String()
}
