package spirv

// Types of the generated tables (tables.go, from the SPIR-V grammar).

// opcode is a SPIR-V instruction opcode (SPIR-V §3.52).
type opcode uint16

// operandKind is an operand kind of the SPIR-V grammar (IdRef,
// LiteralInteger, StorageClass, …).
type operandKind uint8

// kindCategory is the grammar category of an operand kind.
type kindCategory uint8

const (
	catBitEnum   kindCategory = iota + 1 // flags: a mask, each set bit may take parameters
	catValueEnum                         // one value, which may take parameters
	catID                                // an <id>
	catLiteral                           // a literal number or string
	catComposite                         // a pair of the base kinds
)

// quantifier says how often an operand occurs.
type quantifier uint8

const (
	quantOne      quantifier = iota // exactly once
	quantOptional                   // "?": zero or once (when words remain)
	quantVariadic                   // "*": zero or more (while words remain)
)

// operandSpec is one operand slot of an instruction or enumerant.
type operandSpec struct {
	kind  operandKind
	quant quantifier
}

// enumerantInfo is one named value of an enum kind and the operands that
// follow it when it is used.
type enumerantInfo struct {
	name   string
	value  uint32
	params []operandSpec
}

// operandKindInfo describes one operand kind.
type operandKindInfo struct {
	name       string
	category   kindCategory
	bases      []operandKind // catComposite: the kinds of the pair
	enumerants []enumerantInfo
}

// instInfo describes one instruction: its opcode (or extended-instruction
// number), its name and its operands in order.
type instInfo struct {
	code     uint32
	name     string
	operands []operandSpec
}
