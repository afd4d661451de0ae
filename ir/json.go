package ir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// JSON form of values, shared by `gpudiff exec --inputs/--json`, case
// files and golden files:
//
//   - i32 and u32: JSON integers;
//   - f32: the shortest decimal that round-trips the float32 (1, 0.5,
//     -3.25, 1e+20); non-finite values are the strings "NaN", "+Inf",
//     "-Inf" (they have no JSON number);
//   - f16: as f32, its value's shortest float32 decimal (every binary16
//     value is a float32); an input is rounded to the nearest binary16
//     (through float32: a decimal within float32 rounding of a binary16
//     tie may round the other way);
//   - bool: true / false;
//   - vectors and arrays: JSON arrays of their components;
//   - structs: JSON objects keyed by member name, in declaration order.

// MarshalValue returns v in the JSON form above, laid out compactly with
// a space after each comma and colon (`[1, 2]`, `{"a": 1}`).
func MarshalValue(v Value) []byte {
	var b bytes.Buffer
	j := NewJSONWriter(&b, false)
	j.Value(v, nil)
	return b.Bytes()
}

// AppendScalarJSON appends the scalar of type t with bits in the JSON
// form above (f32: FormatF32JSON's text, or "NaN", "+Inf", "-Inf"; a type
// that is not a scalar: null).
func AppendScalarJSON(dst []byte, t *Type, bits uint32) []byte {
	switch t.Kind {
	case KindBool:
		if bits != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case KindI32:
		return strconv.AppendInt(dst, int64(int32(bits)), 10)
	case KindU32:
		return strconv.AppendUint(dst, uint64(bits), 10)
	case KindF32:
		f := float64(math.Float32frombits(bits))
		switch {
		case math.IsNaN(f):
			return append(dst, `"NaN"`...)
		case math.IsInf(f, 1):
			return append(dst, `"+Inf"`...)
		case math.IsInf(f, -1):
			return append(dst, `"-Inf"`...)
		}
		return strconv.AppendFloat(dst, f, 'g', -1, 32) // FormatF32JSON's text
	case KindF16:
		f, _, _ := wgslsem.F16ToF32(uint16(bits))
		return AppendScalarJSON(dst, F32, math.Float32bits(f))
	}
	return append(dst, "null"...)
}

// JSONSink is where a JSONWriter writes: a *bufio.Writer (streamed) or a
// *bytes.Buffer.
type JSONSink interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

// JSONWriter writes one JSON document onto a JSONSink as it goes, in one
// of two layouts:
//
//   - compact (MarshalValue's): a space after each comma and colon;
//   - indented: as encoding/json's Encoder with SetIndent("", "  ")
//     prints a document (every element of a non-empty array or object on
//     its own line, indented two spaces per level; [] and {} when empty;
//     strings escaped as encoding/json escapes them, HTML characters
//     included), the form of exec's JSON reports.
//
// Callers call Elem before each element of an array and Key before each
// member of an object; the sink's errors are the caller's to check (a
// bufio.Writer keeps its first one).
type JSONWriter struct {
	w       JSONSink
	indent  bool
	depth   int
	empty   bool // the container opened last has no element yet
	scratch []byte
}

// NewJSONWriter returns a writer onto w, indented or compact.
func NewJSONWriter(w JSONSink, indented bool) *JSONWriter {
	return &JSONWriter{w: w, indent: indented}
}

const jsonSpaces = "                                                                "

func (j *JSONWriter) newline(depth int) {
	j.w.WriteByte('\n')
	for n := 2 * depth; n > 0; {
		k := min(n, len(jsonSpaces))
		j.w.WriteString(jsonSpaces[:k])
		n -= k
	}
}

// Open begins an array ('[') or an object ('{').
func (j *JSONWriter) Open(c byte) {
	j.w.WriteByte(c)
	j.depth++
	j.empty = true
}

