package testcase

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// The case loader: the one place that turns a path (a .wgsl file or a case
// file), an inputs file and a command line's case flags into a case of any
// kind (Case). exec, view, emit, flatten, repro, export-amber (cmd/gpudiff)
// and the driver matrix's corpus (drivers/corpus.go) all load through it, so
// which kind a module runs, which inputs win and how an inputs file reads are
// decided here once (ARCHITECTURE.md "Kernel ABI", "Entry points as written").

// Kind is which of the three kinds of case a module runs.
type Kind int

const (
	// KindKernel is a function kernel on the kernel ABI (Case): one
	// argument list per invocation.
	KindKernel Kind = iota
	// KindCompute is a @compute entry point as written (ComputeCase): its
	// bindings' initial values and the dispatch size.
	KindCompute
	// KindFragment is a @fragment entry point as written (FragmentCase):
	// one invocation per pixel of a render target.
	KindFragment
	// KindDraw is a @vertex and a @fragment entry point drawn together, a
	// render pipeline as written (check/testcase/drawcase.go): Func is
	// the fragment entry point, Vertex the vertex one; the draw, its
	// vertex inputs, attachments and bindings are the case's.
	KindDraw
)

// KindOf is the one rule of which kind module m runs (wgsl.DefaultRunsEntry):
// kernel names the function ("" for the default): a draw (a module with a
// @vertex and a @fragment entry point and no @compute one, wgsl.IsDrawMode,
// kernel "" or naming one of them), else a @fragment entry point
// (wgsl.IsFragmentMode), else a @compute entry point (wgsl.IsEntryMode),
// else a function kernel. A draw of two files is the loader's
// (LoadOptions.Fragment).
func KindOf(m *ir.Module, kernel string) Kind {
	switch {
	case isDraw(m, LoadOptions{Kernel: kernel}):
		return KindDraw
	case wgsl.IsFragmentMode(m, kernel) && fullscreenDraw(m, kernel):
		return KindDraw
	case wgsl.IsFragmentMode(m, kernel):
		return KindFragment
	case wgsl.IsEntryMode(m, kernel):
		return KindCompute
	}
	return KindKernel
}

// Func resolves kernel ("" for the default) to the function of m that a case
// of kind k runs: wgsl.FragmentEntry, wgsl.Entry or wgsl.Kernel; for a draw
// wgsl.VertexEntry where kernel names a vertex entry point, else
// wgsl.DrawFragmentEntry. Errors are theirs (positioned, or naming the
// function).
func (k Kind) Func(m *ir.Module, kernel string) (*ir.Func, error) {
	switch k {
	case KindDraw:
		// A draw's vertex entry point when kernel names one, else its
		// fragment entry point.
		if f := m.Func(kernel); f != nil && f.Stage == ir.StageVertex {
			return wgsl.VertexEntry(m, kernel)
		}
		return wgsl.DrawFragmentEntry(m, kernel)
	case KindFragment:
		return wgsl.FragmentEntry(m, kernel)
	case KindCompute:
		return wgsl.Entry(m, kernel)
	}
	return wgsl.Kernel(m, kernel)
}

// Case is one case of any kind as a loader or generator makes it: the
// module, the function it runs, and that kind's inputs. Textures and
// samplers are bindings of every kind (Textures, Samplers).
type Case struct {
	Kind   Kind
	Module *ir.Module
	Func   *ir.Func // the kernel function or entry point
	// Args are a function kernel's arguments, Args[invocation][param]; for
	// a fragment entry point each pixel's position (FragmentPositions).
	Args [][]ir.Value
	// Bindings are the initial values of a compute entry point's storage
	// and uniform bindings by variable name (a missing one starts zeroed).
	Bindings map[string]ir.Buffer
	// Textures and Samplers are the contents of the module's texture
	// bindings and the descriptions of its sampler bindings, by variable
	// name (check/testcase/texture.go): given, recorded or made up.
	Textures map[string]*interp.Texture
	Samplers map[string]*interp.Sampler
	// Workgroups is a compute entry point's dispatch size, each ≥ 1.
	Workgroups [3]uint32
	// Size is a fragment entry point's or a draw's render target, width
	// and height in pixels.
	Size [2]uint32
	// A draw's (KindDraw, check/testcase/drawcase.go): the vertex entry
	// point and its module (VertexModule == Module when one file has
	// both stages; VertexSource the vertex file as read when two files
	// do), the draw as the GPU gets it, what the vertex stage reads from
	// its buffers (VertexInputs), and one attachment format per fragment
	// @location output, in location order. Bindings, Textures and
	// Samplers are then every binding either stage uses (both modules'
	// when two).
	VertexModule *ir.Module
	Vertex       *ir.Func
	VertexSource []byte
	Draw         *harness.Draw
	VertexInputs []VertexInput
	Attachments  []harness.AttachmentFormat
	// What the case's runs are made with, from the flags or a case file's
	// record: Options' Stages (function kernels only), Mode, Flat, SPIRV
	// and Fill (how the inputs were made up, "" when given).
	Stages      []oracle.Stage
	Mode        wgsl.Mode
	Flat, SPIRV bool
	Fill        Fill
	// Source is the file as read; Record its case record (nil for a plain
	// .wgsl file or a generated program).
	Source []byte
	Record *CaseRecord
}

// NewKernelCase is the case of function kernel kernel of m run with args
// (Args[invocation][param]); Func is nil when m has no such function
// (Execute's error).
func NewKernelCase(m *ir.Module, kernel string, args [][]ir.Value) *Case {
	return &Case{Kind: KindKernel, Module: m, Func: m.Func(kernel), Args: args}
}

