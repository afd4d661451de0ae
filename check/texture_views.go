package check

import (
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// Accessors for what pictures, the viewer and Amber export show of a
// compute entry point's textures (issue 24 point 7): the contents as
// dispatched, which result output holds a written storage texture's final
// level 0, and the value a channel code stands for.

// A TextureView is one texture binding of an entry point's dispatch.
type TextureView struct {
	Var *ir.TextureVar
	// Texture is the binding's contents as dispatched to the reference
	// and to every run (every mip level and array layer).
	Texture *interp.Texture
	// Output is the index in Result.Names and Reference (and each
	// run's Outputs[0]) of the storage texture's final level 0, or -1
	// for a texture the entry point only reads.
	Output int
}

// TextureViews returns the texture bindings (not samplers) the entry
// point entry of m uses, in module order, with their dispatched contents.
func (r *Result) TextureViews(m *ir.Module, entry string) []TextureView {
	if m == nil || r.textures == nil {
		return nil
	}
	used := testcase.UsedHandles(m, entry)
	nb := len(r.Names) - len(r.TextureOutputs)
	var out []TextureView
	for _, v := range m.Textures {
		t := r.textures[v.Name]
		if v.T.Kind != ir.KindTexture || !used[v.Name] || t == nil {
			continue
		}
		tv := TextureView{Var: v, Texture: t, Output: -1}
		for i, w := range r.TextureOutputs {
			if w.Name == v.Name {
				tv.Output = nb + i
			}
		}
		out = append(out, tv)
	}
	return out
}

// TextureViews returns the texture bindings (not samplers) case c's function
// uses, in module order, with the contents every run gets (a given
// texture, else the default one): the inputs of a fragment entry point's
// runs (Output -1: its storage textures are not read back). Errors are
// positioned at a binding whose given contents do not fit it.
func TextureViews(c *testcase.Case) ([]TextureView, error) {
	if c.Module == nil || c.Func == nil || len(c.Module.Textures) == 0 {
		return nil, nil
	}
	texs, _, err := testcase.CompleteTextures(c.Module, c.Func.Name, c.Textures, c.Samplers)
	if err != nil {
		return nil, err
	}
	used := testcase.UsedHandles(c.Module, c.Func.Name)
	var out []TextureView
	for _, v := range c.Module.Textures {
		if t := texs[v.Name]; v.T.Kind == ir.KindTexture && used[v.Name] && t != nil {
			out = append(out, TextureView{Var: v, Texture: t, Output: -1})
		}
	}
	return out, nil
}