// Close ends the array (']') or object ('}') opened last.
func (j *JSONWriter) Close(c byte) {
	j.depth--
	if j.indent && !j.empty {
		j.newline(j.depth)
	}
	j.w.WriteByte(c)
	j.empty = false
}

// Elem precedes an element of the array opened last.
func (j *JSONWriter) Elem() {
	switch {
	case j.indent && j.empty:
		j.newline(j.depth)
	case j.indent:
		j.w.WriteByte(',')
		j.newline(j.depth)
	case !j.empty:
		j.w.WriteString(", ")
	}
	j.empty = false
}

// Key precedes the member name of the object opened last.
func (j *JSONWriter) Key(name string) {
	j.Elem()
	j.String(name)
	j.w.WriteString(": ")
}

// String writes s as a JSON string, escaped as encoding/json escapes it
// (with HTML escaping: <, >, & as \u003c, \u003e, \u0026).
func (j *JSONWriter) String(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			js, _ := json.Marshal(s)
			j.w.Write(js)
			return
		}
	}
	j.w.WriteByte('"')
	j.w.WriteString(s)
	j.w.WriteByte('"')
}

// Int writes an integer.
func (j *JSONWriter) Int(n int64) {
	j.scratch = strconv.AppendInt(j.scratch[:0], n, 10)
	j.w.Write(j.scratch)
}

// Scalar writes the scalar of type t with bits (AppendScalarJSON).
func (j *JSONWriter) Scalar(t *Type, bits uint32) {
	j.scratch = AppendScalarJSON(j.scratch[:0], t, bits)
	j.w.Write(j.scratch)
}

// Raw writes raw, a JSON value, laid out as the writer lays out its own
// (indented: compacted with HTML escaping, then indented at the current
// depth, as the Encoder treats a json.RawMessage; compact: as is). It
// fails when raw is not valid JSON.
func (j *JSONWriter) Raw(raw []byte) error {
	if !j.indent {
		_, err := j.w.Write(raw)
		return err
	}
	var c, h, out bytes.Buffer
	if err := json.Compact(&c, raw); err != nil {
		return err
	}
	json.HTMLEscape(&h, c.Bytes())
	if err := json.Indent(&out, h.Bytes(), strings.Repeat("  ", j.depth), "  "); err != nil {
		return err
	}
	_, err := j.w.Write(out.Bytes())
	return err
}

// LeafHook writes leaf i (value v) itself and returns true, or returns
// false to have the writer write v.
type LeafHook func(j *JSONWriter, i int, v Value) bool

// Value writes v in the JSON form above, each leaf through hook when it
// is not nil.
func (j *JSONWriter) Value(v Value, hook LeafHook) {
	WalkValue(v, jsonVisitor{j, hook})
}

// Buffer writes b in the JSON form of b.Value() (a runtime-sized array
// with RuntimeLength elements, an atomic as its scalar) without decoding
// it into a tree, each leaf through hook when it is not nil.
func (j *JSONWriter) Buffer(b Buffer, hook LeafHook) {
	b.Walk(jsonVisitor{j, hook})
}

type jsonVisitor struct {
	j    *JSONWriter
	hook LeafHook
}

func (x jsonVisitor) Open(t *Type, n int) {
	if t.Kind == KindStruct {
		x.j.Open('{')
	} else {
		x.j.Open('[')
	}
}

func (x jsonVisitor) Child(t *Type, k int) {
	if t.Kind == KindStruct {
		x.j.Key(t.Struct.Fields[k].Name)
	} else {
		x.j.Elem()
	}
}

func (x jsonVisitor) Close(t *Type) {
	if t.Kind == KindStruct {
		x.j.Close('}')
	} else {
		x.j.Close(']')
	}
}

func (x jsonVisitor) Leaf(i int, v Value) {
	if x.hook != nil && x.hook(x.j, i, v) {
		return
	}
	x.j.Scalar(v.Type, v.Bits)
}