// NewComputeCase is the case of compute entry point entry of m dispatched
// as workgroups (each ≥ 1) with bindings' initial values by variable name
// (a missing one starts zeroed); Func is nil when m has no such function.
func NewComputeCase(m *ir.Module, entry string, workgroups [3]uint32, bindings map[string]ir.Buffer) *Case {
	return &Case{Kind: KindCompute, Module: m, Func: m.Func(entry), Workgroups: workgroups, Bindings: bindings}
}

// Case is c as a case of any kind (Execute's).
func (c *KernelCase) Case() *Case { return NewKernelCase(c.Module, c.Kernel, c.Args) }

// Case is c as a case of any kind (Execute's).
func (c *ComputeCase) Case() *Case {
	return &Case{Kind: KindCompute, Module: c.Module, Func: c.Module.Func(c.Entry), Workgroups: c.Workgroups,
		Bindings: c.Buffers, Textures: c.Textures, Samplers: c.Samplers}
}

// Case is c as a case of any kind (Execute's).
func (c *FragmentCase) Case() *Case {
	f := c.Module.Func(c.Entry)
	cs := &Case{Kind: KindFragment, Module: c.Module, Func: f, Size: c.Size, Textures: c.Textures, Samplers: c.Samplers}
	if f != nil {
		cs.Args = FragmentPositions(c.Size[0], c.Size[1], len(f.Params))
	}
	return cs
}

// Kernel is the case as a function kernel's KernelCase (nil for another kind).
func (c *Case) Kernel() *KernelCase {
	if c.Kind != KindKernel {
		return nil
	}
	return &KernelCase{Module: c.Module, Kernel: c.Func.Name, Args: c.Args}
}

// Entry is the case as a compute entry point's ComputeCase (nil for another
// kind).
func (c *Case) Entry() *ComputeCase {
	if c.Kind != KindCompute {
		return nil
	}
	return &ComputeCase{Module: c.Module, Entry: c.Func.Name, Workgroups: c.Workgroups, Buffers: c.Bindings, Textures: c.Textures, Samplers: c.Samplers}
}

// Fragment is the case as a fragment entry point's FragmentCase (nil for
// another kind).
func (c *Case) Fragment() *FragmentCase {
	if c.Kind != KindFragment {
		return nil
	}
	return &FragmentCase{Module: c.Module, Entry: c.Func.Name, Size: c.Size, Textures: c.Textures, Samplers: c.Samplers}
}

// InputTable is c's inputs as the driver matrix lists them: the names of
// the parameters (a compute entry point's: its storage and uniform
// bindings, in module order), one row of human-readable values per
// invocation (a compute entry point's one row: each binding's initial
// value, zeroed where c gives none), and the inputs file's JSON
// (InputsJSON; EntryInputsJSON with every binding, the textures and the
// samplers, for a compute entry point). Params is nil for a kernel
// without parameters, empty for an entry point without bindings.
func (c *Case) InputTable() (params []string, rows [][]string, inputs json.RawMessage) {
	if c.Kind == KindDraw {
		// One row: each binding the stages use, then each vertex input's
		// values (one per buffer element).
		row := []string{}
		params = []string{}
		mods := []*ir.Module{c.Module}
		if c.TwoModules() {
			mods = []*ir.Module{c.VertexModule, c.Module}
		}
		seen := map[string]bool{}
		for _, m := range mods {
			for _, v := range m.Shared {
				if b, ok := c.Bindings[v.Name]; ok && !seen[v.Name] {
					seen[v.Name] = true
					params = append(params, v.Name)
					row = append(row, oracle.Human(oracle.Expected{Buffer: b}))
				}
			}
		}
		for _, vi := range c.VertexInputs {
			vals := make([]string, len(vi.Values))
			for i, v := range vi.Values {
				vals[i] = oracle.Human(oracle.Expected{Value: v})
			}
			params = append(params, vi.Name)
			row = append(row, "["+strings.Join(vals, ", ")+"]")
		}
		return params, [][]string{row}, DrawInputsJSON(c)
	}
	if c.Kind == KindCompute {
		full := map[string]ir.Buffer{}
		row := []string{}
		params = []string{}
		for _, v := range c.Module.Shared {
			if v.Space == ir.SpaceWorkgroup {
				continue
			}
			val, ok := c.Bindings[v.Name]
			if !ok {
				val = ir.ZeroBuffer(v.T)
			}
			full[v.Name] = val
			params = append(params, v.Name)
			row = append(row, oracle.Human(oracle.Expected{Buffer: val}))
		}
		// The inputs file's form: the buffers, then the textures and
		// samplers the case gives.
		return params, [][]string{row}, EntryInputsJSON(&ComputeCase{Module: c.Module, Buffers: full, Textures: c.Textures, Samplers: c.Samplers})
	}
	for _, p := range c.Func.Params {
		params = append(params, p.Name)
	}
	for _, args := range c.Args {
		row := make([]string, len(args))
		for j, a := range args {
			row[j] = oracle.Human(oracle.Expected{Value: a})
		}
		rows = append(rows, row)
	}
	return params, rows, InputsJSON(c.Func, c.Args)
}

// Invocations is how many invocations c's result has: a function kernel's
// argument lists, a fragment entry point's or a draw's pixels, a compute
// entry point's one dispatch.
func (c *Case) Invocations() int {
	switch c.Kind {
	case KindCompute:
		return 1
	case KindDraw:
		return int(c.Size[0]) * int(c.Size[1])
	}
	return len(c.Args)
}

// DefaultInvocations is a function kernel's invocation count when neither
// the inputs nor --invocations give one.
const DefaultInvocations = 64

