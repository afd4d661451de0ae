package ir

// The verifier's rules for textures (texture.go).

func (v *verifier) textureCall(e *TextureCall) {
	if e.Op == 0 || e.Op >= numTexOps {
		v.errorf(e.Pos, "bad texture builtin %d", e.Op)
		return
	}
	p := e.Parts()
	tex := v.handleArg(p.Texture, KindTexture)
	if tex == nil {
		return
	}
	form, err := TextureForm(e.Op, tex, len(e.Args), p.Component != nil)
	if err != nil {
		v.errorf(e.Pos, "%v", err)
		return
	}
	if form != e.Form {
		v.errorf(e.Pos, "%s: form %q, but its arguments have form %q", e.Op, e.Form, form)
		return
	}
	for i, a := range e.Args {
		l := e.FormLetter(i)
		switch l {
		case 'T':
			continue
		case 'S', 'Z':
			if v.handleArg(a, KindSampler) == nil {
				continue
			}
		default:
			v.expr(a)
		}
		if err := TextureArgCheck(l, tex, a.Type()); err != nil {
			v.errorf(a.Position(), "argument %d of %s: %v", i+1, e.Op, err)
		}
		if l == 'o' || l == 'C' {
			if _, ok := a.(*Lit); !ok {
				if c, ok := a.(*Construct); !ok || !allLits(c.Args) {
					v.errorf(a.Position(), "argument %d of %s must be a const-expression", i+1, e.Op)
				}
			}
		}
	}
	v.want(e, e.T, TextureResultType(e.Op, tex))
}

func allLits(es []Expr) bool {
	for _, e := range es {
		if _, ok := e.(*Lit); !ok {
			return false
		}
	}
	return true
}

// handleArg checks that e names a texture (kind KindTexture) or sampler
// binding and returns its type.
func (v *verifier) handleArg(e Expr, kind Kind) *Type {
	id, ok := e.(*Ident)
	if !ok || id.Ref != RefHandle {
		v.errorf(e.Position(), "expected a %s binding, got %T", map[Kind]string{KindTexture: "texture", KindSampler: "sampler"}[kind], e)
		return nil
	}
	g := v.m.TextureVar(id.Name)
	if g == nil {
		v.errorf(id.Pos, "unknown texture or sampler %s", id.Name)
		return nil
	}
	v.want(id, id.T, g.T)
	if g.T.Kind != kind {
		v.errorf(id.Pos, "%s is a %v", id.Name, g.T)
		return nil
	}
	return g.T
}

// textureVars checks the texture and sampler bindings.
func (v *verifier) textureVars() {
	for _, g := range v.m.Textures {
		if !g.T.IsHandle() || g.T.Tex == nil {
			v.errorf(g.Pos, "texture binding %s has type %v", g.Name, g.T)
		}
		if g.Group < 0 || g.Binding < 0 {
			v.errorf(g.Pos, "texture binding %s needs @group and @binding", g.Name)
		}
	}
}
