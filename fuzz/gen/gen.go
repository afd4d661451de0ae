package gen

import (
	"fmt"

	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// DefaultSize is the Size used when Config.Size is 0.
const DefaultSize = 30

// Config parameterizes Generate.
//
// Size drives the shape of a program (s = Size, default 30):
//
//   - the kernel's statement budget is s (every statement, nested or
//     not, spends one);
//   - up to min(Profile.Helpers, 1 + s/8) helpers (those the kernel does
//     not reach are dropped), each with a budget of max(2, s/3)
//     statements;
//   - statements nest at most min(Profile.Nesting, 1 + s/8) deep;
//   - call chains below the kernel are at most min(Profile.CallDepth,
//     1 + s/8) helpers long;
//   - expressions are at most min(Profile.ExprDepth, 1 + s/10) deep.
//
// Independent of Size, a program's estimated dynamic cost (statements
// executed per invocation, loops and calls multiplied out) is capped at
// MaxCost, so every program is cheap to interpret and dispatch.
type Config struct {
	// Size is the size knob above; 0 means DefaultSize.
	Size int
	// Profile weights the choices; the zero Profile means "default".
	Profile Profile
	// OutsideSubset is the share (0–1) of programs deliberately placed
	// outside flatten's subset: 0 means the profile's share (0.03 for
	// "default"), a negative value means never.
	OutsideSubset float64
	// MaxUnroll is the unroll cap of the flatten.Options the programs
	// will be flattened with (flatten.Options.MaxUnroll: loop-body
	// copies, inlined calls included); 0 means DefaultMaxUnroll. Every
	// in-subset program's unroll count stays within it (unroll.go), so
	// flatten never refuses one for its size.
	MaxUnroll int
}

// MaxCost caps a program's estimated statements executed per invocation.
const MaxCost = 4000

// Outside-subset kinds recorded in Program.OutsideSubset.
const (
	// OutsideUnboundedLoop is a loop whose counter starts at a run-time
	// value clamped to [0, 8] and counts down to 0: it terminates, but
	// ir.BoundLoop cannot bound it (no constant start). It is outside
	// what flatten unrolls (flatten.Options.Loops "unroll" refuses it),
	// inside what it keeps as a loop (the default).
	OutsideUnboundedLoop = "unbounded-loop"
	// OutsideRecursion is a helper that calls itself with a depth
	// argument clamped to [0, 4] that decreases by one per call. WGSL
	// forbids recursion (WGSL {#function-calls}: "the call graph must not
	// have a cycle"), so GPU stacks refuse these programs; they exist to
	// exercise flatten's refusal path.
	OutsideRecursion = "recursion"
)

// Program is one generated program.
type Program struct {
	// Module is normalized (ir.Normalize) and verified.
	Module *ir.Module
	// Kernel is the function under test (always "kernel").
	Kernel string
	// Seed regenerates exactly this program: Generate(Seed, cfg) with the
	// same cfg. Programs made by FromBytes have Seed 0 and are regenerated
	// from their bytes instead; shrunk programs (Shrunk > 0) cannot be
	// regenerated from the seed at all.
	Seed uint64
	// OutsideSubset is "" or what was placed outside flatten's subset:
	// OutsideUnboundedLoop or OutsideRecursion.
	OutsideSubset string
	// Shrunk counts the shrinking steps applied since generation.
	Shrunk int
	// Workgroups is the dispatch size of a compute entry point (the
	// "compute" profile, Profile.Entry: Kernel is then the @compute entry
	// point ComputeEntryName, its bindings' initial contents are
	// Bindings(Seed, Module)); zero for function kernels.
	Workgroups [3]uint32
	// Textures and Samplers are the contents of the texture bindings and
	// the descriptions of the sampler bindings of a compute entry point
	// with textures (Profile.Textures; compute_texture.go), by variable
	// name; nil without them.
	Textures map[string]*interp.Texture
	Samplers map[string]*interp.Sampler
	// Vertex is the @vertex entry point of a render program (the
	// "render" profile, Profile.Render: RenderVertexName; Kernel is then
	// its @fragment entry point, RenderFragmentName), "" otherwise.
	// Draw is that program's draw — vertex attributes, counts, primitive
	// state, bindings, textures and samplers (render_inputs.go) — drawn
	// with it from its seed; nil otherwise.
	Vertex string
	Draw   *RenderInputs
}

// IsEntry reports whether p is a compute entry point (Profile.Entry)
// rather than a function kernel.
func (p *Program) IsEntry() bool { return p.Workgroups != [3]uint32{} }

// IsDraw reports whether p is a render program (Profile.Render): a
// vertex and a fragment entry point drawn with p.Draw.
func (p *Program) IsDraw() bool { return p.Draw != nil }

// String returns the program's canonical WGSL (ir.Print).
func (p *Program) String() string { return ir.Print(p.Module) }

// KernelName is the name of every generated kernel.
const KernelName = "kernel"

func (c Config) normalized() Config {
	if c.Size <= 0 {
		c.Size = DefaultSize
	}
	if c.Profile.Name == "" {
		c.Profile = profiles[0]
	}
	if c.OutsideSubset == 0 {
		c.OutsideSubset = c.Profile.OutsideSubset
	}
	if c.MaxUnroll <= 0 {
		c.MaxUnroll = DefaultMaxUnroll
	}
	return c
}

// Generate returns the program named by seed under cfg. It is
// deterministic: the same seed and cfg give a byte-identical ir.Print on
// every machine and Go version. It panics only on a generator bug (a
// program failing ir.Normalize), which the package's tests rule out.
func Generate(seed uint64, cfg Config) *Program {
	p := generate(&splitmix{s: seed}, cfg)
	p.Seed = seed
	return p
}

// FromBytes returns the program whose every decision is read from data
// (see byteSource): any byte slice, including an empty one, yields a valid
// program, so `go test -fuzz` can mutate programs structurally. The result
// has Seed 0.
func FromBytes(data []byte, cfg Config) *Program {
	return generate(&byteSource{data: data}, cfg)
}

func generate(src source, cfg Config) *Program {
	if cfg.Profile.Render {
		return generateRender(src, cfg)
	}
	if cfg.Profile.Entry {
		return generateCompute(src, cfg)
	}
	if cfg.Profile.Dispatch {
		return generateDispatch(src, cfg)
	}
	return generateShape(src, cfg, shape{})
}

func generateShape(src source, cfg Config, sh shape) *Program {
	cfg = cfg.normalized()
	g := newGenerator(&chooser{src: src}, cfg, sh)
	g.program()
	if err := ir.Normalize(g.m); err != nil {
		panic(fmt.Sprintf("gen: generated program does not verify (generator bug): %v\n%s", err, ir.Print(g.m)))
	}
	return &Program{Module: g.m, Kernel: KernelName, OutsideSubset: g.outside}
}
