package ir

import "fmt"

// texture is the uniformity analysis of a texture builtin call (WGSL
// #uniformity-function-calls): its result depends on its arguments and
// on the control flow; a load from a read_write storage texture may see
// other invocations' stores (non-uniform); the implicit-derivative
// samplers (textureSample, textureSampleBias, textureSampleCompare)
// need uniform control flow, like derivatives (WGSL #uniformity,
// derivative_uniformity).
func (w *uniFn) texture(x *TextureCall, st uniState) int32 {
	g := w.g
	var args []int32
	for _, a := range x.Args {
		if id, ok := a.(*Ident); ok && id.Ref == RefHandle {
			continue
		}
		args = append(args, w.expr(a, st))
	}
	res := g.node()
	g.edge(res, st.cf)
	g.edge(res, args...)
	if x.Op == TexLoad {
		if tv := w.u.m.TextureVar(RootIdent(x.Texture()).Name); tv != nil && tv.T.Tex.Class == TexStorage && tv.T.Tex.Access == TexReadWrite {
			g.edge(res, uniMayBeNon)
		}
	}
	if x.Op.ImplicitDerivatives() && w.u.derivErr {
		g.edge(uniRequired, st.cf)
		g.reqs = append(g.reqs, uniReq{to: st.cf, pos: x.Pos,
			msg: fmt.Sprintf("%s must only be called from uniform control flow (WGSL #uniformity)", x.Op),
			why: fmt.Sprintf("calls %s at %s", x.Op, x.Pos)})
	}
	return res
}
