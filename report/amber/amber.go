package amber

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Buffer and pipeline names in exported scripts.
const (
	ShaderName   = "kernel"
	PipelineName = "pipeline"
	InputBuffer  = "in"
	OutputBuffer = "out"     // uint32: u32 and bool leaves
	OutputI32    = "out_i32" // COPY of out as int32
	OutputF32    = "out_f32" // COPY of out as float
)

// TargetEnv is the SPIR-V version the assembly is written for (gpudiff
// emits SPIR-V 1.3 for Vulkan 1.1).
const TargetEnv = "spv1.3"

// Options configures Export.
type Options struct {
	// Mode is the emission mode of the SPIR-V ("" means portable).
	Mode wgsl.Mode
	// Flat exports the kernel's flattened twin instead of the kernel.
	Flat    bool
	Flatten flatten.Options
	// Name names the case in comments (e.g. the file name).
	Name string
	// Source is the WGSL text quoted in comments ("" means ir.Print of
	// the module).
	Source string
	// Seed, Verdict and Tool are recorded in comments when set.
	Seed    *testcase.SeedInfo
	Verdict string
	Tool    string
	// Disassemble turns SPIR-V words into assembly that spirv-as accepts;
	// nil means Disassembler().
	Disassemble Disassembler
}

// Disassembler renders SPIR-V words as assembly and names itself.
type Disassembler struct {
	Name string
	Run  func([]uint32) (string, error)
}

// DefaultDisassembler is spirv-dis when it is installed (friendly names,
// the form driver engineers read), else gpudiff's own disassembler
// (spirv.Disassemble, `spirv-dis --raw-id` style), whose output spirv-as
// also accepts (tested).
func DefaultDisassembler() Disassembler {
	if path, err := exec.LookPath("spirv-dis"); err == nil {
		return Disassembler{Name: "spirv-dis", Run: func(words []uint32) (string, error) { return spirvDis(path, words) }}
	}
	return Gpudiff
}

// Gpudiff is gpudiff's own disassembler.
var Gpudiff = Disassembler{Name: "gpudiff's disassembler", Run: spirv.Disassemble}

func spirvDis(path string, words []uint32) (string, error) {
	dir, err := os.MkdirTemp("", "gpudiff-amber")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "k.spv")
	if err := os.WriteFile(in, WordsToBytes(words), 0o600); err != nil {
		return "", err
	}
	out, err := exec.Command(path, "--no-color", in, "-o", "-").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("spirv-dis: %v: %s", err, ee.Stderr)
		}
		return "", fmt.Errorf("spirv-dis: %v", err)
	}
	return string(out), nil
}