// LoadOptions are what a command line says about the case to load, parsed:
// the case flags (exec's and view's; export-amber's and the driver matrix's
// subsets), each as its value when the flag was given and its zero value
// (nil, "", 0) when it was not, since which of them apply and what a missing
// one defaults to depend on the kind and on a case file's record.
// cmd/gpudiff parses the flag text (ParseFill, ParseWorkgroups, ParseSize,
// wgsl.ParseMode, check.ParseStages) and reports a bad value itself.
type LoadOptions struct {
	// Kernel is --kernel ("" for the default, or a case file's kernel);
	// KernelNamedLikeFile makes the default the function named like the
	// file when there is one (the driver matrix's corpus).
	Kernel              string
	KernelNamedLikeFile bool
	// Inputs is --inputs ("" none). Without it, NAME.inputs.json beside
	// NAME.wgsl is read unless --seed, --fill or --invocations is given or
	// --kernel names another function than NAME.
	Inputs string
	// Seed is --seed (nil: not given, seed 1). Fill is --fill ("": not
	// given; then DefaultFill, else the kind's default: FillEdges for a
	// kernel's arguments, FillSmall for bindings). Invocations is
	// --invocations (0: not given: the inputs' count, else
	// DefaultInvocations).
	Seed        *uint64
	Fill        Fill
	DefaultFill Fill
	Invocations int
	// Workgroups is --workgroups, a compute entry point's dispatch size
	// (nil: the inputs file's, a case file's, else 1, 1, 1); Size is
	// --size, a fragment entry point's target in pixels (nil: a case
	// file's, else DefaultFragmentSize); Stages is --stage (nil: compute);
	// Mode is --mode ("": a case file's recorded mode, else portable).
	Workgroups *[3]uint32
	Size       *[2]uint32
	Stages     []oracle.Stage
	Mode       wgsl.Mode
	// Flat and SPIRV are --flat and --spirv (nil: not given: false, or
	// with Recorded a case file's recorded choice, as repro replays it:
	// view).
	Flat, SPIRV *bool
	Recorded    bool
	// Fragment is the second file of a draw of two modules (gpudiff exec
	// VERT.wgsl FRAG.wgsl): the fragment stage's module; the path Load
	// takes is then the vertex stage's ("": one file). VertexEntry and
	// FragmentEntry are --vertex and --fragment: a draw's entry points
	// ("": the module's only one; among several vertex entry points, the
	// only one the fragment's inputs match). Giving any of them makes the
	// case a draw — except FragmentEntry alone on a .wgsl module with no
	// @vertex entry point, which names that fragment entry point drawn
	// alone, as Kernel does (a fragment case, or a draw after gpudiff's
	// full-screen triangle: fullscreen.go).
	Fragment                   string
	VertexEntry, FragmentEntry string
	// CaseFileOnly refuses a path that is not a case file (repro), before
	// parsing it.
	CaseFileOnly bool
	// KernelOnly loads a function kernel whatever else the module
	// declares (a fragment entry point is refused: RenderCaseError), with
	// export-amber's inputs: a case file's, --inputs, NAME.inputs.json
	// beside the file, else Invocations (≥ 1) seeded ones; a compute entry
	// point (its case file, or the kernel KindOf names) loads as without
	// KernelOnly.
	KernelOnly bool
	// Overrides are the pipeline constants the module is parsed with.
	Overrides map[string]float64
	// MaxInvocations bounds a dispatch or a render target before anything
	// is allocated for it (0: unbounded).
	MaxInvocations int
	// ReadFile reads the file and the inputs file (nil: os.ReadFile);
	// CheckKernel, when set, checks a function kernel run n times against
	// the caller's limits before its arguments are made up and once they
	// are known. Their errors are returned as they are.
	ReadFile    func(path string) ([]byte, error)
	CheckKernel func(m *ir.Module, f *ir.Func, n int) error
	// Warn receives the notes a module's loading gives, each a line
	// positioned in the file (an override given no constant); WarnFlag a
	// flag that changes nothing, its text naming the flag ("--seed 2
	// changes nothing …", which cmd/gpudiff prints after "gpudiff
	// COMMAND: warning: "). nil: none.
	Warn     io.Writer
	WarnFlag func(msg string)
}

// seed is --seed, or 1 when it is not given.
func (o *LoadOptions) seed() uint64 {
	if o.Seed == nil {
		return 1
	}
	return *o.Seed
}

// FlagError is a loader error that is the command line's fault: a flag
// that does not apply to the case's kind, a value the case cannot take, or
// a flag that disagrees with the inputs. Msg names the flag
// ("--size is for fragment entry points; …"); cmd/gpudiff prints it after
// "gpudiff COMMAND: " and exits 2.
type FlagError struct{ Msg string }

func (e *FlagError) Error() string { return e.Msg }

func flagf(format string, args ...any) error { return &FlagError{Msg: fmt.Sprintf(format, args...)} }

// RenderCaseError is KernelOnly's refusal of a fragment entry point's case
// file (a render pipeline): Path, its entry point and target size in
// pixels. cmd/gpudiff names the command that refuses it.
type RenderCaseError struct {
	Path, Entry string
	Size        [2]uint32
}

func (e *RenderCaseError) Error() string {
	return fmt.Sprintf("%s is the case of fragment entry point %s (%dx%d pixels): a render pipeline", e.Path, e.Entry, e.Size[0], e.Size[1])
}

// UsageError is a loader error in what the command line names that is not
// the source's (a case record's or an inputs file's content, positioned in
// that file); its text is the whole message. It means exit 2 in
// cmd/gpudiff, as a FlagError does.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func (o *LoadOptions) usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

func (o *LoadOptions) read(path string) ([]byte, error) {
	if o.ReadFile != nil {
		return o.ReadFile(path)
	}
	return os.ReadFile(path)
}

