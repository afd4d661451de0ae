package spirv

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

var (
	instByOpcode = map[uint32]*instInfo{}
	glslByNumber = map[uint32]*instInfo{}
)

func init() {
	for i := range instructionTable {
		instByOpcode[instructionTable[i].code] = &instructionTable[i]
	}
	for i := range glslTable {
		glslByNumber[glslTable[i].code] = &glslTable[i]
	}
}

// generatorVendors names the SPIR-V generator vendor ids spirv-dis knows
// best (SPIR-V registry, "Generator Magic Numbers").
var generatorVendors = map[uint32]string{0: "Khronos", 7: "Khronos SPIR-V Tools Assembler", 8: "Khronos Glslang Reference Front End"}

// Disassemble returns the text form of a SPIR-V module in the style of
// `spirv-dis --raw-id`: a header comment (version, generator, bound,
// schema), then one instruction per line, result ids as %N right-aligned
// before " = ", operands decoded from the grammar tables (enumerant names,
// quoted strings, context-dependent numbers by their type: integers in
// decimal, 32-bit floats with 9 significant digits, non-finite and
// subnormal floats in hex, GLSL.std.450 instruction names).
//
// It fails on a malformed binary: a bad magic number, a truncated header
// or instruction, an unknown opcode or enumerant, or operands that do not
// fit their instruction's word count.
func Disassemble(words []uint32) (string, error) {
	if len(words) < headerLength {
		return "", fmt.Errorf("spirv: module of %d words has no header", len(words))
	}
	if words[0] != magic {
		return "", fmt.Errorf("spirv: bad magic number %#08x", words[0])
	}
	d := &disassembler{types: map[uint32]numType{}, extSets: map[uint32]string{}}
	var b strings.Builder
	gen := words[2]
	vendor, ok := generatorVendors[gen>>16]
	if !ok {
		vendor = fmt.Sprintf("Unknown(%d)", gen>>16)
	}
	fmt.Fprintf(&b, "; SPIR-V\n; Version: %d.%d\n; Generator: %s; %d\n; Bound: %d\n; Schema: %d\n",
		words[1]>>16&0xff, words[1]>>8&0xff, vendor, gen&0xffff, words[3], words[4])
	for i := headerLength; i < len(words); {
		n := int(words[i] >> 16)
		if n == 0 || i+n > len(words) {
			return "", fmt.Errorf("spirv: word %d: instruction word count %d overruns the module", i, n)
		}
		line, err := d.instruction(words[i : i+n])
		if err != nil {
			return "", fmt.Errorf("spirv: word %d: %v", i, err)
		}
		b.WriteString(line)
		b.WriteByte('\n')
		i += n
	}
	return b.String(), nil
}

// numType is what a context-dependent literal needs to know of a type.
type numType struct {
	float  bool
	signed bool
	width  uint32
}

type disassembler struct {
	types   map[uint32]numType // OpTypeInt/OpTypeFloat result ids
	extSets map[uint32]string  // OpExtInstImport result ids → set name
	values  map[uint32]uint32  // result id → result type id (OpSwitch selectors)

	// per instruction
	words     []uint32
	pos       int
	resultTyp uint32
	out       []string
	op        uint32
	extSet    string
}

func (d *disassembler) instruction(w []uint32) (string, error) {
	op := w[0] & 0xffff
	info, ok := instByOpcode[op]
	if !ok {
		return "", fmt.Errorf("unknown opcode %d", op)
	}
	d.words, d.pos, d.out, d.op, d.resultTyp, d.extSet = w, 1, d.out[:0], op, 0, ""
	result := ""
	for _, spec := range info.operands {
		switch spec.quant {
		case quantOne:
			if d.pos >= len(d.words) {
				return "", fmt.Errorf("%s: missing %s operand", info.name, operandKinds[spec.kind].name)
			}
			if spec.kind == kindIdResult {
				result = fmt.Sprintf("%%%d", d.words[d.pos])
				d.recordResult(d.words[d.pos])
				d.pos++
				continue
			}
			if err := d.operand(spec.kind); err != nil {
				return "", fmt.Errorf("%s: %v", info.name, err)
			}
		case quantOptional:
			if d.pos < len(d.words) {
				if err := d.operand(spec.kind); err != nil {
					return "", fmt.Errorf("%s: %v", info.name, err)
				}
			}
		case quantVariadic:
			for d.pos < len(d.words) {
				if err := d.operand(spec.kind); err != nil {
					return "", fmt.Errorf("%s: %v", info.name, err)
				}
			}
		}
	}
	if d.pos != len(d.words) {
		return "", fmt.Errorf("%s: %d words left after the operands", info.name, len(d.words)-d.pos)
	}
	text := info.name
	if len(d.out) > 0 {
		text += " " + strings.Join(d.out, " ")
	}
	if result == "" {
		return strings.Repeat(" ", 15) + text, nil
	}
	return fmt.Sprintf("%12s = %s", result, text), nil
}