// WordsToBytes is the little-endian byte form of SPIR-V words.
func WordsToBytes(words []uint32) []byte {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// Script is an exported Amber script and what it holds.
type Script struct {
	Text         string
	Function     string // the exported function (kernel or twin; a draw's fragment entry point)
	Vertex       string // a draw's vertex entry point (or its twin)
	Disassembler string // which disassembler wrote the SHADER block
	Invocations  int
	InputStride  int // bytes per invocation record
	OutputStride int
	Groups       int // workgroups dispatched (ceil(Invocations/64))
	Expects      int // EXPECT lines
	Checked      int // output leaves checked
	Unchecked    int // indeterminate leaves (no EXPECT)
}

// leaf is one scalar of one output of one invocation.
type leaf struct {
	off   int // byte offset in the output buffer
	kind  ir.Kind
	value ir.Value
	tol   float64
	indet bool
	path  string
	why   string
}

// Export writes the Amber script of case c (see the package doc).
func Export(c *testcase.Case, opts Options) (*Script, error) {
	n := len(c.Args)
	if n == 0 {
		return nil, fmt.Errorf("amber: the case has no invocations")
	}
	mode := opts.Mode
	if mode == "" {
		mode = wgsl.Portable
	}
	dis := opts.Disassemble
	if dis.Run == nil {
		dis = DefaultDisassembler()
	}
	refABI, err := ir.NewKernelABI(c.Module, c.Func.Name)
	if err != nil {
		return nil, err
	}
	invs, err := interp.Run(c.Module, c.Func.Name, c.Args, interp.Options{})
	if err != nil {
		return nil, err
	}
	mod, fn := c.Module, c.Func.Name
	if opts.Flat {
		mod = ir.CloneModule(c.Module)
		tw, err := flatten.Function(mod, c.Func.Name, opts.Flatten)
		if err != nil {
			return nil, err
		}
		fn = tw.Name
	}
	abi, err := ir.NewKernelABI(mod, fn)
	if err != nil {
		return nil, err
	}
	asm, err := assembly(mod, fn, mode, dis)
	if err != nil {
		return nil, err
	}
	in, err := abi.EncodeInputs(c.Args)
	if err != nil {
		return nil, err
	}

	// Reference outputs by name (the twin's ABI lists the same outputs).
	refIdx := map[string]int{}
	for j, o := range refABI.Outputs {
		refIdx[o.Name] = j
	}
	var leaves [][]leaf // per invocation, in offset order
	for i, inv := range invs {
		var ls []leaf
		for _, o := range abi.Outputs {
			j, ok := refIdx[o.Name]
			if !ok {
				return nil, fmt.Errorf("amber: output %s of %s is not an output of %s", o.Name, fn, c.Func.Name)
			}
			base := i*abi.OutputStride + o.Offset
			if inv.Err != nil {
				collect(&ls, ir.Zero(o.T), base, o.Name, nil, nil, true, inv.Err.Error())
				continue
			}
			out := inv.Outputs[j]
			collect(&ls, out.Value, base, o.Name, out.Indeterminate, out.Tolerance, false, out.Why)
		}
		leaves = append(leaves, ls)
	}

	s := &Script{Function: fn, Disassembler: dis.Name, Invocations: n, InputStride: abi.InputStride,
		OutputStride: abi.OutputStride, Groups: (n + harness.WorkgroupSize - 1) / harness.WorkgroupSize}
	var b strings.Builder
	writeHeader(&b, c, opts, s, mode, fn)
	fmt.Fprintf(&b, "SHADER compute %s SPIRV-ASM TARGET_ENV %s\n", ShaderName, TargetEnv)
	b.WriteString(strings.TrimRight(asm, "\n"))
	b.WriteString("\nEND\n\n")

	// Input: the exact bytes of the kernel ABI, one line per invocation.
	fmt.Fprintf(&b, "# %s: %d input records of %d bytes (little-endian words; kernel ABI, ARCHITECTURE.md)\n", InputBuffer, n, abi.InputStride)
	fmt.Fprintf(&b, "BUFFER %s DATA_TYPE uint32 DATA\n", InputBuffer)
	f := c.Module.Func(c.Func.Name)
	for i := 0; i < n; i++ {
		rec := in[i*abi.InputStride : (i+1)*abi.InputStride]
		var words []string
		for k := 0; k+4 <= len(rec); k += 4 {
			words = append(words, strconv.FormatUint(uint64(binary.LittleEndian.Uint32(rec[k:])), 10))
		}
		fmt.Fprintf(&b, "  %s  # invocation %d: %s\n", strings.Join(words, " "), i, argsText(f, c.Args[i]))
	}
	b.WriteString("END\n")
	outWords := n * abi.OutputStride / 4
	fmt.Fprintf(&b, "# %s: %d output records of %d bytes, zero-filled; read as uint32 (u32 and bool leaves)\n", OutputBuffer, n, abi.OutputStride)
	fmt.Fprintf(&b, "BUFFER %s DATA_TYPE uint32 SIZE %d FILL 0\n", OutputBuffer, outWords)
	needI32, needF32 := false, false
	for _, ls := range leaves {
		for _, l := range ls {
			if !l.indet {
				needI32 = needI32 || l.kind == ir.KindI32
				needF32 = needF32 || l.kind == ir.KindF32
			}
		}
	}
	if needI32 {
		fmt.Fprintf(&b, "BUFFER %s DATA_TYPE int32 SIZE %d FILL 0  # %s's bytes as int32 (COPY below)\n", OutputI32, outWords, OutputBuffer)
	}
	if needF32 {
		fmt.Fprintf(&b, "BUFFER %s DATA_TYPE float SIZE %d FILL 0.0  # %s's bytes as float (COPY below)\n", OutputF32, outWords, OutputBuffer)
	}
	fmt.Fprintf(&b, "\nPIPELINE compute %s\n  ATTACH %s ENTRY_POINT %s\n", PipelineName, ShaderName, spirv.EntryPoint)
	fmt.Fprintf(&b, "  BIND BUFFER %s AS storage DESCRIPTOR_SET 0 BINDING 0\n", InputBuffer)
	fmt.Fprintf(&b, "  BIND BUFFER %s AS storage DESCRIPTOR_SET 0 BINDING 1\nEND\n\n", OutputBuffer)
	fmt.Fprintf(&b, "RUN %s %d 1 1  # ceil(%d invocations / workgroup size %d)\n", PipelineName, s.Groups, n, harness.WorkgroupSize)
	if needI32 {
		fmt.Fprintf(&b, "COPY %s TO %s\n", OutputBuffer, OutputI32)
	}
	if needF32 {
		fmt.Fprintf(&b, "COPY %s TO %s\n", OutputBuffer, OutputF32)
	}
	b.WriteString("\n# Expected values: gpudiff's reference interpreter (WGSL's runtime rules), IDX = byte offset.\n")
	for i, ls := range leaves {
		fmt.Fprintf(&b, "# invocation %d (%s): %s\n", i, argsText(f, c.Args[i]), refText(invs[i], refABI))
		writeExpects(&b, ls, s)
	}
	s.Text = b.String()
	return s, nil
}

// assembly emits fn's SPIR-V (with debug names) and disassembles it. Amber
// ends a SHADER block at the first "END" anywhere in its text
// (Tokenizer::ExtractToNext), so when a name would contain "END" the
// module is emitted without debug names.
func assembly(m *ir.Module, fn string, mode wgsl.Mode, dis Disassembler) (string, error) {
	return assemblyWith(m, fn, spirv.Options{Mode: mode}, dis)
}

// assemblyWith is assembly with the emitter's options o (DebugNames is
// assembly's to set).
func assemblyWith(m *ir.Module, fn string, o spirv.Options, dis Disassembler) (string, error) {
	for _, names := range []bool{true, false} {
		o.DebugNames = names
		words, err := spirv.Emit(m, fn, o)
		if err != nil {
			return "", err
		}
		asm, err := dis.Run(words)
		if err != nil {
			return "", err
		}
		if !strings.Contains(asm, "END") {
			return asm, nil
		}
	}
	return "", fmt.Errorf("amber: the SPIR-V assembly of %s contains \"END\", which would end Amber's SHADER block", fn)
}

// collect appends the leaves of v (an output at byte offset base) in
// layout order.
func collect(out *[]leaf, v ir.Value, base int, path string, indet []bool, tol []float64, allIndet bool, why string) {
	k := 0
	var rec func(v ir.Value, off int, path string)
	rec = func(v ir.Value, off int, path string) {
		switch v.Type.Kind {
		case ir.KindVec:
			for i, e := range v.Elems {
				rec(e, off+4*i, fmt.Sprintf("%s[%d]", path, i))
			}
		case ir.KindArray, ir.KindRuntimeArray, ir.KindMat:
			stride := ir.ArrayStride(v.Type)
			for i, e := range v.Elems {
				rec(e, off+stride*i, fmt.Sprintf("%s[%d]", path, i))
			}
		case ir.KindStruct:
			offs := ir.FieldOffsets(v.Type.Struct)
			for i, e := range v.Elems {
				rec(e, off+offs[i], path+"."+v.Type.Struct.Fields[i].Name)
			}
		default:
			l := leaf{off: off, kind: v.Type.Kind, value: v, path: path, indet: allIndet}
			if indet != nil && indet[k] {
				l.indet = true
			}
			if l.indet {
				l.why = why
			}
			if tol != nil {
				l.tol = tol[k]
			}
			k++
			*out = append(*out, l)
		}
	}
	rec(v, base, path)
}

// view is the buffer an EXPECT on a leaf of kind k in buffer base names:
// base itself (uint32), or its COPY as int32 (base_i32) or float
// (base_f32), as OutputBuffer's are OutputI32 and OutputF32.
func view(base string, k ir.Kind) string {
	switch k {
	case ir.KindI32:
		return base + "_i32"
	case ir.KindF32:
		return base + "_f32"
	}
	return base
}

// comparison is the comparator prefix of a leaf's EXPECT: "EQ" or
// "TOLERANCE <abs> EQ".
func comparison(l leaf) string {
	if l.kind != ir.KindF32 {
		return "EQ"
	}
	f := float64(l.value.F32())
	tol := l.tol
	if f != 0 && math.Abs(f) < 0x1p-126 {
		tol = math.Max(tol, math.Abs(f)) // WGSL may flush a subnormal result to zero
	}
	if tol == 0 {
		return "EQ"
	}
	return "TOLERANCE " + formatDecimal(tol, 64) + " EQ"
}

// Value renders a leaf for Amber: decimal integers (bool as 0 or 1),
// FormatFloat for f32.
func Value(v ir.Value) string {
	switch v.Type.Kind {
	case ir.KindI32:
		return strconv.FormatInt(int64(v.I32()), 10)
	case ir.KindF32:
		return FormatFloat(float64(v.F32()))
	}
	return strconv.FormatUint(uint64(v.Bits), 10)
}

// FormatFloat writes an f32 value as the shortest decimal that reads back
// to the same float32 (Amber converts EXPECT values of a float buffer to
// float), always with a '.', which Amber's tokenizer needs to read a number
// as floating point. A value that is not a float32 is written as the
// shortest decimal of the float64. Tolerances are written exactly as
// float64 (Amber compares in double), never rounded down.
func FormatFloat(f float64) string {
	if float64(float32(f)) == f {
		return formatDecimal(f, 32)
	}
	return formatDecimal(f, 64)
}

func formatDecimal(f float64, bits int) string {
	s := strconv.FormatFloat(f, 'g', -1, bits)
	if strings.Contains(s, ".") {
		return s
	}
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		return s[:i] + ".0" + s[i:]
	}
	return s + ".0"
}

