package wgsl

// Tokens of WGSL (WGSL #tokens, #syntactic-tokens, #keyword-summary).

// lexKind is the kind of a token.
type lexKind uint8

const (
	lexEOF lexKind = iota
	lexIdent
	lexKeyword
	lexIntLit
	lexFloatLit
	lexTemplateStart // '<' that opens a template list (WGSL #template-lists-sec)
	lexTemplateEnd   // '>' that closes a template list

	// syntactic tokens
	lexAnd          // &
	lexAndAnd       // &&
	lexArrow        // ->
	lexAt           // @
	lexSlash        // /
	lexBang         // !
	lexLBrack       // [
	lexRBrack       // ]
	lexLBrace       // {
	lexRBrace       // }
	lexColon        // :
	lexComma        // ,
	lexAssign       // =
	lexEqEq         // ==
	lexNotEq        // !=
	lexGt           // >
	lexGe           // >=
	lexShr          // >>
	lexLt           // <
	lexLe           // <=
	lexShl          // <<
	lexPercent      // %
	lexMinus        // -
	lexMinusMinus   // --
	lexDot          // .
	lexPlus         // +
	lexPlusPlus     // ++
	lexOr           // |
	lexOrOr         // ||
	lexLParen       // (
	lexRParen       // )
	lexSemi         // ;
	lexStar         // *
	lexTilde        // ~
	lexUnderscore   // _
	lexXor          // ^
	lexPlusAssign   // +=
	lexMinusAssign  // -=
	lexStarAssign   // *=
	lexSlashAssign  // /=
	lexPercentAssgn // %=
	lexAndAssign    // &=
	lexOrAssign     // |=
	lexXorAssign    // ^=
	lexShrAssign    // >>=
	lexShlAssign    // <<=
	lexNumKinds
)

// lexSpelling is the source spelling of each syntactic token.
var lexSpelling = [lexNumKinds]string{
	lexTemplateStart: "<", lexTemplateEnd: ">",
	lexAnd: "&", lexAndAnd: "&&", lexArrow: "->", lexAt: "@", lexSlash: "/", lexBang: "!",
	lexLBrack: "[", lexRBrack: "]", lexLBrace: "{", lexRBrace: "}", lexColon: ":", lexComma: ",",
	lexAssign: "=", lexEqEq: "==", lexNotEq: "!=", lexGt: ">", lexGe: ">=", lexShr: ">>",
	lexLt: "<", lexLe: "<=", lexShl: "<<", lexPercent: "%", lexMinus: "-", lexMinusMinus: "--",
	lexDot: ".", lexPlus: "+", lexPlusPlus: "++", lexOr: "|", lexOrOr: "||", lexLParen: "(",
	lexRParen: ")", lexSemi: ";", lexStar: "*", lexTilde: "~", lexUnderscore: "_", lexXor: "^",
	lexPlusAssign: "+=", lexMinusAssign: "-=", lexStarAssign: "*=", lexSlashAssign: "/=",
	lexPercentAssgn: "%=", lexAndAssign: "&=", lexOrAssign: "|=", lexXorAssign: "^=",
	lexShrAssign: ">>=", lexShlAssign: "<<=",
}

// lexPunct lists the syntactic tokens longest first, for maximal munch.
var lexPunct = func() []lexKind {
	var out []lexKind
	for n := 3; n >= 1; n-- {
		for k := lexAnd; k < lexNumKinds; k++ {
			if len(lexSpelling[k]) == n {
				out = append(out, k)
			}
		}
	}
	return out
}()

// lexPunctByByte lists, per first byte, the syntactic tokens that start
// with it, longest first.
var lexPunctByByte = func() (t [256][]lexKind) {
	for _, k := range lexPunct {
		c := lexSpelling[k][0]
		t[c] = append(t[c], k)
	}
	return t
}()

// lexTok is one token: its kind and its byte span [off, end) in the source.
type lexTok struct {
	kind     lexKind
	off, end int32
}