// recordResult remembers what later instructions need about a result.
func (d *disassembler) recordResult(id uint32) {
	w := d.words
	switch opcode(d.op) {
	case opTypeInt:
		if len(w) >= 4 {
			d.types[id] = numType{width: w[2], signed: w[3] != 0}
		}
	case opTypeFloat:
		if len(w) >= 3 {
			d.types[id] = numType{float: true, width: w[2]}
		}
	case opExtInstImport:
		s, _, err := decodeString(w[2:])
		if err == nil {
			d.extSets[id] = s
		}
	}
	if d.resultTyp != 0 {
		if d.values == nil {
			d.values = map[uint32]uint32{}
		}
		d.values[id] = d.resultTyp
	}
}

func (d *disassembler) next() (uint32, error) {
	if d.pos >= len(d.words) {
		return 0, fmt.Errorf("operand missing")
	}
	w := d.words[d.pos]
	d.pos++
	return w, nil
}

// operand decodes one operand of kind k and appends its text.
func (d *disassembler) operand(k operandKind) error {
	info := &operandKinds[k]
	switch info.category {
	case catID:
		w, err := d.next()
		if err != nil {
			return err
		}
		if k == kindIdResultType {
			d.resultTyp = w
		}
		if opcode(d.op) == opExtInst && d.pos == 4 { // the Set operand
			d.extSet = d.extSets[w]
		}
		d.out = append(d.out, fmt.Sprintf("%%%d", w))
	case catComposite:
		for _, base := range info.bases {
			if err := d.operand(base); err != nil {
				return err
			}
		}
	case catLiteral:
		return d.literal(k)
	case catValueEnum:
		w, err := d.next()
		if err != nil {
			return err
		}
		en := findEnumerant(info, w)
		if en == nil {
			return fmt.Errorf("unknown %s value %d", info.name, w)
		}
		d.out = append(d.out, en.name)
		return d.params(en.params)
	case catBitEnum:
		w, err := d.next()
		if err != nil {
			return err
		}
		if w == 0 {
			if en := findEnumerant(info, 0); en != nil {
				d.out = append(d.out, en.name)
			} else {
				d.out = append(d.out, "0")
			}
			return nil
		}
		var names []string
		var params []operandSpec
		for bit := uint32(1); bit != 0; bit <<= 1 {
			if w&bit == 0 {
				continue
			}
			en := findEnumerant(info, bit)
			if en == nil {
				return fmt.Errorf("unknown %s bit %#x", info.name, bit)
			}
			names = append(names, en.name)
			params = append(params, en.params...)
		}
		d.out = append(d.out, strings.Join(names, "|"))
		return d.params(params)
	}
	return nil
}

func (d *disassembler) params(ps []operandSpec) error {
	for _, p := range ps {
		if err := d.operand(p.kind); err != nil {
			return err
		}
	}
	return nil
}

func findEnumerant(info *operandKindInfo, v uint32) *enumerantInfo {
	for i := range info.enumerants {
		if info.enumerants[i].value == v {
			return &info.enumerants[i]
		}
	}
	return nil
}

// literal decodes a literal operand.
func (d *disassembler) literal(k operandKind) error {
	switch k {
	case kindLiteralString:
		s, n, err := decodeString(d.words[d.pos:])
		if err != nil {
			return err
		}
		d.pos += n
		d.out = append(d.out, quote(s))
		return nil
	case kindLiteralExtInstInteger:
		w, err := d.next()
		if err != nil {
			return err
		}
		if d.extSet == "GLSL.std.450" {
			if in, ok := glslByNumber[w]; ok {
				d.out = append(d.out, in.name)
				return nil
			}
		}
		d.out = append(d.out, strconv.FormatUint(uint64(w), 10))
		return nil
	case kindLiteralSpecConstantOpInteger:
		w, err := d.next()
		if err != nil {
			return err
		}
		if in, ok := instByOpcode[w]; ok {
			d.out = append(d.out, strings.TrimPrefix(in.name, "Op"))
			return nil
		}
		return fmt.Errorf("unknown spec constant opcode %d", w)
	case kindLiteralContextDependentNumber:
		return d.number(d.types[d.resultTyp])
	}
	// LiteralInteger; in OpSwitch its width and signedness are the selector's.
	if opcode(d.op) == opSwitch && len(d.words) > 1 {
		if t, ok := d.types[d.values[d.words[1]]]; ok {
			return d.number(t)
		}
	}
	w, err := d.next()
	if err != nil {
		return err
	}
	d.out = append(d.out, strconv.FormatUint(uint64(w), 10))
	return nil
}

