package testcase

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// A case file is one self-contained, human-readable reproduction: a WGSL
// module (valid as is; any WebGPU tool accepts it once an entry point is
// appended) followed by a block comment that starts with the marker
// CaseMarker and holds the case's JSON record (CaseRecord). Inside the
// JSON, the '*' of any "/*" or "*/" is written \u002a so the comment can
// neither end nor nest early (WGSL block comments nest); JSON readers
// decode it as usual.
//
//	// gpudiff case 3f2a9c1d07e4 — mismatch (flatten)
//	// replay: gpudiff repro THIS_FILE
//	fn k(a: i32) -> i32 { … }
//	/* gpudiff-case
//	{"format": "gpudiff-case/1", "kernel": "k", …}
//	*/
const CaseMarker = "/* gpudiff-case"

// CaseFormat is the format tag of CaseRecord.
const CaseFormat = "gpudiff-case/1"

// CaseRecord is the JSON part of a case file.
type CaseRecord struct {
	Format      string `json:"format"`
	Kernel      string `json:"kernel"`
	Invocations int    `json:"invocations"`
	// Fill is how exec made up the inputs (Options.Fill: zero, iota,
	// small, edges, random); absent when they were given (--inputs, a
	// campaign's generator). repro judges the replay with it, so a
	// reference that runs past the step limit stays out-of-domain.
	Fill string `json:"fill,omitempty"`
	// Workgroups is set for a compute entry point's case (Kernel is the
	// entry point): the dispatch size X, Y, Z. Inputs are then the
	// initial value of every storage and uniform binding, {binding:
	// value} (exec --inputs' form), Invocations is 1 and Reference and
	// each run's outputs hold one "invocation": the whole dispatch's
	// read_write bindings.
	Workgroups []uint32 `json:"workgroups,omitempty"`
	// Size is set for a fragment entry point's case (Kernel is the entry
	// point): the render target's width and height in pixels
	// (check/testcase/fragcase.go). Invocations is then width × height, one per
	// pixel in row order from the top-left; Inputs are the texture and
	// sampler bindings' entries (exec --inputs' form, {} without any);
	// Reference and each run's outputs hold each pixel's result.
	Size []uint32 `json:"size,omitempty"`
	// Vertex is set for a draw's case (check/testcase/drawcase.go; Kernel
	// is then its fragment entry point and Size its target): the vertex
	// entry point. VertexSource is the vertex stage's module as canonical
	// WGSL when the draw has two (the case file's module is the fragment
	// stage's); absent when one module has both. Inputs are then the
	// draw's inputs file (DrawInputsJSON: bindings, textures, vertices,
	// indices, counts, primitive state, targets, size), Invocations
	// width × height and Reference and each run's outputs one result per
	// pixel, as a fragment entry point's.
	Vertex       string            `json:"vertex,omitempty"`
	VertexSource string            `json:"vertex_source,omitempty"`
	Inputs       json.RawMessage   `json:"inputs"`    // {param: [value per invocation]}
	Reference    []json.RawMessage `json:"reference"` // interp(original), "indeterminate" leaves
	Runs         []RunRecord       `json:"runs"`      // observed runs (as recorded)
	Verdict      string            `json:"verdict"`
	Findings     []FindingRecord   `json:"findings,omitempty"`
	Signature    string            `json:"signature,omitempty"` // de-duplication key
	Hash         string            `json:"hash"`                // SHA-256 of the kernel's canonical program text
	Mode         string            `json:"mode"`                // emission mode of the GPU runs
	Flat         bool              `json:"flat"`                // whether the twin was run
	SPIRV        bool              `json:"spirv"`
	Stages       []oracle.Stage    `json:"stages,omitempty"` // Options.Stages; absent: compute, as before stages
	Seed         *SeedInfo         `json:"seed,omitempty"`
	Tool         ToolInfo          `json:"tool"`
	Note         string            `json:"note,omitempty"`
	// Drivers names the driver and version behind each GPU adapter of
	// Runs, and its WebGPU implementation and that implementation's
	// version (harness.DriverRecords), sorted by adapter; absent in cases
	// recorded before drivers were, and with no GPU run (the
	// implementation's keys absent in cases recorded before they were).
	Drivers []harness.DriverRecord `json:"drivers,omitempty"`
}

