package flatten

import "github.com/gpudiff/gpudiff/ir"

// Texture builtins in twins (issue 24; ir/texture.go, doc.go "Entry
// points"):
//   - a texture read (textureLoad, textureDimensions & co, the explicit
//     level and gradient samplers, textureGather) is a leaf: a pure, total
//     expression of its arguments, evaluated under a false predicate
//     without effect (an out-of-bounds textureLoad returns a value, which
//     select discards) — except a textureLoad of a read_write storage
//     texture, which reads memory other invocations write and is an
//     access like a shared load (guarded, never moved);
//   - textureStore keeps a one-statement guard `if (P) { textureStore(…); }`
//     like a store to shared memory;
//   - the implicit-derivative samplers (textureSample, textureSampleBias,
//     textureSampleCompare) change meaning when more invocations evaluate
//     them (WGSL #uniformity): in a fragment twin they are evaluated
//     unconditionally where the predicate is uniform, as derivatives are
//     (quadUniform); elsewhere refused unless the predicate is statically
//     true.
func (l *lowerer) textureCall(x *ir.TextureCall, stmt bool) ir.Expr {
	if x.Op.ImplicitDerivatives() {
		if l.fragment {
			l.quadUniform(x.Pos, x.Op.String())
		} else if p := l.pred(); p != nil && !isFalse(p) {
			l.errorf(x.Pos, "%s under a predicate: its implicit derivatives need uniform control flow, which flatten cannot keep (WGSL #uniformity); use textureSampleLevel or textureSampleGrad, or make the condition statically true", x.Op)
			return &ir.Lit{Pos: x.Pos, Val: ir.Zero(x.T)}
		}
	}
	args := make([]ir.Expr, len(x.Args))
	for i, a := range x.Args {
		if id, ok := a.(*ir.Ident); ok && id.Ref == ir.RefHandle {
			args[i] = &ir.Ident{Pos: id.Pos, Name: id.Name, T: id.T, Ref: id.Ref}
			continue
		}
		args[i] = l.translate(a)
		if readsGlobal(args[i]) && anyCall(x.Args[i+1:]) {
			args[i] = l.bindAlways("v", l.finish(args[i]))
		}
	}
	for i := range args {
		args[i] = l.finish(args[i])
	}
	c := &ir.TextureCall{Pos: x.Pos, Op: x.Op, Form: x.Form, Args: args, T: x.T}
	if x.Op == ir.TexStore && !l.writeAfterDemote(x.Pos) {
		return nil
	}
	if x.T.IsVoid() || stmt {
		switch p := l.pred(); {
		case p == nil:
			l.emit(&ir.ExprStmt{Pos: x.Pos, X: c})
		case isFalse(p):
		default:
			l.guarded(p, &ir.ExprStmt{Pos: x.Pos, X: c})
		}
		return nil
	}
	if l.textureWritable(x) {
		return l.access(c, x.T)
	}
	return c
}

// textureWritable reports whether x reads a storage texture invocations
// may store to (read_write).
func (l *lowerer) textureWritable(x *ir.TextureCall) bool {
	if x.Op != ir.TexLoad {
		return false
	}
	id, ok := x.Texture().(*ir.Ident)
	if !ok {
		return false
	}
	v := l.m.TextureVar(id.Name)
	return v == nil || v.T.Tex.Class == ir.TexStorage && v.T.Tex.Access == ir.TexReadWrite
}
