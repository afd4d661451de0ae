package report

// A copy of exec --json's code path for an entry point as it was before
// issue 26 streamed it (report/dispatch.go's WriteDispatchJSON,
// report/case.go's WriteEntriesJSON, oracle.MarshalExpected and
// ir.MarshalValue at commit 82500c9), kept as the oracle of
// TestDispatchJSONIsByteIdentical: the streamed writer must print the
// same bytes. Only the whole-document encoding/json pass is the old
// one's; the values it encodes come from the same check.EntryResult.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

func oldMarshalValue(v ir.Value) []byte {
	var b bytes.Buffer
	oldWriteJSON(&b, v)
	return b.Bytes()
}

func oldWriteJSON(b *bytes.Buffer, v ir.Value) {
	switch v.Type.Kind {
	case ir.KindBool:
		if v.Bool() {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case ir.KindI32:
		b.WriteString(strconv.FormatInt(int64(v.I32()), 10))
	case ir.KindU32:
		b.WriteString(strconv.FormatUint(uint64(v.U32()), 10))
	case ir.KindF32:
		f := v.F32()
		switch {
		case math.IsNaN(float64(f)):
			b.WriteString(`"NaN"`)
		case math.IsInf(float64(f), 1):
			b.WriteString(`"+Inf"`)
		case math.IsInf(float64(f), -1):
			b.WriteString(`"-Inf"`)
		default:
			b.WriteString(ir.FormatF32JSON(f))
		}
	case ir.KindVec, ir.KindArray, ir.KindRuntimeArray, ir.KindMat:
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			oldWriteJSON(b, e)
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
			oldWriteJSON(b, e)
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

func oldMarshalExpected(e oracle.Expected) []byte {
	var b bytes.Buffer
	i := 0
	oldWriteLeafJSON(&b, e.Val(), func(v ir.Value) string {
		defer func() { i++ }()
		if !(e.Indeterminate != nil && i < len(e.Indeterminate) && e.Indeterminate[i]) {
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
				vs = append(vs, string(oldMarshalValue(ir.Value{Type: v.Type, Bits: x})))
			}
			parts = append(parts, `"oneOf": [`+strings.Join(vs, ", ")+`]`)
		}
		if set.HasRange {
			parts = append(parts, `"range": [`+string(oldMarshalValue(ir.Value{Type: v.Type, Bits: set.Lo}))+`, `+string(oldMarshalValue(ir.Value{Type: v.Type, Bits: set.Hi}))+`]`)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	})
	return b.Bytes()
}

func oldWriteLeafJSON(b *bytes.Buffer, v ir.Value, indet func(ir.Value) string) {
	switch v.Type.Kind {
	case ir.KindVec, ir.KindArray, ir.KindRuntimeArray:
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			oldWriteLeafJSON(b, e, indet)
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
			oldWriteLeafJSON(b, e, indet)
		}
		b.WriteByte('}')
	default:
		if r := indet(v); r != "" {
			b.WriteString(r)
			return
		}
		b.Write(oldMarshalValue(v))
	}
}

type oldDispatchRunJSON struct {
	Adapter    string                     `json:"adapter"`
	Function   string                     `json:"function"`
	Format     string                     `json:"format"`
	Mode       string                     `json:"mode"`
	Outputs    map[string]json.RawMessage `json:"outputs"`
	Mismatches []oldDispatchDiffJSON      `json:"mismatches"`
	Verdict    string                     `json:"verdict"`
	Error      string                     `json:"error"`
}

type oldDispatchDiffJSON struct {
	Leaf      string `json:"leaf"`
	Reference string `json:"reference"`
	Got       string `json:"got"`
}

// oldInputValue is binding i's initial value as a tree, whichever form
// check.EntryResult carries it in.
func oldInputValue(res *check.EntryResult, i int) ir.Value { return res.Inputs[i] }

func oldWriteDispatchJSON(w io.Writer, c *check.EntryCase, res *check.EntryResult) error {
	inputs := map[string]json.RawMessage{}
	for i, v := range res.Bindings {
		inputs[v.Name] = oldMarshalValue(oldInputValue(res, i))
	}
	if len(c.Module.Textures) > 0 {
		for k, v := range check.TextureInputs(c) {
			inputs[k] = v
		}
	}
	ref := map[string]json.RawMessage{}
	for i, name := range res.Names {
		if i < len(res.Reference) {
			ref[name] = oldMarshalExpected(res.Reference[i])
		}
	}
	races := []string{}
	for _, r := range res.Races {
		races = append(races, r.String())
	}
	runs := []oldDispatchRunJSON{}
	for _, r := range res.Runs {
		rj := oldDispatchRunJSON{Adapter: r.Adapter, Function: r.Function, Format: string(r.Format), Mode: r.Mode,
			Outputs: map[string]json.RawMessage{}, Mismatches: []oldDispatchDiffJSON{}, Verdict: string(r.Verdict), Error: r.Message}
		if len(r.Outputs) == 1 {
			for i, o := range r.Outputs[0] {
				rj.Outputs[res.Names[i]] = oldMarshalExpected(o)
			}
		}
		for _, d := range r.Diffs[0] {
			rj.Mismatches = append(rj.Mismatches, oldDispatchDiffJSON{d.Path, d.Want, d.Got})
		}
		runs = append(runs, rj)
	}
	type skipped struct {
		Adapter  string `json:"adapter"`
		Function string `json:"function"`
		Format   string `json:"format"`
		Reason   string `json:"reason"`
	}
	skips := []skipped{}
	for _, r := range res.Skipped {
		skips = append(skips, skipped{r.Adapter, r.Function, string(r.Format), r.Message})
	}
	obj := struct {
		Entry       string                     `json:"entry"`
		Twin        string                     `json:"twin,omitempty"`
		Workgroups  [3]uint32                  `json:"workgroups"`
		Bindings    map[string]json.RawMessage `json:"bindings"`
		Reference   map[string]json.RawMessage `json:"reference"`
		Races       []string                   `json:"races"`
		Runs        []oldDispatchRunJSON       `json:"runs"`
		Skipped     []skipped                  `json:"skipped"`
		OutOfDomain string                     `json:"out_of_domain,omitempty"`
		Verdict     string                     `json:"verdict"`
	}{c.Entry, res.Twin, c.Workgroups, inputs, ref, races, runs, skips, res.Domain, ExecVerdict(res.Verdict)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(obj)
}

// oldWriteEntriesJSON is WriteEntriesJSON as it was, over entry points
// only (oldWriteDispatchJSON).
func oldWriteEntriesJSON(w io.Writer, runs []EntryRun) error {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, r := range runs {
		if i > 0 {
			b.WriteString(",\n")
		}
		var one bytes.Buffer
		if r.Outcome == nil {
			js, _ := json.MarshalIndent(struct {
				Entry   string `json:"entry"`
				Verdict string `json:"verdict"`
				Error   string `json:"error"`
				Exit    int    `json:"exit"`
			}{r.Name, "refused", r.Err, r.Exit}, "", "  ")
			one.Write(js)
		} else {
			if err := oldWriteDispatchJSON(&one, r.Outcome.Case.Entry(), r.Outcome.Entry); err != nil {
				return err
			}
			obj := bytes.TrimRight(one.Bytes(), "\n")
			obj = bytes.TrimRight(bytes.TrimSuffix(obj, []byte("}")), " \n")
			obj = append(obj, fmt.Sprintf(",\n  \"exit\": %d\n}", r.Exit)...)
			one.Reset()
			one.Write(obj)
		}
		b.Write(one.Bytes())
	}
	b.WriteString("\n]\n")
	_, err := w.Write(b.Bytes())
	return err
}