// LoadModule reads path and parses it (or a case file's WGSL part) with o's
// overrides; it returns the module and the file's bytes. Errors are
// positioned (file:line:col: …) or ReadFile's.
func LoadModule(path string, o LoadOptions) (*ir.Module, []byte, error) {
	src, err := o.read(path)
	if err != nil {
		return nil, nil, err
	}
	m, err := wgsl.ParseWith(path, src, wgsl.ParseOptions{Overrides: o.Overrides})
	if err != nil {
		return nil, nil, err
	}
	noteOverrides(m, o)
	return m, src, nil
}

// Load turns path (a .wgsl file or a case file, check.IsCase) and o into a
// case: which kind (KindOf; a case file's record says), which function, and
// its inputs: a case file's own unless o overrides them, --inputs, the
// inputs file beside the source, or made up as o.Fill says. Errors keep the
// text the CLI prints: positioned source, record and inputs errors
// (file:line:col: …), and *UsageError for flags that do not apply.
func Load(path string, o LoadOptions) (*Case, error) {
	c, err := load(path, o)
	if err != nil {
		return nil, err
	}
	return c, nil
}

func load(path string, o LoadOptions) (*Case, error) {
	if o.CaseFileOnly {
		src, err := o.read(path)
		if err != nil {
			return nil, err
		}
		if !IsCase(src) {
			return nil, fmt.Errorf("%s: not a gpudiff case file (no %q comment)", path, CaseMarker)
		}
	}
	m, src, err := LoadModule(path, o)
	if err != nil {
		return nil, err
	}
	c := &Case{Module: m, Source: src, Flat: o.Flat != nil && *o.Flat, SPIRV: o.SPIRV != nil && *o.SPIRV, Mode: wgsl.Portable}
	if o.KernelOnly && drawFile(m, src, path, o) {
		// A draw (its case file, or a module that draws) loads as exec
		// loads it: export-amber writes it as a graphics pipeline.
		o.KernelOnly = false
	}
	if o.KernelOnly {
		// A compute entry point (its case file, or named by --kernel or
		// the module's default) loads as exec loads it.
		if IsCase(src) {
			pc, rec, err := parseCase(path, src)
			if fc, ok := pc.(*FragmentCase); err == nil && ok {
				return nil, &RenderCaseError{Path: path, Entry: fc.Entry, Size: fc.Size}
			}
			if ec, ok := pc.(*ComputeCase); err == nil && ok {
				c.Record, c.Module, c.Kind = rec, ec.Module, KindCompute
				return c, c.loadCompute(path, o, ec)
			}
		} else if KindOf(m, o.Kernel) == KindCompute {
			c.Kind = KindCompute
			return c, c.loadCompute(path, o, nil)
		}
		return c, c.loadKernelOnly(path, o)
	}
	if o.Mode != "" {
		c.Mode = o.Mode
	}
	var saved *KernelCase
	if IsCase(src) {
		pc, rec, err := parseCase(path, src)
		if err != nil {
			return nil, err
		}
		c.Record = rec
		switch pc := pc.(type) {
		case *ComputeCase:
			// A compute entry point's case file: its dispatch, bindings
			// and mode.
			c.Module, c.Kind = pc.Module, KindCompute
			return c, c.loadCompute(path, o, pc)
		case *FragmentCase:
			// A fragment entry point's: its target, textures and mode.
			if o.Fragment != "" || o.VertexEntry != "" || o.FragmentEntry != "" {
				return nil, flagf("%s is the case of fragment entry point %s drawn alone: a second file, --vertex and --fragment are for draws", path, pc.Entry)
			}
			c.Module, c.Kind = pc.Module, KindFragment
			return c, c.loadFragment(path, o, pc)
		case *Case:
			// A draw's: its entry points, draw, bindings and mode.
			if o.Fragment != "" {
				return nil, flagf("%s is a case file, which holds its draw's modules: give it alone", path)
			}
			c.Module, c.Kind, c.Source, c.VertexSource = pc.Module, KindDraw, pc.Source, pc.VertexSource
			return c, c.loadDraw(path, o, pc)
		}
		saved = pc.(*KernelCase)
	}
	if saved == nil {
		// --fragment E on a module with no vertex entry point is E
		// drawn alone (drawload.go).
		if o, err = o.fragmentAlone(m); err != nil {
			return nil, err
		}
	}
	kernel := o.Kernel
	if o.KernelNamedLikeFile && saved == nil && kernel == "" && m.Func(strings.TrimSuffix(filepath.Base(path), ".wgsl")) != nil {
		kernel = strings.TrimSuffix(filepath.Base(path), ".wgsl")
		o.Kernel = kernel
	}
	if saved == nil && isDraw(m, o) {
		return c, c.loadDraw(path, o, nil)
	}
	if saved == nil && kernel == "" {
		if err := vertexAlone(m); err != nil {
			return nil, err
		}
	}
	if saved == nil && wgsl.IsFragmentMode(m, kernel) {
		if fullscreenDraw(m, kernel) {
			return c, c.loadFullscreenDraw(path, o)
		}
		c.Kind = KindFragment
		return c, c.loadFragment(path, o, nil)
	}
	if o.Size != nil {
		return nil, flagf("--size is for fragment entry points; a kernel's invocations are --invocations N")
	}
	if saved == nil && wgsl.IsEntryMode(m, kernel) {
		c.Kind = KindCompute
		return c, c.loadCompute(path, o, nil)
	}
	return c, c.loadKernel(path, o, saved)
}

// fill is --fill when given, else DefaultFill, else def.
func (o *LoadOptions) fill(def Fill) Fill {
	switch {
	case o.Fill != "":
		return o.Fill
	case o.DefaultFill != "":
		return o.DefaultFill
	}
	return def
}