// writeExpects writes one invocation's EXPECT lines: a run of leaves at
// consecutive offsets with the same view and comparison shares a line.
func writeExpects(b *strings.Builder, ls []leaf, s *Script) { writeExpectsIn(b, OutputBuffer, ls, s) }

// writeExpectsIn is writeExpects for the leaves of buffer base.
func writeExpectsIn(b *strings.Builder, base string, ls []leaf, s *Script) {
	for i := 0; i < len(ls); {
		l := ls[i]
		if l.indet {
			fmt.Fprintf(b, "#   %s at byte %d: indeterminate in WGSL (%s): no EXPECT\n", l.path, l.off, firstLine(l.why))
			s.Unchecked++
			i++
			continue
		}
		vals := []string{Value(l.value)}
		j := i + 1
		for ; j < len(ls); j++ {
			m := ls[j]
			if m.indet || view(base, m.kind) != view(base, l.kind) || comparison(m) != comparison(l) || m.off != ls[j-1].off+4 {
				break
			}
			vals = append(vals, Value(m.value))
		}
		fmt.Fprintf(b, "EXPECT %s IDX %d %s %s\n", view(base, l.kind), l.off, comparison(l), strings.Join(vals, " "))
		s.Expects++
		s.Checked += j - i
		i = j
	}
}

