package amber

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// ExportEntry writes the Amber script of a compute entry point case c, as
// written: gpudiff's SPIR-V of the entry point (Flat: of its twin, an entry
// point of its own) as SPIR-V assembly, every storage and uniform binding
// as a BUFFER of its initial bytes (uint32 words, the module's layout) at
// its own DESCRIPTOR_SET and BINDING, one RUN of c.Workgroups, and an
// EXPECT (IDX = byte offset in the binding) for every determinate leaf of
// each read_write binding's final contents in the reference interpreter.
// Leaves the reference leaves indeterminate (races, the order-dependent
// results of atomics) get no EXPECT, a comment saying why.
//
// Textures and samplers are IMAGEs and SAMPLERs at their own bindings,
// and a written storage texture's final level 0 is checked texel by texel
// (report/amber/texture.go says how, and what is refused: array layers,
// cube faces, more than one mip level, non-finite input texels).
func ExportEntry(c *testcase.Case, opts Options) (*Script, error) {
	if err := refuseTextures(c); err != nil {
		return nil, err
	}
	mode := opts.Mode
	if mode == "" {
		mode = wgsl.Portable
	}
	dis := opts.Disassemble
	if dis.Run == nil {
		dis = DefaultDisassembler()
	}
	ref, err := check.Execute(context.Background(), c, check.Options{Mode: mode})
	if err != nil {
		return nil, err
	}
	if len(ref.Reference[0]) != len(ref.Names) {
		return nil, fmt.Errorf("amber: the reference dispatch of %s gave no outputs (%s)", c.Func.Name, ref.Verdict)
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
	asm, err := assembly(mod, fn, mode, dis)
	if err != nil {
		return nil, err
	}
	wg := c.Workgroups
	s := &Script{Function: fn, Disassembler: dis.Name, Groups: int(wg[0] * wg[1] * wg[2])}
	var b strings.Builder
	writeEntryHeader(&b, c, opts, s, mode, fn)
	fmt.Fprintf(&b, "SHADER compute %s SPIRV-ASM TARGET_ENV %s\n", ShaderName, TargetEnv)
	b.WriteString(strings.TrimRight(asm, "\n"))
	b.WriteString("\nEND\n\n")

	var binds strings.Builder
	var expects strings.Builder
	var copies []string
	out := 0 // index into ref.Names / ref.Reference
	for i, v := range ref.Bindings {
		data := ref.Inputs[i].Bytes
		buf := "buf_" + v.Name
		fmt.Fprintf(&b, "# %s: @group(%d) @binding(%d) var<%s> %s: %s, %d bytes\n", buf, v.Group, v.Binding, space(v), v.Name, v.T.String(), len(data))
		fmt.Fprintf(&b, "BUFFER %s DATA_TYPE uint32 DATA\n", buf)
		for k := 0; k < len(data); k += 32 {
			var words []string
			for w := k; w < k+32 && w+4 <= len(data); w += 4 {
				words = append(words, strconv.FormatUint(uint64(binary.LittleEndian.Uint32(data[w:])), 10))
			}
			fmt.Fprintf(&b, "  %s\n", strings.Join(words, " "))
		}
		b.WriteString("END\n")
		as := "storage"
		if v.Space == ir.SpaceUniform {
			as = "uniform"
		}
		fmt.Fprintf(&binds, "  BIND BUFFER %s AS %s DESCRIPTOR_SET %d BINDING %d\n", buf, as, v.Group, v.Binding)
		if out >= len(ref.Names) || ref.Names[out] != v.Name {
			continue // read-only: not compared
		}
		e := ref.Reference[0][out]
		out++
		var ls []leaf
		collect(&ls, e.Val(), 0, v.Name, e.Indeterminate, e.Tolerance, false, e.Why)
		needI32, needF32 := false, false
		for _, l := range ls {
			needI32 = needI32 || !l.indet && l.kind == ir.KindI32
			needF32 = needF32 || !l.indet && l.kind == ir.KindF32
		}
		words := len(data) / 4
		if needI32 {
			fmt.Fprintf(&b, "BUFFER %s_i32 DATA_TYPE int32 SIZE %d FILL 0  # %s's bytes as int32 (COPY below)\n", buf, words, buf)
			copies = append(copies, fmt.Sprintf("COPY %s TO %s_i32\n", buf, buf))
		}
		if needF32 {
			fmt.Fprintf(&b, "BUFFER %s_f32 DATA_TYPE float SIZE %d FILL 0.0  # %s's bytes as float (COPY below)\n", buf, words, buf)
			copies = append(copies, fmt.Sprintf("COPY %s TO %s_f32\n", buf, buf))
		}
		fmt.Fprintf(&expects, "# %s: %s\n", v.Name, oracle.Human(e))
		writeExpectsIn(&expects, buf, ls, s)
	}
	if err := writeTextures(&b, &binds, &expects, c, ref, s); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "\nPIPELINE compute %s\n  ATTACH %s ENTRY_POINT %s\n%sEND\n\n", PipelineName, ShaderName, fn, binds.String())
	fmt.Fprintf(&b, "RUN %s %d %d %d\n", PipelineName, wg[0], wg[1], wg[2])
	for _, cp := range copies {
		b.WriteString(cp)
	}
	b.WriteString("\n# Expected values: gpudiff's reference interpreter (WGSL's runtime rules), IDX = byte offset in the binding.\n")
	b.WriteString(expects.String())
	s.Text = b.String()
	return s, nil
}

func space(v *ir.SharedVar) string {
	switch {
	case v.Space == ir.SpaceUniform:
		return "uniform"
	case v.Access == ir.AccessReadWrite:
		return "storage, read_write"
	}
	return "storage, read"
}

func writeEntryHeader(b *strings.Builder, c *testcase.Case, opts Options, s *Script, mode wgsl.Mode, fn string) {
	what := "compute entry point " + fn
	if fn != c.Func.Name {
		what += " (the flattened twin of " + c.Func.Name + ")"
	}
	writeScriptHeader(b, opts, c.Func.Name, fmt.Sprintf("%s, %d×%d×%d workgroups", what, c.Workgroups[0], c.Workgroups[1], c.Workgroups[2]), s, mode, c.Module,
		"# The shader: the entry point as written, its bindings at their own groups and bindings.\n")
}
