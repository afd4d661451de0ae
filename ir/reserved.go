package ir

// IsReservedWord reports whether s is a WGSL keyword, reserved word or
// predeclared type name that may not (or should not) be used as a
// generated identifier (WGSL "Keyword Summary", "Reserved Words").
func IsReservedWord(s string) bool { return reservedWords[s] }

var reservedWords = map[string]bool{}

func init() {
	for _, w := range []string{
		// keywords
		"alias", "break", "case", "const", "const_assert", "continue", "continuing",
		"default", "diagnostic", "discard", "else", "enable", "false", "fn", "for",
		"if", "let", "loop", "override", "requires", "return", "struct", "switch",
		"true", "var", "while",
		// predeclared names gpudiff never wants to shadow in generated code
		"bool", "i32", "u32", "f32", "f16", "vec2", "vec3", "vec4", "array", "select",
		"bitcast", "ptr", "atomic",
	} {
		reservedWords[w] = true
	}
}
