package spirv

import (
	"math"
	"slices"
	"strconv"
)

// builder assembles a SPIR-V module: it hands out result ids,
// keeps the module's sections in the order SPIR-V §2.4 ("Logical Layout of
// a Module") requires, and deduplicates types and constants, which SPIR-V
// requires for non-aggregate types (§2.8, "Types") and which keeps modules
// small. It knows nothing about the IR.
type builder struct {
	bound uint32 // next unused id

	capabilities []uint32 // OpCapability
	extensions   []uint32 // OpExtension
	extImports   []uint32 // OpExtInstImport
	memoryModel  []uint32 // OpMemoryModel
	entryPoints  []uint32 // OpEntryPoint
	execModes    []uint32 // OpExecutionMode
	names        []uint32 // OpName, OpMemberName
	annotations  []uint32 // OpDecorate, OpMemberDecorate
	globals      []uint32 // types, constants, module-scope OpVariable
	functions    []uint32 // function definitions, in order

	debugNames  bool
	glsl        uint32            // id of the GLSL.std.450 import, 0 until used
	dedup       map[string]uint32 // type and constant keys → ids
	moduleScope map[uint32]bool   // ids of deduplicated types and constants
	keyBuf      []byte
}

func newBuilder(debugNames bool) *builder {
	return &builder{bound: 1, debugNames: debugNames, dedup: map[string]uint32{}, moduleScope: map[uint32]bool{}}
}

// id returns a fresh result id.
func (b *builder) id() uint32 {
	id := b.bound
	b.bound++
	return id
}

// emit appends one instruction — its word count and opcode, then its
// operand words (SPIR-V §2.3, "Physical Layout") — to sec.
func emit(sec *[]uint32, op opcode, operands ...uint32) {
	*sec = append(*sec, uint32(len(operands)+1)<<16|uint32(op))
	*sec = append(*sec, operands...)
}

// stringWords encodes s as a nul-terminated UTF-8 literal string, four
// bytes per word, little-endian within each word (SPIR-V §2.2.1).
func stringWords(s string) []uint32 {
	w := make([]uint32, len(s)/4+1)
	for i := 0; i < len(s); i++ {
		w[i/4] |= uint32(s[i]) << (8 * (i % 4))
	}
	return w
}

// name records OpName target "s" when debug names are on.
func (b *builder) name(target uint32, s string) {
	if b.debugNames && s != "" {
		emit(&b.names, opName, append([]uint32{target}, stringWords(s)...)...)
	}
}

// memberName records OpMemberName when debug names are on.
func (b *builder) memberName(typ uint32, member int, s string) {
	if b.debugNames && s != "" {
		emit(&b.names, opMemberName, append([]uint32{typ, uint32(member)}, stringWords(s)...)...)
	}
}

// decorate records OpDecorate target decoration literals….
func (b *builder) decorate(target, decoration uint32, lits ...uint32) {
	emit(&b.annotations, opDecorate, append([]uint32{target, decoration}, lits...)...)
}

// memberDecorate records OpMemberDecorate.
func (b *builder) memberDecorate(typ uint32, member int, decoration uint32, lits ...uint32) {
	emit(&b.annotations, opMemberDecorate, append([]uint32{typ, uint32(member), decoration}, lits...)...)
}

// extension declares the SPIR-V extension name (OpExtension, SPIR-V
// §3.52.3) once.
func (b *builder) extension(name string) {
	want := stringWords(name)
	for i := 0; i < len(b.extensions); {
		n := int(b.extensions[i] >> 16)
		if n-1 == len(want) && slices.Equal(b.extensions[i+1:i+n], want) {
			return
		}
		i += n
	}
	emit(&b.extensions, opExtension, want...)
}

// glslSet returns the id of the GLSL.std.450 extended instruction set,
// importing it on first use.
func (b *builder) glslSet() uint32 {
	if b.glsl == 0 {
		b.glsl = b.id()
		emit(&b.extImports, opExtInstImport, append([]uint32{b.glsl}, stringWords("GLSL.std.450")...)...)
	}
	return b.glsl
}

// global emits a deduplicated instruction of the types-and-constants
// section whose result id is the first operand after an optional result
// type: op [resultType] %result operands…. key identifies it; an existing
// id is returned when key was seen before. hasType says whether the
// instruction has a result type (constants) or not (types).
func (b *builder) global(key string, op opcode, hasType bool, operands ...uint32) uint32 {
	if id, ok := b.dedup[key]; ok {
		return id
	}
	id := b.id()
	b.dedup[key] = id
	b.moduleScope[id] = true
	if hasType {
		emit(&b.globals, op, append([]uint32{operands[0], id}, operands[1:]...)...)
	} else {
		emit(&b.globals, op, append([]uint32{id}, operands...)...)
	}
	return id
}

// key builds a dedup key from an opcode tag and words.
func (b *builder) key(tag byte, words ...uint32) string {
	k := append(b.keyBuf[:0], tag)
	for _, w := range words {
		k = strconv.AppendUint(append(k, ','), uint64(w), 10)
	}
	b.keyBuf = k
	return string(k)
}

// Types (SPIR-V §3.52.6, "Type-Declaration Instructions").

func (b *builder) typeVoid() uint32 { return b.global("void", opTypeVoid, false) }
func (b *builder) typeBool() uint32 { return b.global("bool", opTypeBool, false) }

// typeInt returns OpTypeInt 32 signedness.
func (b *builder) typeInt(signed bool) uint32 {
	if signed {
		return b.global("i32", opTypeInt, false, 32, 1)
	}
	return b.global("u32", opTypeInt, false, 32, 0)
}

func (b *builder) typeFloat() uint32 { return b.global("f32", opTypeFloat, false, 32) }

