package spirv

import (
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// moduleFacts is what tests read back from an emitted module's words —
// parsed here, independently of the builder — to check the interface of
// an entry point: its execution model, modes, variables and decorations.
type moduleFacts struct {
	caps    map[uint32]bool
	exts    []string
	entries []entryFacts
	modes   map[uint32][]uint32            // entry function → its execution modes
	decos   map[uint32]map[uint32][]uint32 // id → decoration → literals
	vars    map[uint32]varFacts            // module-scope OpVariable ids
	types   map[uint32][]uint32            // type id → its instruction's words (opcode word first)
	consts  map[uint32]uint32              // OpConstant id → its 32-bit value
	opCount map[opcode]int                 // instructions in function bodies, by opcode
	names   map[uint32]string              // OpName
}

type entryFacts struct {
	model uint32
	fn    uint32
	name  string
	iface []uint32
}

type varFacts struct {
	class   uint32
	pointee uint32 // the type the variable holds
}

// readFacts parses words (a valid module: spirv-val accepted it).
func readFacts(t testing.TB, words []uint32) *moduleFacts {
	t.Helper()
	mf := &moduleFacts{caps: map[uint32]bool{}, modes: map[uint32][]uint32{}, decos: map[uint32]map[uint32][]uint32{},
		vars: map[uint32]varFacts{}, types: map[uint32][]uint32{}, consts: map[uint32]uint32{}, opCount: map[opcode]int{}, names: map[uint32]string{}}
	ptrs := map[uint32][2]uint32{} // pointer type → class, pointee
	inFunction := false
	for i := headerLength; i < len(words); {
		n := int(words[i] >> 16)
		require.NotZero(t, n, "word %d", i)
		in := words[i : i+n]
		op := opcode(in[0] & 0xffff)
		i += n
		switch op {
		case opCapability:
			mf.caps[in[1]] = true
		case opExtension:
			mf.exts = append(mf.exts, wordsString(in[1:]))
		case opEntryPoint:
			name := wordsString(in[3:])
			nw := len(name)/4 + 1
			mf.entries = append(mf.entries, entryFacts{model: in[1], fn: in[2], name: name, iface: append([]uint32(nil), in[3+nw:]...)})
		case opExecutionMode:
			mf.modes[in[1]] = append(mf.modes[in[1]], in[2])
		case opName:
			mf.names[in[1]] = wordsString(in[2:])
		case opDecorate:
			if mf.decos[in[1]] == nil {
				mf.decos[in[1]] = map[uint32][]uint32{}
			}
			mf.decos[in[1]][in[2]] = append([]uint32{}, in[3:]...)
		case opTypePointer:
			ptrs[in[1]] = [2]uint32{in[2], in[3]}
		case opConstant:
			mf.consts[in[2]] = in[3]
		case opVariable:
			if !inFunction {
				p := ptrs[in[1]]
				mf.vars[in[2]] = varFacts{class: in[3], pointee: p[1]}
			}
		case opFunction:
			inFunction = true
		case opFunctionEnd:
			inFunction = false
		}
		if op >= opTypeVoid && op <= opTypeFunction || op == opTypeSampledImage || op == opTypeImage || op == opTypeSampler {
			mf.types[in[1]] = append([]uint32(nil), in...)
		}
		if inFunction {
			mf.opCount[op]++
		}
	}
	return mf
}

// wordsString decodes a nul-terminated literal string (SPIR-V §2.2.1).
func wordsString(ws []uint32) string {
	var b []byte
	for _, w := range ws {
		for k := 0; k < 4; k++ {
			c := byte(w >> (8 * k))
			if c == 0 {
				return string(b)
			}
			b = append(b, c)
		}
	}
	return string(b)
}

// typeName spells the scalar or vector type id in WGSL ("u32", "vec4<f32>",
// "bool").
func (mf *moduleFacts) typeName(id uint32) string {
	in := mf.types[id]
	if in == nil {
		return fmt.Sprintf("?%d", id)
	}
	switch opcode(in[0] & 0xffff) {
	case opTypeBool:
		return "bool"
	case opTypeFloat:
		return fmt.Sprintf("f%d", in[2])
	case opTypeInt:
		if in[3] == 1 {
			return fmt.Sprintf("i%d", in[2])
		}
		return fmt.Sprintf("u%d", in[2])
	case opTypeVector:
		return fmt.Sprintf("vec%d<%s>", in[3], mf.typeName(in[2]))
	case opTypeStruct:
		return "struct"
	}
	return fmt.Sprintf("op%d", in[0]&0xffff)
}

// ioVar is one Input or Output variable as a test states it: its class,
// builtin or location, type, and interpolation decorations.
type ioVar struct {
	class    string // "in" or "out"
	what     string // "BuiltIn VertexIndex" or "Location 2"
	typ      string
	interp   string // "Flat", "NoPerspective" or ""
	inIface  bool
	variable uint32
}

func (v ioVar) String() string {
	s := fmt.Sprintf("%s %s %s", v.class, v.what, v.typ)
	if v.interp != "" {
		s += " " + v.interp
	}
	return s
}

var builtInNames = map[uint32]string{
	builtInVertexIndex: "VertexIndex", builtInInstanceIndex: "InstanceIndex", builtInPosition: "Position",
	builtInFragCoord: "FragCoord", builtInFrontFacing: "FrontFacing",
}

// stageIO lists the module's Input and Output variables, sorted, each
// with what the entry point's interface says of it.
func (mf *moduleFacts) stageIO(t testing.TB) []ioVar {
	t.Helper()
	require.Len(t, mf.entries, 1)
	inIface := map[uint32]bool{}
	for _, id := range mf.entries[0].iface {
		inIface[id] = true
	}
	var out []ioVar
	for id, v := range mf.vars {
		if v.class != storageClassInput && v.class != storageClassOutput {
			continue
		}
		iv := ioVar{class: "in", typ: mf.typeName(v.pointee), inIface: inIface[id], variable: id}
		if v.class == storageClassOutput {
			iv.class = "out"
		}
		d := mf.decos[id]
		if b, ok := d[decorationBuiltIn]; ok {
			iv.what = "BuiltIn " + builtInNames[b[0]]
		} else if l, ok := d[decorationLocation]; ok {
			iv.what = fmt.Sprintf("Location %d", l[0])
		}
		_, flat := d[decorationFlat]
		_, noPersp := d[decorationNoPerspective]
		switch {
		case flat && noPersp:
			iv.interp = "Flat+NoPerspective"
		case flat:
			iv.interp = "Flat"
		case noPersp:
			iv.interp = "NoPerspective"
		}
		out = append(out, iv)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}
