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

// MarshalExpected returns e in the JSON form of values (ir.MarshalValue),
// with each indeterminate leaf written as the string "indeterminate" (any
// value), or, where the reference knows the values WGSL allows, as
// {"oneOf": [values...]} and/or {"range": [lo, hi]} (both keys when the
// set is a union of the two). Compact layout (ir.JSONWriter); e may hold
// either form (Value or Buffer).
func MarshalExpected(e Expected) []byte {
	var b bytes.Buffer
	WriteExpectedJSON(ir.NewJSONWriter(&b, false), e)
	return b.Bytes()
}

// WriteExpectedJSON writes e as MarshalExpected does onto j, in j's
// layout, leaf by leaf from either form (a Buffer is never decoded into a
// tree); the sink's errors are j's caller's.
func WriteExpectedJSON(j *ir.JSONWriter, e Expected) {
	var hook ir.LeafHook
	if e.Indeterminate != nil {
		hook = func(j *ir.JSONWriter, i int, v ir.Value) bool {
			if !e.indet(i) {
				return false
			}
			writeSetJSON(j, v.Type, e.Set(i))
			return true
		}
	}
	switch {
	case e.Buffer.Type != nil:
		j.Buffer(e.Buffer, hook)
	default:
		j.Value(e.Value, hook)
	}
}

// writeSetJSON writes an indeterminate leaf of type t whose allowed set is
// set: "indeterminate", or {"oneOf": [...], "range": [lo, hi]}.
func writeSetJSON(j *ir.JSONWriter, t *ir.Type, set ir.ValueSet) {
	if set.IsAny() {
		j.String("indeterminate")
		return
	}
	j.Open('{')
	if len(set.Values) > 0 {
		j.Key("oneOf")
		j.Open('[')
		for _, x := range set.Values {
			j.Elem()
			j.Scalar(t, x)
		}
		j.Close(']')
	}
	if set.HasRange {
		j.Key("range")
		j.Open('[')
		j.Elem()
		j.Scalar(t, set.Lo)
		j.Elem()
		j.Scalar(t, set.Hi)
		j.Close(']')
	}
	j.Close('}')
}

// InvocationJSON renders one invocation's outputs: the bare value when the
// only output is "ret", otherwise an object keyed by output name (compact
// layout).
func InvocationJSON(outs []Expected, names []string) json.RawMessage {
	var b bytes.Buffer
	WriteInvocationJSON(ir.NewJSONWriter(&b, false), outs, names)
	return b.Bytes()
}

// WriteInvocationJSON writes InvocationJSON's value onto j, in j's layout.
func WriteInvocationJSON(j *ir.JSONWriter, outs []Expected, names []string) {
	if len(names) == 1 && names[0] == "ret" && len(outs) == 1 {
		WriteExpectedJSON(j, outs[0])
		return
	}
	j.Open('{')
	for i, o := range outs {
		j.Key(names[i])
		WriteExpectedJSON(j, o)
	}
	j.Close('}')
}

// Human renders a leaf-annotated value for tables: like WGSL constructors
// but compact (vectors, matrices (as their columns) and arrays as
// (1, 2, 3), f32 as the shortest round-trip decimal) with "indet" for
// indeterminate leaves and their allowed set where the reference knows it
// ("indet{1, 7}", "indet[1, 16]"). e may hold either form.
func Human(e Expected) string {
	h := humanVisitor{e: &e}
	e.Walk(&h)
	return h.b.String()
}

type humanVisitor struct {
	e *Expected
	b strings.Builder
}

func (h *humanVisitor) Open(t *ir.Type, n int) {
	if t.Kind == ir.KindStruct {
		h.b.WriteByte('{')
	} else {
		h.b.WriteByte('(')
	}
}

func (h *humanVisitor) Child(t *ir.Type, k int) {
	if k > 0 {
		h.b.WriteString(", ")
	}
	if t.Kind == ir.KindStruct {
		h.b.WriteString(t.Struct.Fields[k].Name + ": ")
	}
}

func (h *humanVisitor) Close(t *ir.Type) {
	if t.Kind == ir.KindStruct {
		h.b.WriteByte('}')
	} else {
		h.b.WriteByte(')')
	}
}

func (h *humanVisitor) Leaf(i int, v ir.Value) {
	if h.e.indet(i) {
		h.b.WriteString("indet")
		if set := h.e.Set(i); !set.IsAny() {
			h.b.WriteString(set.Format(v.Type))
		}
		return
	}
	h.b.WriteString(HumanScalar(v))
}

// HumanOutputs is one invocation's outputs as tables show them (exec's
// table, the viewer, the driver matrix), "name=value …" (Human of each,
// names[i] the name of outs[i]) unless the only output is the return
// value "ret".
func HumanOutputs(outs []Expected, names []string) string {
	parts := make([]string, len(outs))
	for i, o := range outs {
		parts[i] = Human(o)
		if len(names) > 1 || names[0] != "ret" {
			parts[i] = names[i] + "=" + parts[i]
		}
	}
	return strings.Join(parts, " ")
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
	case ir.KindF16:
		f := v.F16()
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return fmt.Sprint(f) + "h"
		}
		return ir.FormatF32JSON(f) + "h"
	}
	return v.String()
}