func argsText(f *ir.Func, args []ir.Value) string {
	parts := make([]string, len(args))
	for j, a := range args {
		parts[j] = f.Params[j].Name + " = " + oracle.Human(oracle.Expected{Value: a})
	}
	return strings.Join(parts, ", ")
}

func refText(inv interp.Invocation, abi *ir.KernelABI) string {
	if inv.Err != nil {
		return "no reference: " + firstLine(inv.Err.Error())
	}
	parts := make([]string, len(inv.Outputs))
	for j, o := range inv.Outputs {
		parts[j] = abi.Outputs[j].Name + " = " + oracle.Human(oracle.Expected{Value: o.Value, Indeterminate: o.Indeterminate})
	}
	return strings.Join(parts, ", ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func writeHeader(b *strings.Builder, c *testcase.Case, opts Options, s *Script, mode wgsl.Mode, fn string) {
	what := "function " + fn
	if fn != c.Func.Name {
		what += " (the flattened twin of " + c.Func.Name + ")"
	}
	writeScriptHeader(b, opts, c.Func.Name, fmt.Sprintf("%s, %d invocations", what, s.Invocations), s, mode, c.Module,
		"# The shader: entry point main, workgroup size 64; invocation i reads input record i (binding 0),\n"+
			"# calls the function and writes output record i (binding 1); invocations past the end return at once.\n")
}

// writeScriptHeader writes the comment every exported script opens with:
// the case's name (opts.Name, else name), what runs (what), the tool,
// verdict and seed it came with, how the SPIR-V was made and is run, what
// the shader does (shader: whole comment lines) and the WGSL source of m.
func writeScriptHeader(b *strings.Builder, opts Options, name, what string, s *Script, mode wgsl.Mode, m *ir.Module, shader string) {
	b.WriteString("#!amber\n")
	if opts.Name != "" {
		name = opts.Name
	}
	fmt.Fprintf(b, "# gpudiff case %s: %s, %s mode\n", name, what, mode)
	if opts.Tool != "" {
		fmt.Fprintf(b, "# tool: %s\n", opts.Tool)
	}
	if opts.Verdict != "" {
		fmt.Fprintf(b, "# recorded verdict: %s\n", opts.Verdict)
	}
	if sd := opts.Seed; sd != nil {
		fmt.Fprintf(b, "# seed: program %d of campaign seed %d (program seed %#x, size %d, profile %s)\n", sd.Index, sd.Campaign, sd.Program, sd.Size, sd.Profile)
	}
	fmt.Fprintf(b, "# SPIR-V: gpudiff's own emitter (SPIR-V 1.3, Vulkan 1.1 environment), %s mode; assembly by %s\n", mode, s.Disassembler)
	b.WriteString("# run: amber -v 1.1 THIS_FILE   (a Vulkan 1.1 device; SPIR-V 1.3)\n")
	b.WriteString(shader)
	writeSourceComment(b, opts.Source, m)
}

// ReadSPIRV reads a SPIR-V binary file as words.
func ReadSPIRV(path string) ([]uint32, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data)%4 != 0 {
		return nil, fmt.Errorf("%s: %d bytes is not a whole number of words", path, len(data))
	}
	words := make([]uint32, len(data)/4)
	if err := binary.Read(bytes.NewReader(data), binary.LittleEndian, words); err != nil {
		return nil, err
	}
	return words, nil
}

// writeSourceComment ends a script's header with the case's WGSL source
// (src, else m printed) as comment lines and a blank line.
func writeSourceComment(b *strings.Builder, src string, m *ir.Module) {
	if src == "" {
		src = ir.Print(m)
	}
	b.WriteString("#\n# WGSL source:\n")
	for _, l := range strings.Split(strings.TrimRight(src, "\n"), "\n") {
		b.WriteString("#   " + l + "\n")
	}
	b.WriteString("\n")
}