// number decodes a literal number of type t (one word up to 32 bits, two
// words, low first, for 64).
func (d *disassembler) number(t numType) error {
	lo, err := d.next()
	if err != nil {
		return err
	}
	if t.width == 64 {
		hi, err := d.next()
		if err != nil {
			return err
		}
		v := uint64(hi)<<32 | uint64(lo)
		switch {
		case t.float:
			d.out = append(d.out, strconv.FormatFloat(math.Float64frombits(v), 'g', 17, 64))
		case t.signed:
			d.out = append(d.out, strconv.FormatInt(int64(v), 10))
		default:
			d.out = append(d.out, strconv.FormatUint(v, 10))
		}
		return nil
	}
	switch {
	case t.float && t.width == 32:
		d.out = append(d.out, formatF32(lo))
	case t.float && t.width == 16:
		d.out = append(d.out, formatF16(lo))
	case t.float:
		d.out = append(d.out, fmt.Sprintf("0x%x", lo))
	case t.signed && t.width == 32:
		d.out = append(d.out, strconv.FormatInt(int64(int32(lo)), 10))
	case t.signed && t.width == 16:
		d.out = append(d.out, strconv.FormatInt(int64(int16(lo)), 10))
	case t.signed && t.width == 8:
		d.out = append(d.out, strconv.FormatInt(int64(int8(lo)), 10))
	default:
		d.out = append(d.out, strconv.FormatUint(uint64(lo), 10))
	}
	return nil
}

// formatF32 prints a float32 as spirv-dis does: zero and normal numbers
// in decimal with 9 significant digits (C++ max_digits10, trailing zeros
// dropped), other values as a hex float 0x1.<fraction>p<exponent>
// (infinity 0x1p+128, quiet NaN 0x1.8p+128).
func formatF32(bits uint32) string {
	f := math.Float32frombits(bits)
	exp := bits >> 23 & 0xff
	frac := bits & 0x7fffff
	if exp != 0 && exp != 0xff || bits&0x7fffffff == 0 {
		return strconv.FormatFloat(float64(f), 'g', 9, 32)
	}
	sign := ""
	if bits>>31 != 0 {
		sign = "-"
	}
	var e int
	var mant uint32 // fraction bits after the point, aligned to 24 bits
	if exp == 0xff {
		e, mant = 128, frac<<1
	} else { // subnormal: normalize
		p := 22
		for frac>>uint(p)&1 == 0 {
			p--
		}
		e = p - 149
		mant = (frac &^ (1 << uint(p))) << uint(24-p)
	}
	hex := ""
	if mant != 0 {
		hex = "." + strings.TrimRight(fmt.Sprintf("%06x", mant), "0")
	}
	return fmt.Sprintf("%s0x1%sp%+d", sign, hex, e)
}

// formatF16 prints binary16 bits (the low half of the literal word) as
// spirv-dis does: always a hex float — 0x0p+0 for zero, 0x1.<fraction>p<exponent>
// otherwise, the 10 fraction bits as three hex digits with trailing
// zeros dropped, subnormals normalized, infinity 0x1p+16 and NaNs
// 0x1.<payload>p+16.
func formatF16(bits uint32) string {
	sign := ""
	if bits&0x8000 != 0 {
		sign = "-"
	}
	exp := int(bits >> 10 & 0x1f)
	frac := bits & 0x3ff
	var e int
	var mant uint32 // fraction bits after the point, aligned to 12 bits
	switch {
	case exp == 0 && frac == 0:
		return sign + "0x0p+0"
	case exp == 0x1f:
		e, mant = 16, frac<<2
	case exp == 0: // subnormal: normalize
		p := 9
		for frac>>uint(p)&1 == 0 {
			p--
		}
		e = p - 24
		mant = (frac &^ (1 << uint(p))) << uint(12-p)
	default:
		e, mant = exp-15, frac<<2
	}
	hex := ""
	if mant != 0 {
		hex = "." + strings.TrimRight(fmt.Sprintf("%03x", mant), "0")
	}
	return fmt.Sprintf("%s0x1%sp%+d", sign, hex, e)
}

// decodeString decodes a nul-terminated literal string and returns it and
// the number of words it occupies.
func decodeString(w []uint32) (string, int, error) {
	var b []byte
	for i, word := range w {
		for j := 0; j < 4; j++ {
			c := byte(word >> (8 * j))
			if c == 0 {
				return string(b), i + 1, nil
			}
			b = append(b, c)
		}
	}
	return "", 0, fmt.Errorf("unterminated literal string")
}

// quote quotes s as spirv-dis does: in double quotes, with " and \
// escaped by a backslash.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}