// recorded returns a case file's recorded --flat or --spirv (rec) unless
// the flag is given (given), when a replay takes the record's choices
// (Recorded): have, the flag's value, otherwise.
func (o *LoadOptions) recorded(have bool, given *bool, rec bool) bool {
	return have || o.Recorded && given == nil && rec
}

// noteOverrides tells o.Warn, once per override, the pipeline constant
// gpudiff supplied to an override with no default and none given
// (wgsl.DefaultOverrideConstant, ir.Opaque.Supplied) and how to choose
// another.
func noteOverrides(m *ir.Module, o LoadOptions) {
	for _, d := range m.Opaque {
		if o.Warn != nil && d.Supplied != "" {
			key, _, _ := strings.Cut(d.Supplied, "=")
			fmt.Fprintf(o.Warn, "%s:%s: note: override %s has no default value and no pipeline constant was given: gpudiff supplies the constant %s (true for a bool, 1 for a number: the smallest valid workgroup size or array count) to the reference and every GPU run; choose another with --override %s=VALUE\n", m.File, d.Pos, d.Name, d.Supplied, key)
		}
	}
	// The front end's own notes (wgsl.Notes: subgroup operations without
	// `enable subgroups;`, accepted as naga accepts them).
	if o.Warn != nil {
		for _, n := range wgsl.Notes(m) {
			fmt.Fprintln(o.Warn, n.Error())
		}
	}
}

// warnSeed warns when --seed is given but fill ignores seeds (zero, iota,
// small), instead of letting it silently change nothing.
func (o *LoadOptions) warnSeed(fill Fill) {
	if o.WarnFlag != nil && o.Seed != nil && fill != FillEdges && fill != FillRandom {
		o.WarnFlag(fmt.Sprintf("--seed %d changes nothing under --fill %s (only edges and random are seeded)", *o.Seed, fill))
	}
}

// BesideInputs returns NAME.inputs.json beside the WGSL file NAME.wgsl when
// it exists and kernel ("" for the default) is the one it is written for:
// the default kernel or the function NAME. It is "" otherwise.
func BesideInputs(path, kernel string) string {
	stem := strings.TrimSuffix(path, ".wgsl")
	if stem == path || (kernel != "" && kernel != filepath.Base(stem)) {
		return ""
	}
	in := stem + ".inputs.json"
	if st, err := os.Stat(in); err != nil || st.IsDir() {
		return ""
	}
	return in
}

// loadKernel loads a function kernel's case (saved: the case file's).
func (c *Case) loadKernel(path string, o LoadOptions, saved *KernelCase) error {
	kernel := o.Kernel
	if saved != nil && kernel == "" {
		kernel = saved.Kernel
	}
	f, err := wgsl.Kernel(c.Module, kernel)
	if err != nil {
		return err
	}
	c.Func, c.Kind, c.Stages = f, KindKernel, o.Stages
	if c.Stages == nil {
		c.Stages = []oracle.Stage{oracle.StageCompute}
	}
	fill := o.fill(FillEdges)
	// seeded generates n arguments (0: the default count) once the limits
	// allow n invocations: nothing is allocated for an impossible count.
	seeded := func(n int) ([][]ir.Value, error) {
		if n == 0 {
			n = DefaultInvocations
		}
		if err := o.checkKernel(c.Module, f, n); err != nil {
			return nil, err
		}
		return FillArgs(fill, o.seed(), f.Params, n), nil
	}
	inputs := o.Inputs
	if inputs != "" && o.Fill != "" && len(f.Params) > 0 {
		return flagf("--fill makes up what --inputs does not give, but a function kernel's --inputs gives every parameter of %s", f.Name)
	}
	if inputs == "" && saved == nil && o.Seed == nil && o.Invocations == 0 && o.Fill == "" {
		inputs = BesideInputs(path, o.Kernel)
	}
	switch {
	case saved != nil && o.Inputs == "" && f.Name == saved.Kernel:
		// A case file carries its own inputs (and its recorded mode).
		rec := c.Record
		c.Args, c.Fill = saved.Args, Fill(rec.Fill)
		c.Flat, c.SPIRV = o.recorded(c.Flat, o.Flat, rec.Flat), o.recorded(c.SPIRV, o.SPIRV, rec.SPIRV)
		if o.Mode == "" && rec.Mode != "" {
			if c.Mode, err = wgsl.ParseMode(rec.Mode); err != nil {
				return o.usagef("%s: case record: %v", path, err)
			}
		}
	case inputs != "":
		if c.Args, err = o.readInputs(inputs, f); err != nil {
			return err
		}
		if len(f.Params) == 0 {
			// No parameter gives the count: --invocations (or 64) does.
			if c.Args, err = seeded(o.Invocations); err != nil {
				return err
			}
		}
		if o.Invocations != 0 && o.Invocations != len(c.Args) {
			return flagf("--invocations %d disagrees with the %d values per parameter in %s", o.Invocations, len(c.Args), inputs)
		}
	default:
		if c.Args, err = seeded(o.Invocations); err != nil {
			return err
		}
		c.Fill = fill
		o.warnSeed(fill)
	}
	return o.checkKernel(c.Module, f, len(c.Args))
}

func (o *LoadOptions) checkKernel(m *ir.Module, f *ir.Func, n int) error {
	if o.CheckKernel == nil {
		return nil
	}
	return o.CheckKernel(m, f, n)
}

