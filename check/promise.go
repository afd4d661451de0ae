package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// A rejection is a finding only when the stack promised to accept (issue
// 37, item 5; README "Verdicts"). gpudiff's reference front end accepted
// every module that reaches a GPU run, so a stack's compile error is one
// of three things, decided here, in judgeRejections, once every adapter
// has run the module:
//
//   - unsupported: the adapter declares it cannot take what the module
//     needs (harness.Lacks: naga's GLSL ES limits on wgpu's GL backend,
//     WebGPU compatibility mode on Dawn's GL backends). The run becomes
//     oracle.Unsupported with the declaration as its reason — skipped,
//     never judged, never a bug.
//   - a broken promise: the adapter declares no limitation the module
//     meets (its features, limits, downlevel flags, formats and feature
//     level say it must take it) and another adapter compiled the same
//     function in the same format. The run stays a compile error (its
//     class, signature and case as before) and Run.Promise names the
//     promise broken: a stack finding, exit 1 (ExitOfRuns).
//   - neither: no other adapter accepts it either. The module may be
//     invalid WGSL that gpudiff's front end let through, so it stays a
//     compile error without a promise: exit 2.
//
// Only WGSL is promised: WebGPU's createShaderModule takes WGSL; SPIR-V
// is a native extension whose rejections stay compile errors.

// moduleNeeds lists what function fn of m (with its callees) needs beyond
// WebGPU's core feature level, each where it is first needed, in the
// run's format and mode: gpudiff's portable SPIR-V clamps every integer
// level of a textureLoad or textureDimensions to the texture's level
// count (OpImageQueryLevels), so it needs the level query too.
func moduleNeeds(m *ir.Module, fn string, format oracle.Format, mode string) []harness.Need {
	clampsLevels := format == oracle.FormatSPIRV && mode != string(wgsl.Raw)
	var needs []harness.Need
	seen := map[string]bool{}
	add := func(n harness.Need) {
		k := string(n.Kind) + "/" + n.Arg
		if !seen[k] {
			seen[k] = true
			needs = append(needs, n)
		}
	}
	// The optional features (WebGPU shader-f16 and subgroups, WGSL
	// `enable f16;` and `enable subgroups;`).
	if m.UsesF16(fn) {
		add(harness.Need{Kind: harness.NeedF16, Where: "the f16 type in " + fn + "'s call graph or bindings"})
	}
	if m.UsesSubgroups(fn) {
		add(harness.Need{Kind: harness.NeedSubgroups, Where: "subgroup operations in " + fn + "'s call graph"})
	}
	// WGSL language extensions: only the WGSL front end meets them
	// (gpudiff's SPIR-V spells the packed 4x8 builtins in bit operations).
	if format == oracle.FormatWGSL {
		for _, c := range m.LanguageFeatureUses(fn) {
			add(harness.Need{Kind: harness.NeedLanguageFeature, Arg: c.Fn.Info().LanguageFeature, Where: fmt.Sprintf("%s at %s", c.Fn, c.Pos)})
		}
	}
	samplers := map[string]map[string]bool{} // texture → samplers it is sampled with
	samplerPos := map[string]string{}
	handle := func(e ir.Expr) string {
		if id, ok := e.(*ir.Ident); ok {
			return id.Name
		}
		return ""
	}
	for _, f := range m.CallGraph(fn) {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			c, ok := n.(*ir.TextureCall)
			if !ok {
				return true
			}
			p := c.Parts()
			tex := handle(p.Texture)
			where := fmt.Sprintf("%s(%s) at %s", c.Op, tex, c.Pos)
			switch c.Op {
			case ir.TexNumLevels:
				add(harness.Need{Kind: harness.NeedTextureLevels, Where: where})
			case ir.TexDimensions:
				if clampsLevels && p.Level != nil {
					add(harness.Need{Kind: harness.NeedTextureLevels, Where: where + " (gpudiff's portable SPIR-V clamps its level by the level count)"})
				}
			case ir.TexNumSamples:
				add(harness.Need{Kind: harness.NeedTextureSamples, Where: where})
			case ir.TexLoad:
				if v := m.TextureVar(tex); v != nil && v.T.Tex != nil && v.T.Tex.Class == ir.TexDepth {
					add(harness.Need{Kind: harness.NeedDepthLoad, Where: where})
				}
				if clampsLevels && p.Level != nil {
					add(harness.Need{Kind: harness.NeedTextureLevels, Where: where + " (gpudiff's portable SPIR-V clamps its level by the level count)"})
				}
			}
			if s := handle(p.Sampler); s != "" && tex != "" {
				if samplers[tex] == nil {
					samplers[tex] = map[string]bool{}
				}
				samplers[tex][s] = true
				if len(samplers[tex]) == 2 && samplerPos[tex] == "" {
					samplerPos[tex] = fmt.Sprintf("%s sampled with %s at %s and another sampler", tex, s, c.Pos)
				}
			}
			return true
		})
	}
	used := testcase.UsedHandles(m, fn)
	for _, v := range m.Textures {
		if !used[v.Name] || v.T.Tex == nil {
			continue
		}
		if v.T.Tex.Class == ir.TexStorage {
			add(harness.Need{Kind: harness.NeedStorageFormat, Arg: v.T.Tex.Format.String(), Where: fmt.Sprintf("%s: %s at %s", v.Name, v.T, v.Pos)})
		}
		if v.T.Tex.Dim == ir.TexCubeArray {
			add(harness.Need{Kind: harness.NeedCubeArray, Where: fmt.Sprintf("%s: %s at %s", v.Name, v.T, v.Pos)})
		}
		if v.T.Tex.Class == ir.TexDepth {
			add(harness.Need{Kind: harness.NeedDepthContents, Where: fmt.Sprintf("%s: %s at %s", v.Name, v.T, v.Pos)})
		}
	}
	var texs []string
	for t := range samplerPos {
		texs = append(texs, t)
	}
	sort.Strings(texs)
	for _, t := range texs {
		add(harness.Need{Kind: harness.NeedSamplersPerTexture, Where: samplerPos[t]})
	}
	return needs
}