// typeFloat16 returns OpTypeFloat 16 (the caller declares Float16).
func (b *builder) typeFloat16() uint32 { return b.global("f16", opTypeFloat, false, 16) }

// typeVector returns OpTypeVector elem n.
func (b *builder) typeVector(elem uint32, n int) uint32 {
	return b.global(b.key('v', elem, uint32(n)), opTypeVector, false, elem, uint32(n))
}

// typeMatrix returns OpTypeMatrix column n (SPIR-V §3.52.6: n columns
// of the float vector type column).
func (b *builder) typeMatrix(column uint32, n int) uint32 {
	return b.global(b.key('m', column, uint32(n)), opTypeMatrix, false, column, uint32(n))
}

// typePointer returns OpTypePointer class elem.
func (b *builder) typePointer(class, elem uint32) uint32 {
	return b.global(b.key('p', class, elem), opTypePointer, false, class, elem)
}

// typeFunction returns OpTypeFunction ret params….
func (b *builder) typeFunction(ret uint32, params ...uint32) uint32 {
	return b.global(b.key('f', append([]uint32{ret}, params...)...), opTypeFunction, false, append([]uint32{ret}, params...)...)
}

// typeArray returns OpTypeArray elem length without decorations (the
// logical array type; a laid-out one is typeStridedArray's, another id).
func (b *builder) typeArray(elem uint32, n int) uint32 {
	return b.global(b.key('a', elem, uint32(n)), opTypeArray, false, elem, b.constU32(uint32(n)))
}

// typeStridedArray returns OpTypeArray elem length decorated ArrayStride
// stride, declared and decorated once per (elem, length, stride): several
// IR types may produce one SPIR-V element type (atomic<u32>, bool and u32
// are all a u32 in a buffer), and SPIR-V allows one ArrayStride per id
// (spirv-val: "decorated with ArrayStride multiple times is not
// allowed"). Arrays of one element and length with different strides
// stay distinct types (an aggregate type may be declared more than once,
// SPIR-V §2.8).
func (b *builder) typeStridedArray(elem uint32, n, stride int) uint32 {
	key := b.key('s', elem, uint32(n), uint32(stride))
	if id, ok := b.dedup[key]; ok {
		return id
	}
	id := b.global(key, opTypeArray, false, elem, b.constU32(uint32(n)))
	b.decorate(id, decorationArrayStride, uint32(stride))
	return id
}

// typeRuntimeArray returns a fresh OpTypeRuntimeArray elem (never shared:
// each carries its own ArrayStride).
func (b *builder) typeRuntimeArray(elem uint32) uint32 {
	id := b.id()
	emit(&b.globals, opTypeRuntimeArray, id, elem)
	return id
}

// typeStruct returns OpTypeStruct members…, deduplicated by key ("" for
// a fresh type).
func (b *builder) typeStruct(key string, members ...uint32) uint32 {
	if key == "" {
		id := b.id()
		emit(&b.globals, opTypeStruct, append([]uint32{id}, members...)...)
		return id
	}
	return b.global(key, opTypeStruct, false, members...)
}

// Constants (SPIR-V §3.52.7, "Constant-Creation Instructions").

// constBool returns OpConstantTrue or OpConstantFalse.
func (b *builder) constBool(v bool) uint32 {
	if v {
		return b.global("true", opConstantTrue, true, b.typeBool())
	}
	return b.global("false", opConstantFalse, true, b.typeBool())
}

// constScalar returns OpConstant typ bits for a scalar type of up to 32
// bits: a 16-bit float's literal is its bits in the low half of the word,
// the high half 0 (SPIR-V §2.2.1, "Literal").
func (b *builder) constScalar(typ, bits uint32) uint32 {
	return b.global(b.key('c', typ, bits), opConstant, true, typ, bits)
}

func (b *builder) constU32(v uint32) uint32 { return b.constScalar(b.typeInt(false), v) }
func (b *builder) constI32(v int32) uint32  { return b.constScalar(b.typeInt(true), uint32(v)) }
func (b *builder) constF32(v float32) uint32 {
	return b.constScalar(b.typeFloat(), math.Float32bits(v))
}

// constComposite returns OpConstantComposite typ parts….
func (b *builder) constComposite(typ uint32, parts ...uint32) uint32 {
	return b.global(b.key('C', append([]uint32{typ}, parts...)...), opConstantComposite, true, append([]uint32{typ}, parts...)...)
}

// constNull returns OpConstantNull typ.
func (b *builder) constNull(typ uint32) uint32 {
	return b.global(b.key('0', typ), opConstantNull, true, typ)
}

// variable emits a module-scope OpVariable of pointer type ptr in class,
// with an optional initializer (0 for none).
func (b *builder) variable(ptr, class, init uint32) uint32 {
	id := b.id()
	if init != 0 {
		emit(&b.globals, opVariable, ptr, id, class, init)
	} else {
		emit(&b.globals, opVariable, ptr, id, class)
	}
	return id
}

// header is the SPIR-V header version word for SPIR-V 1.3 (§2.3).
const (
	magic        = 0x07230203
	version13    = 0x00010300
	generatorID  = 0 // no registered generator id (SPIR-V §2.3: 0 is allowed)
	headerLength = 5
)

// words lays the module out: header, then the sections in logical order.
func (b *builder) words() []uint32 {
	secs := [][]uint32{b.capabilities, b.extensions, b.extImports, b.memoryModel, b.entryPoints, b.execModes,
		b.names, b.annotations, b.globals, b.functions}
	n := headerLength
	for _, s := range secs {
		n += len(s)
	}
	out := make([]uint32, 0, n)
	out = append(out, magic, version13, generatorID, b.bound, 0)
	for _, s := range secs {
		out = append(out, s...)
	}
	return out
}