// loadKernelOnly loads export-amber's function kernel (LoadOptions.KernelOnly).
func (c *Case) loadKernelOnly(path string, o LoadOptions) error {
	c.Mode = wgsl.Portable
	var saved *KernelCase
	if IsCase(c.Source) {
		fc, rec, err := ParseCase(path, c.Source)
		if err != nil {
			return err
		}
		saved, c.Record = fc, rec
		if rec.Mode != "" {
			if c.Mode, err = wgsl.ParseMode(rec.Mode); err != nil {
				return o.usagef("%s: case record: %v", path, err)
			}
		}
	}
	if o.Mode != "" {
		c.Mode = o.Mode
	}
	kernel := o.Kernel
	if saved != nil && kernel == "" {
		kernel = saved.Kernel
	}
	f, err := wgsl.Kernel(c.Module, kernel)
	if err != nil {
		return err
	}
	c.Func, c.Kind = f, KindKernel
	inputs := o.Inputs
	if inputs == "" && saved == nil {
		if beside := strings.TrimSuffix(path, ".wgsl") + ".inputs.json"; fileExists(beside) {
			inputs = beside
		}
	}
	switch {
	case o.Inputs == "" && saved != nil && f.Name == saved.Kernel:
		c.Args = saved.Args
	case inputs != "":
		c.Args, err = o.readInputs(inputs, f)
		return err
	default:
		n := o.Invocations
		if n == 0 {
			n = DefaultInvocations
		}
		if err := o.checkKernel(c.Module, f, n); err != nil {
			return err
		}
		c.Args = FillArgs(FillEdges, o.seed(), f.Params, n)
	}
	return nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// loadCompute loads a compute entry point's case (saved: the case file's,
// whose recorded dispatch, bindings and mode are the defaults).
func (c *Case) loadCompute(path string, o LoadOptions, saved *ComputeCase) error {
	m := c.Module
	var err error
	if saved != nil {
		rec := c.Record
		if o.Mode == "" {
			if c.Mode, err = wgsl.ParseMode(rec.Mode); err != nil {
				return o.usagef("%s: case record: %v", path, err)
			}
		}
		c.Flat, c.SPIRV = o.recorded(c.Flat, o.Flat, rec.Flat), o.recorded(c.SPIRV, o.SPIRV, rec.SPIRV)
	}
	if o.Invocations != 0 {
		return flagf("--invocations is for function kernels; an entry point's dispatch size is --workgroups X[,Y[,Z]]")
	}
	if len(o.Stages) > 1 || len(o.Stages) == 1 && o.Stages[0] != oracle.StageCompute {
		return flagf("--stage %s is for function kernels; a compute entry point runs as written, in the compute stage", StagesText(o.Stages))
	}
	kernel := o.Kernel
	if saved != nil && kernel == "" {
		kernel = saved.Entry
	}
	f, err := wgsl.Entry(m, kernel)
	if err != nil {
		return err
	}
	c.Func = f
	wg := [3]uint32{1, 1, 1}
	if saved != nil {
		wg = saved.Workgroups
	}
	if o.Workgroups != nil {
		wg = *o.Workgroups
	}
	if err := o.checkDispatch(f, wg); err != nil {
		return err
	}
	fill := o.fill(FillSmall)
	inputs := o.Inputs
	if inputs == "" && o.Seed == nil && o.Fill == "" && saved == nil {
		inputs = BesideInputs(path, o.Kernel)
		if inputs != "" && o.Kernel != "" && o.Kernel != f.Name {
			inputs = ""
		}
	}
	switch {
	case inputs != "":
		var fileWG *[3]uint32
		if c.Bindings, fileWG, err = o.readBindingInputs(inputs, m, c); err != nil {
			return err
		}
		if fileWG != nil && o.Workgroups == nil {
			wg = *fileWG
			if err := o.checkDispatch(f, wg); err != nil {
				return err
			}
		}
		if o.Fill != "" {
			// --fill fills the bindings the file does not give (without
			// it they start zeroed, as WebGPU's new buffers do).
			for name, v := range FillBindings(fill, o.seed(), m, f, wg) {
				if _, given := c.Bindings[name]; !given {
					c.Bindings[name], c.Fill = v, fill
				}
			}
			for _, v := range m.Textures {
				if _, given := c.Textures[v.Name]; !given && v.T.Kind == ir.KindTexture {
					c.Fill = fill
				}
			}
			err = FillMissingTextures(m, c.Textures, c.Samplers, fill, o.seed())
		} else {
			// Without --fill the textures it does not give start zeroed.
			err = FillMissingTextures(m, c.Textures, c.Samplers, FillZero, 0)
		}
		if err != nil {
			return err
		}
	case saved != nil && o.Seed == nil && o.Fill == "":
		c.Bindings, c.Fill = saved.Buffers, Fill(c.Record.Fill)
		c.Textures, c.Samplers = saved.Textures, saved.Samplers
	default:
		c.Bindings, c.Fill = FillBindings(fill, o.seed(), m, f, wg), fill
		if len(m.Textures) > 0 {
			if c.Textures, c.Samplers, err = FillTextures(fill, o.seed(), m); err != nil {
				return err
			}
		}
		o.warnSeed(fill)
	}
	c.Workgroups = wg
	return nil
}

// maxDispatchInvocations is the largest dispatch the reference runs
// (interp.Dispatch.Run: 2^26 invocations).
const maxDispatchInvocations = 1 << 26

// checkDispatch checks a dispatch of wg workgroups of entry point f against
// MaxInvocations and the reference's own bound, naming the flags to change,
// before anything is allocated for it.
func (o *LoadOptions) checkDispatch(f *ir.Func, wg [3]uint32) error {
	if o.MaxInvocations == 0 {
		return nil
	}
	ws := f.WorkgroupSize
	total := uint64(wg[0]) * uint64(wg[1]) * uint64(wg[2]) * uint64(ws[0]) * uint64(ws[1]) * uint64(ws[2])
	what := fmt.Sprintf("%d×%d×%d workgroups of %d×%d×%d invocations (@workgroup_size of %s) are %d invocations",
		wg[0], wg[1], wg[2], ws[0], ws[1], ws[2], f.Name, total)
	if total > uint64(o.MaxInvocations) {
		return flagf("%s, over the limit of %d (lower --workgroups, or raise --max-invocations)", what, o.MaxInvocations)
	}
	if total > maxDispatchInvocations {
		return flagf("%s, over the %d the reference interpreter dispatches (lower --workgroups)", what, maxDispatchInvocations)
	}
	return nil
}

// loadFragment loads a fragment entry point's case: every pixel of a --size
// target (default DefaultFragmentSize) is one invocation. The arguments and
// dispatch flags of kernels and compute entry points do not apply. A module
// with texture or sampler bindings takes them as a compute entry point
// does (loadTextures): --inputs, the inputs file beside it, or made up as
// --fill and --seed say. saved is the case file's (nil for a module): its
// entry point, size, textures and samplers and recorded mode are the
// defaults, as a compute case file's are.
func (c *Case) loadFragment(path string, o LoadOptions, saved *FragmentCase) error {
	textures := len(c.Module.Textures) > 0
	for _, fl := range []struct {
		name  string
		given bool
	}{{"inputs", o.Inputs != ""}, {"seed", o.Seed != nil}, {"invocations", o.Invocations != 0}, {"workgroups", o.Workgroups != nil}} {
		if textures && (fl.name == "inputs" || fl.name == "seed") {
			continue
		}
		if fl.given {
			return flagf("--%s is for kernels and compute entry points; a fragment entry point runs once per pixel of --size WxH", fl.name)
		}
	}
	if o.Stages != nil && !(len(o.Stages) == 1 && o.Stages[0] == oracle.StageFragment) {
		return flagf("--stage %s: a fragment entry point runs as written, in the fragment stage", StagesText(o.Stages))
	}
	kernel := o.Kernel
	if saved != nil {
		rec := c.Record
		if kernel == "" {
			kernel = saved.Entry
		}
		c.Flat, c.SPIRV = o.recorded(c.Flat, o.Flat, rec.Flat), o.recorded(c.SPIRV, o.SPIRV, rec.SPIRV)
		if o.Mode == "" && rec.Mode != "" {
			var err error
			if c.Mode, err = wgsl.ParseMode(rec.Mode); err != nil {
				return o.usagef("%s: case record: %v", path, err)
			}
		}
	}
	f, err := wgsl.FragmentEntry(c.Module, kernel)
	if err != nil {
		return err
	}
	c.Func, c.Size = f, DefaultFragmentSize
	if saved != nil {
		c.Size = saved.Size
	}
	if o.Size != nil {
		c.Size = *o.Size
	}
	if n := int64(c.Size[0]) * int64(c.Size[1]); o.MaxInvocations != 0 && n > int64(o.MaxInvocations) {
		return flagf("--size %dx%d is %d pixels, over the limit of %d invocations (raise it with --max-invocations)", c.Size[0], c.Size[1], n, o.MaxInvocations)
	}
	c.Args = FragmentPositions(c.Size[0], c.Size[1], len(f.Params))
	if !textures {
		return nil
	}
	if saved != nil && o.Inputs == "" && o.Seed == nil && o.Fill == "" {
		// A case file carries its own textures and samplers.
		c.Textures, c.Samplers, c.Fill = saved.Textures, saved.Samplers, Fill(c.Record.Fill)
		return nil
	}
	if saved != nil {
		// --inputs, --seed or --fill replace the recorded textures; the
		// inputs file beside a case file is not its own.
		path = ""
	}
	return c.loadTextures(path, o, f)
}

// loadTextures loads a fragment entry point's textures and samplers as
// loadCompute loads a compute entry point's: the inputs file's texture and
// sampler entries (--inputs, else NAME.inputs.json beside the file unless
// --seed or --fill is given), the rest zeroed or, with --fill, made up;
// without an inputs file all made up as --fill (default small) and --seed
// say. An inputs file's other entries are refused: a fragment entry point
// takes no buffers.
func (c *Case) loadTextures(path string, o LoadOptions, f *ir.Func) error {
	m := c.Module
	fill := o.fill(FillSmall)
	inputs := o.Inputs
	if inputs == "" && o.Seed == nil && o.Fill == "" {
		inputs = BesideInputs(path, o.Kernel)
	}
	if inputs == "" {
		var err error
		if c.Textures, c.Samplers, err = FillTextures(fill, o.seed(), m); err != nil {
			return err
		}
		c.Fill = fill
		o.warnSeed(fill)
		return nil
	}
	bufs, wg, err := o.readBindingInputs(inputs, m, c)
	if err != nil {
		return err
	}
	if len(bufs) > 0 || wg != nil {
		var names []string
		for k := range bufs {
			names = append(names, k)
		}
		if wg != nil {
			names = append(names, "workgroups")
		}
		sort.Strings(names)
		return o.usagef("%s: %s: a fragment entry point takes textures and samplers only (%s takes no buffers or dispatch size)", inputs, strings.Join(names, ", "), f.Name)
	}
	if o.Fill == "" {
		// Without --fill the textures it does not give start zeroed.
		return FillMissingTextures(m, c.Textures, c.Samplers, FillZero, 0)
	}
	for _, v := range m.Textures {
		if _, given := c.Textures[v.Name]; !given && v.T.Kind == ir.KindTexture {
			c.Fill = fill
		}
	}
	return FillMissingTextures(m, c.Textures, c.Samplers, fill, o.seed())
}

// ParseWorkgroups parses a dispatch size X[,Y[,Z]] (missing ones are 1),
// each ≥ 1.
func ParseWorkgroups(s string) ([3]uint32, error) {
	wg := [3]uint32{1, 1, 1}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return wg, fmt.Errorf("want X[,Y[,Z]], got %d numbers", len(parts))
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 32)
		if err != nil || n == 0 {
			return wg, fmt.Errorf("%q is not a workgroup count (a whole number ≥ 1)", p)
		}
		wg[i] = uint32(n)
	}
	return wg, nil
}