// judgeRejections decides each compile error among runs (see above):
// needs are each run's moduleNeeds (its function, format and mode). It
// changes runs in place; a run it makes oracle.Unsupported the caller
// drops (Tested, Skipped).
func judgeRejections(runs []oracle.Run, needs func(r oracle.Run) []harness.Need) {
	for i := range runs {
		r := &runs[i]
		if r.Adapter == "interp" || r.Failed == oracle.Unsupported {
			continue
		}
		info := adapterInfoOf(r.Adapter)
		if why := declaredUnjudged(info, needs(*r)); why != "" {
			// The stack ran it, or not: either way its result is not
			// judged (harness.Limitation.Unjudged).
			msg := why
			if r.Failed != "" && r.Message != "" {
				msg += "\n(the stack's own message: " + errorLine(r.Message) + ")"
			}
			r.Failed, r.Message = oracle.Unsupported, msg
			continue
		}
		if r.Failed != oracle.CompileError {
			continue
		}
		if why := declaredLack(info, needs(*r)); why != "" {
			r.Failed = oracle.Unsupported
			r.Message = why + "\n(the stack's own message: " + errorLine(r.Message) + ")"
			continue
		}
		if r.Format != oracle.FormatWGSL {
			continue
		}
		var accepted []string
		for _, o := range runs {
			if o.Adapter != r.Adapter && o.Adapter != "interp" && o.Function == r.Function && o.Format == r.Format && StageOf(o) == StageOf(*r) &&
				o.Failed != oracle.CompileError && o.Failed != oracle.Unsupported && o.Failed != oracle.Error {
				accepted = append(accepted, fmt.Sprintf("%s (%s)", harness.CompilerOf(implOf(o.Adapter)), o.Adapter))
			}
		}
		if len(accepted) == 0 {
			continue
		}
		if len(accepted) > 3 {
			accepted = append(accepted[:3], fmt.Sprintf("%d more", len(accepted)-3))
		}
		r.Promise = fmt.Sprintf("%s rejected a module that its features and limits require it to accept (%s; it declares no limitation the module meets); %s and gpudiff's reference accept it",
			r.Adapter, levelWords(info), strings.Join(accepted, ", "))
	}
}

// declaredLack is the first of needs that info declares it lacks, as
// harness.Lacks words it, or "".
func declaredLack(info harness.AdapterInfo, needs []harness.Need) string {
	for _, n := range needs {
		if why := harness.Lacks(info, n); why != "" {
			return why
		}
	}
	return ""
}

// declaredUnjudged is declaredLack for the limitations under which no
// run is judged (harness.LacksUnjudged).
func declaredUnjudged(info harness.AdapterInfo, needs []harness.Need) string {
	for _, n := range needs {
		if why := harness.LacksUnjudged(info, n); why != "" {
			return why
		}
	}
	return ""
}

// adapterInfoOf is what a run's adapter name says of the adapter: its
// implementation and backend (all DeclaredLimitations reads).
func adapterInfoOf(name string) harness.AdapterInfo {
	impl, backend, _, _ := harness.NameParts(name)
	return harness.AdapterInfo{Name: name, Implementation: impl, Backend: backend}
}

func levelWords(info harness.AdapterInfo) string {
	switch harness.FeatureLevel(info) {
	case "core":
		return "WebGPU's core feature level"
	case "compatibility":
		return "WebGPU compatibility mode"
	}
	return "a downlevel adapter"
}