// FindingRecord is one finding as a case file records it: check's
// attribution (check.Finding) in its JSON form — the class (check.Class's
// text), the adapter involved, the runs that disagree ("adapter function
// format"), what it implicates in words, and the disagreeing invocations.
type FindingRecord struct {
	Class       string   `json:"class"`
	Adapter     string   `json:"adapter"`
	Runs        []string `json:"runs"`
	Implicates  string   `json:"implicates"`
	Invocations []int    `json:"invocations"`
}

// RunRecord is one recorded run, in exec's JSON shape.
type RunRecord struct {
	Adapter    string            `json:"adapter"`
	Function   string            `json:"function"`
	Format     oracle.Format     `json:"format"`
	Stage      oracle.Stage      `json:"stage,omitempty"` // absent: the interpreter, or a compute run recorded before stages
	Mode       string            `json:"mode"`
	Outputs    []json.RawMessage `json:"outputs"`
	Mismatches []int             `json:"mismatches"`
	Verdict    string            `json:"verdict"`
	Error      string            `json:"error"`
	// Leaves summarizes a fragment run's disagreements: for each output
	// leaf (a channel, e.g. "ret.lin[3]") that differs from the
	// reference, at how many pixels (Mismatches lists the pixels).
	// Absent where every leaf agrees, and in other kinds' records.
	Leaves map[string]int `json:"leaves,omitempty"`
}

// SeedInfo locates a generated program: Program regenerates it alone
// (gen.Generate(Program, cfg) with Size and Profile); Campaign and Index
// say where it came from.
type SeedInfo struct {
	Campaign uint64 `json:"campaign"`
	Index    int    `json:"index"`
	Program  uint64 `json:"program"`
	Size     int    `json:"size"`
	Profile  string `json:"profile"`
}

// ToolInfo records what wrote the case.
type ToolInfo struct {
	Version string `json:"version"`
	Go      string `json:"go"`
}

// InputsJSON renders args as {param: [values…]} in parameter order.
func InputsJSON(f *ir.Func, args [][]ir.Value) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for j, p := range f.Params {
		if j > 0 {
			b.WriteString(", ")
		}
		name, _ := json.Marshal(p.Name)
		b.Write(name)
		b.WriteString(": [")
		for i := range args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.Write(ir.MarshalValue(args[i][j]))
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.Bytes()
}

// MarshalCase renders a case file: summary comments, the module as
// canonical WGSL, and the record.
func MarshalCase(m *ir.Module, rec *CaseRecord) ([]byte, error) {
	js, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return nil, err
	}
	if rec.IsFragment() || rec.IsDraw() {
		// A value per pixel and channel: each array of scalars on one
		// line (a texel, a vec4), not one line per number.
		js = scalarArray.ReplaceAllFunc(js, func(a []byte) []byte { return lineBreaks.ReplaceAll(a, nil) })
	}
	esc := strings.NewReplacer("/*", `/\u002a`, "*/", `\u002a/`).Replace(string(js))
	var b bytes.Buffer
	short := rec.Hash
	if len(short) > 12 {
		short = short[:12]
	}
	fmt.Fprintf(&b, "// gpudiff case %s — %s", short, rec.Verdict)
	if len(rec.Findings) > 0 {
		fmt.Fprintf(&b, " (%s on %s)", rec.Findings[0].Class, rec.Findings[0].Adapter)
	}
	b.WriteString("\n")
	if len(rec.Findings) > 0 {
		fmt.Fprintf(&b, "// %s\n", rec.Findings[0].Implicates)
	}
	if rec.IsEntry() {
		fmt.Fprintf(&b, "// entry point %s, workgroups %v; replay: gpudiff repro THIS_FILE\n\n", rec.Kernel, rec.Workgroups)
	} else if rec.IsFragment() || rec.IsDraw() {
		for _, r := range rec.Runs {
			if len(r.Leaves) > 0 {
				fmt.Fprintf(&b, "// %s %s %s: %d of %d pixels disagree: %s\n", r.Adapter, r.Function, r.Format, len(r.Mismatches), rec.Invocations, LeafSummary(r.Leaves))
			}
		}
		if rec.IsDraw() {
			fmt.Fprintf(&b, "// draw of vertex entry point %s and fragment entry point %s, %dx%d pixels", rec.Vertex, rec.Kernel, rec.Size[0], rec.Size[1])
			if rec.VertexSource != "" {
				b.WriteString(" (the vertex stage's module is the record's vertex_source)")
			}
			b.WriteString("; replay: gpudiff repro THIS_FILE\n\n")
		} else {
			fmt.Fprintf(&b, "// fragment entry point %s, %dx%d pixels; replay: gpudiff repro THIS_FILE\n\n", rec.Kernel, rec.Size[0], rec.Size[1])
		}
	} else {
		fmt.Fprintf(&b, "// kernel %s, %d invocations; replay: gpudiff repro THIS_FILE\n\n", rec.Kernel, rec.Invocations)
	}
	b.WriteString(ir.Print(m))
	b.WriteString("\n" + CaseMarker + "\n")
	b.WriteString(esc)
	b.WriteString("\n*/\n")
	return b.Bytes(), nil
}

