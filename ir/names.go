package ir

import "strconv"

// Namer hands out identifiers that collide with no reserved name: every
// module-scope name, every name declared or referenced in the functions
// it was built from, every WGSL keyword and reserved word, and every name
// it has handed out before.
type Namer struct {
	used map[string]bool
	next map[string]int
}

// NewNamer reserves every module-scope name of m and every name declared
// or referenced in fs.
func NewNamer(m *Module, fs ...*Func) *Namer {
	n := &Namer{used: map[string]bool{}, next: map[string]int{}}
	if m != nil {
		for _, s := range m.Structs {
			n.used[s.Name] = true
		}
		for _, g := range m.Globals {
			n.used[g.Name] = true
		}
		for _, v := range m.Shared {
			n.used[v.Name] = true
		}
		for _, f := range m.Funcs {
			n.used[f.Name] = true
		}
		for _, o := range m.Opaque {
			if o.Name != "" {
				n.used[o.Name] = true
			}
		}
	}
	for _, f := range fs {
		n.ReserveFunc(f)
	}
	return n
}

// ReserveFunc reserves f's name, parameters and every name declared or
// referenced in its body.
func (n *Namer) ReserveFunc(f *Func) {
	n.used[f.Name] = true
	for _, p := range f.Params {
		n.used[p.Name] = true
	}
	Inspect(f.Body, func(x Node) bool {
		switch x := x.(type) {
		case *Decl:
			n.used[x.Name] = true
		case *Ident:
			n.used[x.Name] = true
		}
		return true
	})
}

// Reserve marks name as taken.
func (n *Namer) Reserve(name string) { n.used[name] = true }

// Used reports whether name is taken.
func (n *Namer) Used(name string) bool { return n.used[name] || IsReservedWord(name) }

// Fresh returns base if it is free, else base_1, base_2, … (the first free
// one), and reserves the result. base must be a valid WGSL identifier that
// does not start with two underscores.
func (n *Namer) Fresh(base string) string {
	if !n.Used(base) {
		n.used[base] = true
		return base
	}
	for i := n.next[base] + 1; ; i++ {
		c := base + "_" + strconv.Itoa(i)
		if !n.Used(c) {
			n.next[base] = i
			n.used[c] = true
			return c
		}
	}
}