// ParseSize parses a render target's size WxH: a width and a height in
// pixels, each at least 1.
func ParseSize(s string) ([2]uint32, error) {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !ok {
		return [2]uint32{}, fmt.Errorf("want WxH, e.g. 16x16")
	}
	var size [2]uint32
	for i, p := range []string{ws, hs} {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 32)
		if err != nil || n == 0 {
			return size, fmt.Errorf("%q is not a size in pixels (a whole number ≥ 1)", p)
		}
		size[i] = uint32(n)
	}
	return size, nil
}

// readInputs reads a function kernel's inputs file: a JSON object mapping
// each parameter of f to an array with one value per invocation. It returns
// args[invocation][param]; a JSON syntax error is positioned
// (file:line:col), the rest is ParseInputs'.
func (o *LoadOptions) readInputs(path string, f *ir.Func) ([][]ir.Value, error) {
	data, err := o.read(path)
	if err != nil {
		return nil, err
	}
	var probe any
	if err := json.Unmarshal(data, &probe); err != nil {
		msg := err.Error()
		if _, ok := err.(*json.UnmarshalTypeError); ok {
			msg = "want a JSON object mapping parameter names to arrays"
		}
		return nil, o.usagef("%s: %s", jsonPos(path, data, err), msg)
	}
	return ParseInputs(path, data, f)
}

