package main

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/report/amber"
)

// drawFlags are the flags that name a draw's stages on emit and flatten
// (README "Draws"): a second file and --vertex, --fragment.
type drawFlags struct {
	fragmentFile, vertex, fragment string
}

func (d drawFlags) options(kernel string) testcase.LoadOptions {
	return testcase.LoadOptions{Kernel: kernel, Fragment: d.fragmentFile, VertexEntry: d.vertex, FragmentEntry: d.fragment}
}

// drawModules loads a draw's modules (the first file's m; the second
// file's, else m again) and picks its entry points (testcase.DrawEntries).
func (g *globalFlags) drawModules(m *ir.Module, kernel string, d drawFlags) (vm, fm *ir.Module, vs, fs *ir.Func, err error) {
	vm, fm = m, m
	if d.fragmentFile != "" {
		if fm, _, err = testcase.LoadModule(d.fragmentFile, g.moduleOptions()); err != nil {
			return nil, nil, nil, nil, inputErr(err)
		}
	}
	vs, fs, err = testcase.DrawEntries(vm, fm, d.options(kernel))
	if err != nil {
		return nil, nil, nil, nil, loadErr("emit", err)
	}
	return vm, fm, vs, fs, nil
}

// emitDraw is gpudiff emit of a draw: both stages as written (with flat,
// their twins), in WGSL one module holding both when one file has them
// (wgsl.EmitDraw) or each stage's module after a comment naming it, in
// spirv-asm each stage's SPIR-V module (a render pipeline takes one
// module per stage); a binary spirv file holds one module, so --format
// spirv is refused.
func (g *globalFlags) emitDraw(m *ir.Module, kernel string, d drawFlags, format string, mode wgsl.Mode, flat bool) ([]byte, error) {
	vm, fm, vs, fs, err := g.drawModules(m, kernel, d)
	if err != nil {
		return nil, err
	}
	vname, fname := vs.Name, fs.Name
	if flat {
		opts := g.flattenOptions()
		tv, err := flatten.Function(vm, vname, opts)
		if err != nil {
			return nil, inputErr(err)
		}
		tf, err := flatten.Function(fm, fname, opts)
		if err != nil {
			return nil, inputErr(err)
		}
		vname, fname = tv.Name, tf.Name
	}
	switch format {
	case "wgsl":
		if vm == fm {
			src, err := wgsl.EmitDraw(vm, vname, fname, wgsl.EmitOptions{Mode: mode})
			if err != nil {
				return nil, inputErr(err)
			}
			return []byte(src), nil
		}
		var b strings.Builder
		for i, st := range []struct {
			m    *ir.Module
			name string
		}{{vm, vname}, {fm, fname}} {
			src, err := wgsl.EmitStage(st.m, st.name, wgsl.EmitOptions{Mode: mode})
			if err != nil {
				return nil, inputErr(err)
			}
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "// %s stage %s (%s)\n%s", []string{"vertex", "fragment"}[i], st.name, st.m.File, src)
		}
		return []byte(b.String()), nil
	case "spirv-asm":
		var b strings.Builder
		for i, st := range []struct {
			m    *ir.Module
			name string
		}{{vm, vname}, {fm, fname}} {
			words, err := spirv.Emit(st.m, st.name, spirv.Options{Mode: mode})
			if err != nil {
				return nil, inputErr(err)
			}
			asm, err := amber.DefaultDisassembler().Run(words)
			if err != nil {
				return nil, inputErr(err)
			}
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "; %s stage %s (%s)\n%s", []string{"vertex", "fragment"}[i], st.name, st.m.File, asm)
		}
		return []byte(b.String()), nil
	case "spirv":
		return nil, usagef("gpudiff emit: --format spirv writes one SPIR-V module, and a draw has one per stage (%s and %s): use --format spirv-asm, which prints both", vname, fname)
	}
	return nil, usagef("gpudiff emit: %v", &amber.FormatError{Format: format})
}