// scalarArray matches a JSON array with no array or object inside;
// lineBreaks the indentation MarshalIndent put in it (a JSON string holds
// no raw newline, so every match is whitespace between tokens).
var (
	scalarArray = regexp.MustCompile(`\[[^\[\]{}]*\]`)
	lineBreaks  = regexp.MustCompile(`\n\s*`)
)

// WriteCase writes a case file atomically (temporary file in the same
// directory, fsync, rename): a reader never sees a half-written case.
func WriteCase(path string, m *ir.Module, rec *CaseRecord) error {
	data, err := MarshalCase(m, rec)
	if err != nil {
		return err
	}
	// A case nobody can replay is worse than none: read it back first, as
	// repro will, and write nothing when that fails.
	if _, _, err := parseCase(filepath.Base(path), data); err != nil {
		return fmt.Errorf("case for %s does not read back (a gpudiff bug; nothing written): %w", filepath.Base(path), err)
	}
	return WriteFileAtomic(path, data)
}

// WriteFileAtomic writes data to path (mode 0644) via a temporary file in
// the same directory, fsync and rename: a reader sees the old file or the
// whole new one, never a part, and a failure leaves nothing behind. A path
// that exists and is not a regular file (/dev/null, /dev/stdout, a named
// pipe) is written to directly: renaming over it would replace the device
// (as root, /dev/null itself) with a file.
func WriteFileAtomic(path string, data []byte) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	if _, err = tmp.Write(data); err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

// IsCase reports whether src is a case file.
func IsCase(src []byte) bool { return bytes.Contains(src, []byte(CaseMarker)) }

// ParseCase reads a function kernel's case file: the module (parsed as
// WGSL; the record's comment is ignored by the parser) and its record,
// checked against the module. Errors are positioned: file:line:col for
// the WGSL part and the JSON record. A compute entry point's case is
// refused (ParseCaseFile reads both kinds).
func ParseCase(file string, src []byte) (*KernelCase, *CaseRecord, error) {
	c, ec, rec, err := ParseCaseFile(file, src)
	if err == nil && ec != nil {
		return nil, nil, fmt.Errorf("%s: the case of compute entry point %s (workgroups %v) is a dispatch, not a function kernel's case", file, ec.Entry, rec.Workgroups)
	}
	return c, rec, err
}

// IsEntry reports whether the record is a compute entry point's case.
func (r *CaseRecord) IsEntry() bool { return len(r.Workgroups) > 0 }

// ParseCaseFile reads a case file of a function kernel (the *Case) or a
// compute entry point (the *ComputeCase: its entry point, workgroups and
// bindings); exactly one of them is non-nil on success. Errors are
// positioned as ParseCase's; a fragment entry point's case is refused,
// naming check.Load, which reads every kind (ParseFragmentCase).
func ParseCaseFile(file string, src []byte) (*KernelCase, *ComputeCase, *CaseRecord, error) {
	c, rec, err := parseCase(file, src)
	if err != nil {
		return nil, nil, nil, err
	}
	switch c := c.(type) {
	case *ComputeCase:
		return nil, c, rec, nil
	case *FragmentCase:
		return nil, nil, nil, fmt.Errorf("%s: the case of fragment entry point %s (%dx%d pixels) is a render, not a kernel's or a dispatch's case (gpudiff exec, repro and view take it)", file, c.Entry, c.Size[0], c.Size[1])
	case *Case:
		return nil, nil, nil, fmt.Errorf("%s: the case of the draw %s (%dx%d pixels) is a render, not a kernel's or a dispatch's case (gpudiff exec, repro and view take it)", file, drawLabel(c), c.Size[0], c.Size[1])
	}
	return c.(*KernelCase), nil, rec, nil
}