// UnmarshalValue parses raw (the JSON form above) as a value of type t.
// Integers must be exactly representable in t: an integer out of range or
// a fraction for an integer type is an error (so inputs never change
// silently); an f32 number is rounded to the nearest float32. Errors name the path of
// the offending component, e.g. `[2].pos[1]: 1.5 is not an integer`.
func UnmarshalValue(t *Type, raw json.RawMessage) (Value, error) {
	v, err := unmarshalAt(t, raw)
	if err != nil {
		p := err.path
		if p == "" {
			p = "value"
		}
		return Value{}, fmt.Errorf("%s: %s", p, err.msg)
	}
	return v, nil
}

// unmarshalErr is an UnmarshalValue error: the path of the component
// from the value decoded ("[3].pos"), built on the way out of the
// recursion only (a path per element cost a Sprintf per leaf: issue 26),
// and the message.
type unmarshalErr struct {
	path, msg string
}

func (e *unmarshalErr) under(prefix string) *unmarshalErr {
	e.path = prefix + e.path
	return e
}

func unmarshalAt(t *Type, raw json.RawMessage) (Value, *unmarshalErr) {
	fail := func(format string, args ...any) (Value, *unmarshalErr) {
		return Value{}, &unmarshalErr{msg: fmt.Sprintf(format, args...)}
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
		var i int64
		if isJSONInteger(raw) {
			// The common case, a plain integer literal: what the decoder
			// below would give it, without a decoder per scalar.
			var err error
			if i, err = strconv.ParseInt(string(raw), 10, 64); err != nil {
				return fail("%s is not an integer", raw)
			}
		} else {
			var n json.Number
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			if err := dec.Decode(&n); err != nil {
				return fail("want an integer, got %s", short(raw))
			}
			var err error
			if i, err = strconv.ParseInt(n.String(), 10, 64); err != nil {
				return fail("%s is not an integer", n)
			}
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
	case KindF16:
		v, err := unmarshalAt(F32, raw)
		if err != nil {
			return Value{}, err
		}
		return F16Val(v.F32()), nil
	case KindF32:
		if isJSONNumber(raw) {
			// The common case, a number literal (as the decoder below
			// checks it): parsed directly.
			f, err := strconv.ParseFloat(string(raw), 32)
			if err != nil {
				return fail("%s is not an f32", raw)
			}
			return F32Val(float32(f)), nil
		}
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
		return unmarshalAt(t.Elem, raw)
	case KindRuntimeArray:
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil || items == nil {
			return fail("want an array of %v elements for %v, got %s", t.Elem, t, short(raw))
		}
		v := Value{Type: t, Elems: make([]Value, len(items))}
		for i, it := range items {
			e, err := unmarshalAt(t.Elem, it)
			if err != nil {
				return Value{}, err.under("[" + strconv.Itoa(i) + "]")
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
			e, err := unmarshalAt(t.Elem, it)
			if err != nil {
				return Value{}, err.under("[" + strconv.Itoa(i) + "]")
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
			e, err := unmarshalAt(f.Type, it)
			if err != nil {
				return Value{}, err.under("." + f.Name)
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

// isJSONInteger reports whether b is a JSON number literal without
// fraction or exponent (RFC 8259 §6: -?(0|[1-9][0-9]*)).
func isJSONInteger(b []byte) bool {
	n := jsonIntPart(b)
	return n > 0 && n == len(b)
}

// isJSONNumber reports whether b is a JSON number literal (RFC 8259 §6:
// int, then an optional fraction .[0-9]+, then an optional exponent
// [eE][+-]?[0-9]+).
func isJSONNumber(b []byte) bool {
	i := jsonIntPart(b)
	if i == 0 {
		return false
	}
	digits := func() bool {
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(b)
}

// jsonIntPart returns the length of the JSON int at the start of b
// (-?(0|[1-9][0-9]*)), 0 when there is none.
func jsonIntPart(b []byte) int {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		return i + 1
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i++
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i
	}
	return 0
}

func short(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}
