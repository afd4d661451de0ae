package gen

import (
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
)

// TestGeneratedNamesAreValidIdentifiers: no generated identifier is a WGSL
// keyword, reserved word or predeclared name (WGSL {#reserved-words}, a
// shader-creation error) or starts with "__".
func TestGeneratedNamesAreValidIdentifiers(t *testing.T) {
	check := func(name string) {
		assert.False(t, ir.IsReservedWord(name), "reserved identifier %q", name)
		assert.False(t, strings.HasPrefix(name, "__"), "identifier %q", name)
	}
	for _, prof := range kernelProfiles() {
		for seed := uint64(0); seed < 200; seed++ {
			m := Generate(seed, Config{Profile: prof}).Module
			for _, s := range m.Structs {
				check(s.Name)
				for _, f := range s.Fields {
					check(f.Name)
				}
			}
			for _, g := range m.Globals {
				check(g.Name)
			}
			for _, f := range m.Funcs {
				check(f.Name)
				for _, p := range f.Params {
					check(p.Name)
				}
				ir.Inspect(f.Body, func(n ir.Node) bool {
					if d, ok := n.(*ir.Decl); ok {
						check(d.Name)
					}
					return true
				})
			}
		}
	}
}