func parseCase(file string, src []byte) (any, *CaseRecord, error) {
	i := bytes.LastIndex(src, []byte(CaseMarker))
	if i < 0 {
		return nil, nil, fmt.Errorf("%s: not a gpudiff case file (no %q comment)", file, CaseMarker)
	}
	body := src[i+len(CaseMarker):]
	end := bytes.LastIndex(body, []byte("*/"))
	if end < 0 {
		return nil, nil, fmt.Errorf("%s:%s: unterminated case record comment", file, lineCol(src, i))
	}
	js := string(body[:end])
	var rec CaseRecord
	dec := json.NewDecoder(strings.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		off := i + len(CaseMarker)
		if se, ok := err.(*json.SyntaxError); ok {
			off += int(se.Offset)
		}
		return nil, nil, fmt.Errorf("%s:%s: case record: %v", file, lineCol(src, off), err)
	}
	if rec.Format != CaseFormat {
		return nil, nil, fmt.Errorf("%s: case record format %q, want %q", file, rec.Format, CaseFormat)
	}
	if rec.Fill != "" {
		if _, err := ParseFill(rec.Fill); err != nil {
			return nil, nil, fmt.Errorf("%s:%s: case record: fill: %v", file, lineCol(src, i+len(CaseMarker)+bytes.Index(body, []byte(`"fill"`))), err)
		}
	}
	m, err := wgsl.Parse(file, src)
	if err != nil {
		return nil, nil, err
	}
	if rec.IsEntry() && (rec.IsFragment() || rec.IsDraw()) {
		return nil, nil, fmt.Errorf("%s: case record: both workgroups (a compute entry point's) and size (a render's)", file)
	}
	if rec.VertexSource != "" && !rec.IsDraw() {
		return nil, nil, fmt.Errorf("%s: case record: vertex_source without vertex (a draw's vertex entry point)", file)
	}
	if rec.IsDraw() {
		at := i + len(CaseMarker)
		if k := bytes.Index(body, rec.Inputs); len(rec.Inputs) > 0 && k >= 0 {
			at += k
		}
		dc, err := parseDrawRecord(file, src, m, &rec, at)
		if err != nil {
			return nil, nil, err
		}
		return dc, &rec, nil
	}
	if rec.IsFragment() {
		fc, err := parseFragmentRecord(file, m, &rec, len(src))
		if err != nil {
			return nil, nil, err
		}
		return fc, &rec, nil
	}
	if rec.IsEntry() {
		ec, err := parseEntryRecord(file, m, &rec)
		if err != nil {
			return nil, nil, err
		}
		return ec, &rec, nil
	}
	f, err := wgsl.Kernel(m, rec.Kernel)
	if err != nil {
		return nil, nil, err
	}
	// A genuine record holds a reference value per invocation, so it
	// cannot count more invocations than the file has bytes: a larger
	// count is a corrupt record, refused before anything is allocated.
	if rec.Invocations < 1 || rec.Invocations > len(src) {
		return nil, nil, fmt.Errorf("%s: case record: %d invocations (want at least 1, and no more than the record can hold)", file, rec.Invocations)
	}
	args, err := ParseInputs(file+": inputs", rec.Inputs, f)
	if err != nil {
		return nil, nil, err
	}
	if len(f.Params) == 0 && len(args) == 0 {
		// A kernel without parameters: the record's count alone says how
		// many invocations there are.
		args = make([][]ir.Value, rec.Invocations)
		for i := range args {
			args[i] = []ir.Value{}
		}
	}
	if len(args) != rec.Invocations {
		return nil, nil, fmt.Errorf("%s: case record: %d invocations but inputs for %d", file, rec.Invocations, len(args))
	}
	return &KernelCase{Module: m, Kernel: f.Name, Args: args}, &rec, nil
}

// parseEntryRecord checks an entry point's record against its module and
// builds the case: the entry point, 1 to 3 workgroup counts (each ≥ 1)
// and the bindings' values.
func parseEntryRecord(file string, m *ir.Module, rec *CaseRecord) (*ComputeCase, error) {
	f, err := wgsl.Entry(m, rec.Kernel)
	if err != nil {
		return nil, err
	}
	if len(rec.Workgroups) > 3 || rec.Invocations != 1 {
		return nil, fmt.Errorf("%s: case record: an entry point's case has 1 to 3 workgroup counts and 1 invocation (the dispatch), got %v and %d", file, rec.Workgroups, rec.Invocations)
	}
	wg := [3]uint32{1, 1, 1}
	for i, n := range rec.Workgroups {
		if n == 0 {
			return nil, fmt.Errorf("%s: case record: workgroups %v has a count of 0", file, rec.Workgroups)
		}
		wg[i] = n
	}
	bufs, texs, smps, err := parseEntryInputs(file+": inputs", rec.Inputs, m)
	if err != nil {
		return nil, err
	}
	return &ComputeCase{Module: m, Entry: f.Name, Workgroups: wg, Buffers: bufs, Textures: texs, Samplers: smps}, nil
}