// readBindingInputs reads an entry point's inputs file: a JSON object
// mapping storage and uniform binding names to their initial values (the
// JSON form of ir values; a runtime-sized array takes the given length),
// and optionally "workgroups": [X, Y, Z] (unless a variable has that name).
//
// Texture and sampler bindings take their TextureJSON and SamplerJSON
// entries (check/testcase/texture.go), stored in c.
func (o *LoadOptions) readBindingInputs(path string, m *ir.Module, c *Case) (map[string]ir.Buffer, *[3]uint32, error) {
	c.Textures, c.Samplers = map[string]*interp.Texture{}, map[string]*interp.Sampler{}
	data, err := o.read(path)
	if err != nil {
		return nil, nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		where := path
		if err != nil {
			where = jsonPos(path, data, err)
		}
		return nil, nil, o.usagef("%s: want a JSON object mapping binding names to their values", where)
	}
	var wg *[3]uint32
	bufs := map[string]ir.Buffer{}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		raw := obj[k]
		if k == "workgroups" && m.SharedVar(k) == nil {
			var w []uint32
			if err := json.Unmarshal(raw, &w); err != nil || len(w) == 0 || len(w) > 3 {
				return nil, nil, o.usagef("%s: workgroups: want [X] to [X, Y, Z], got %s", path, raw)
			}
			v := [3]uint32{1, 1, 1}
			for i, n := range w {
				if n == 0 {
					return nil, nil, o.usagef("%s: workgroups: a count of 0", path)
				}
				v[i] = n
			}
			wg = &v
			continue
		}
		if tv := m.TextureVar(k); tv != nil {
			if err := parseHandleInput(tv, raw, filepath.Dir(path), m, c.Textures, c.Samplers); err != nil {
				var pe *ir.Error
				if errors.As(err, &pe) {
					return nil, nil, err
				}
				return nil, nil, o.usagef("%s: %s: %v", path, k, err)
			}
			continue
		}
		g := m.SharedVar(k)
		if g == nil || g.Space == ir.SpaceWorkgroup {
			var have []string
			for _, v := range m.Shared {
				if v.Space != ir.SpaceWorkgroup {
					have = append(have, v.Name)
				}
			}
			what := "storage or uniform binding"
			for _, v := range m.Textures {
				have, what = append(have, v.Name), "storage, uniform, texture or sampler binding"
			}
			return nil, nil, o.usagef("%s: the module has no %s named %q (have %s)", path, what, k, strings.Join(have, ", "))
		}
		v, err := ir.UnmarshalValue(g.T, raw)
		if err != nil {
			return nil, nil, o.usagef("%s: %s%v", path, k, strings.TrimPrefix(err.Error(), "value"))
		}
		b, err := ir.NewBuffer(g.T, v)
		if err != nil {
			return nil, nil, o.usagef("%s: %s: %v", path, k, err)
		}
		bufs[k] = b
	}
	return bufs, wg, nil
}

// jsonPos turns a JSON syntax error's byte offset into file:line:col.
func jsonPos(path string, data []byte, err error) string {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	if off < 0 {
		return path
	}
	// Offset counts the bytes read up to and including the offending one.
	line, col := 1, 1
	for i := int64(0); i < off-1 && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%s:%d:%d", path, line, col)
}

// StagesText is stages as the --stage flag spells them: "both" for
// compute then fragment, else the stage's name.
func StagesText(stages []oracle.Stage) string {
	if len(stages) == 2 && stages[0] == oracle.StageCompute && stages[1] == oracle.StageFragment {
		return "both"
	}
	var out []string
	for _, st := range stages {
		out = append(out, string(st))
	}
	return strings.Join(out, ",")
}

// drawFile reports whether the file at path (its module m, its bytes src)
// is a draw: a draw's case file, or a module that loads as a draw
// (KindOf; a second file, --vertex or --fragment).
func drawFile(m *ir.Module, src []byte, path string, o LoadOptions) bool {
	if IsCase(src) {
		pc, _, err := parseCase(path, src)
		_, ok := pc.(*Case)
		return err == nil && ok
	}
	return isDraw(m, o) || KindOf(m, o.Kernel) == KindDraw
}
