package check

import (
	"fmt"
	"sort"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

var viewNames = map[ir.TexDim]string{ir.Tex1D: "1d", ir.Tex2D: "2d", ir.Tex2DArray: "2d-array", ir.Tex3D: "3d", ir.TexCube: "cube", ir.TexCubeArray: "cube-array"}

// textureJob is the harness's textures and samplers of a dispatch of
// entry (the bindings it uses), and the written storage textures, in the
// order the harness reads them back.
func textureJob(m *ir.Module, entry string, texs map[string]*interp.Texture, smps map[string]*interp.Sampler) ([]harness.TextureBinding, []harness.SamplerBinding, []*ir.TextureVar, error) {
	used := testcase.UsedHandles(m, entry)
	var tb []harness.TextureBinding
	var sb []harness.SamplerBinding
	var written []*ir.TextureVar
	for _, v := range m.Textures {
		if !used[v.Name] {
			continue
		}
		if v.T.Kind == ir.KindSampler {
			s := smps[v.Name]
			if s == nil {
				return nil, nil, nil, fmt.Errorf("sampler %s: no description", v.Name)
			}
			sb = append(sb, harness.SamplerBinding{Group: uint32(v.Group), Binding: uint32(v.Binding),
				AddressModeU: s.AddressModeU, AddressModeV: s.AddressModeV, AddressModeW: s.AddressModeW,
				MagFilter: s.MagFilter, MinFilter: s.MinFilter, MipmapFilter: s.MipmapFilter,
				LodMinClamp: s.LodMinClamp, LodMaxClamp: s.LodMaxClamp, Compare: s.Compare})
			continue
		}
		t := texs[v.Name]
		if t == nil {
			return nil, nil, nil, fmt.Errorf("texture %s: no contents", v.Name)
		}
		b := harness.TextureBinding{Group: uint32(v.Group), Binding: uint32(v.Binding), Kind: harness.TextureSampled,
			View: viewNames[v.T.Tex.Dim], Format: t.Format, Width: uint32(t.Width), Height: uint32(t.Height),
			DepthOrLayers: uint32(t.DepthOrLayers), MipLevels: uint32(t.MipLevels), SampleCount: uint32(max(t.SampleCount, 1)), Data: t.Data}
		if v.T.Tex.Class == ir.TexDepth {
			b.SampleType = "depth"
		}
		if v.T.Tex.Class == ir.TexStorage {
			b.Kind = harness.TextureStorage
			b.Access = map[ir.TexAccess]string{ir.TexRead: "read-only", ir.TexWrite: "write-only", ir.TexReadWrite: "read-write"}[v.T.Tex.Access]
			if b.Written() {
				written = append(written, v)
			}
		}
		tb = append(tb, b)
	}
	return tb, sb, written, nil
}

// textureValue is level 0 of a storage texture as an output value:
// channel codes of type leafType, [layer][y][x][channel] (1d:
// [x][channel]; one layer: [y][x][channel]).
func textureValue(v *ir.TextureVar, t *interp.Texture, codes []uint32) ir.Value {
	f, _ := testcase.ParseTexelFormat(t.Format)
	lt := f.LeafType()
	w, h, d := t.Width, t.Height, t.DepthOrLayers
	k := 0
	texel := func() ir.Value {
		tt := ir.ArrayOf(lt, f.Channels())
		es := make([]ir.Value, f.Channels())
		for c := range es {
			es[c] = ir.ScalarVal(lt, codes[k])
			k++
		}
		return ir.CompositeVal(tt, es...)
	}
	row := func() ir.Value {
		es := make([]ir.Value, w)
		for x := range es {
			es[x] = texel()
		}
		return ir.CompositeVal(ir.ArrayOf(es[0].Type, w), es...)
	}
	if v.T.Tex.Dim == ir.Tex1D {
		return row()
	}
	layer := func() ir.Value {
		es := make([]ir.Value, h)
		for y := range es {
			es[y] = row()
		}
		return ir.CompositeVal(ir.ArrayOf(es[0].Type, h), es...)
	}
	if d == 1 && v.T.Tex.Dim == ir.Tex2D {
		return layer()
	}
	es := make([]ir.Value, d)
	for z := range es {
		es[z] = layer()
	}
	return ir.CompositeVal(ir.ArrayOf(es[0].Type, d), es...)
}

// textureExpected is a storage texture's reference output: the
// reference's final contents (o, when the entry point stores to it), or
// its initial ones.
func textureExpected(v *ir.TextureVar, t *interp.Texture, o *interp.TextureOutput) oracle.Expected {
	if o == nil || len(o.Levels) == 0 {
		return oracle.Expected{Value: textureValue(v, t, testcase.TexelCodes(t.Format, t.Data[0]))}
	}
	e := oracle.Expected{Value: textureValue(v, t, o.Levels[0])}
	n := len(o.Levels[0])
	anys := o.Any[0]
	allowed := o.Allowed[0]
	if anys == nil && len(allowed) == 0 {
		return e
	}
	e.Indeterminate = make([]bool, n)
	e.Allowed = make([]ir.ValueSet, n)
	idx := make([]int, 0, len(allowed))
	for i := range allowed {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		e.Indeterminate[i] = true
		e.Allowed[i] = ir.ValueSet{Values: append([]uint32(nil), allowed[i]...)}
	}
	for i, a := range anys {
		if a {
			e.Indeterminate[i], e.Allowed[i] = true, ir.ValueSet{}
		}
	}
	e.Why = "a stored texel WGSL leaves open: a conversion with two nearest codes, an out-of-bounds, racing or indeterminate textureStore"
	return e
}

// textureOutput is storage texture v's output in a dispatch result's
// Textures (outs), or its initial contents t where the run did not store
// to it.
func textureOutput(v *ir.TextureVar, t *interp.Texture, outs map[string]interp.TextureOutput) oracle.Expected {
	if o, ok := outs[v.Name]; ok {
		return textureExpected(v, t, &o)
	}
	return textureExpected(v, t, nil)
}