// ParseBindings decodes {binding: value} for m's storage and uniform
// bindings (a missing binding starts zeroed), laid out as their buffers
// (ir.Buffer). where prefixes error messages.
func ParseBindings(where string, raw json.RawMessage, m *ir.Module) (map[string]ir.Buffer, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%s: want a JSON object mapping binding names to values", where)
	}
	out := map[string]ir.Buffer{}
	for _, v := range m.Shared {
		r, ok := obj[v.Name]
		if !ok {
			continue
		}
		if v.Space == ir.SpaceWorkgroup {
			return nil, fmt.Errorf("%s: %s is workgroup memory, not a binding", where, v.Name)
		}
		val, err := ir.UnmarshalValue(v.T, r)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", where, v.Name, err)
		}
		b, err := ir.NewBuffer(v.T, val)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", where, v.Name, err)
		}
		out[v.Name] = b
		delete(obj, v.Name)
	}
	for k := range obj {
		return nil, fmt.Errorf("%s: the module has no storage or uniform binding named %q", where, k)
	}
	return out, nil
}

// BindingsJSON renders bindings as {binding: value} in the module's
// declaration order (exec --inputs' form for entry points), each buffer
// as its value (ir.MarshalValue's form).
func BindingsJSON(m *ir.Module, bufs map[string]ir.Buffer) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, v := range m.Shared {
		val, ok := bufs[v.Name]
		if !ok || v.Space == ir.SpaceWorkgroup {
			continue
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		name, _ := json.Marshal(v.Name)
		b.Write(name)
		b.WriteString(": ")
		// The buffer's leaves written as they lie (oracle's JSON of a
		// Buffer: ir.MarshalValue's text, without decoding a tree).
		b.Write(oracle.MarshalExpected(oracle.Expected{Buffer: val}))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// ParseInputs decodes {param: [value per invocation]} for f's parameters
// into args[invocation][param]. where prefixes error messages.
func ParseInputs(where string, raw json.RawMessage, f *ir.Func) ([][]ir.Value, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%s: want a JSON object mapping parameter names to arrays", where)
	}
	for k := range obj {
		found := false
		for _, p := range f.Params {
			found = found || p.Name == k
		}
		if !found {
			return nil, fmt.Errorf("%s: %s has no parameter %q", where, f.Name, k)
		}
	}
	n := -1
	cols := make([][]json.RawMessage, len(f.Params))
	for j, p := range f.Params {
		r, ok := obj[p.Name]
		if !ok {
			return nil, fmt.Errorf("%s: missing parameter %q of %s", where, p.Name, f.Name)
		}
		if err := json.Unmarshal(r, &cols[j]); err != nil || cols[j] == nil {
			return nil, fmt.Errorf("%s: parameter %q: want an array with one value per invocation", where, p.Name)
		}
		if n >= 0 && len(cols[j]) != n {
			return nil, fmt.Errorf("%s: parameter %q has %d values, %q has %d: every parameter needs one value per invocation",
				where, p.Name, len(cols[j]), f.Params[0].Name, n)
		}
		n = len(cols[j])
	}
	if n < 0 {
		n = 0
	}
	if n == 0 && len(f.Params) > 0 {
		return nil, fmt.Errorf("%s: no invocations: the parameters' arrays are empty (give one value per invocation, at least one)", where)
	}
	args := make([][]ir.Value, n)
	for i := range args {
		args[i] = make([]ir.Value, len(f.Params))
		for j, p := range f.Params {
			v, err := ir.UnmarshalValue(p.T, cols[j][i])
			if err != nil {
				return nil, fmt.Errorf("%s: %s[%d]: %v", where, p.Name, i, err)
			}
			args[i][j] = v
		}
	}
	return args, nil
}

func lineCol(src []byte, off int) string {
	line, col := 1, 1
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%d:%d", line, col)
}
