package ir

import (
	"regexp"
	"strconv"
)

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// predeclared reports names canonicalization keeps: keywords and reserved
// words, type names and builtin functions.
func predeclared(s string) bool {
	if IsReservedWord(s) {
		return true
	}
	if _, ok := LookupBuiltin(s); ok {
		return true
	}
	switch s {
	case "vec2", "vec3", "vec4", "array", "bitcast", "select", "private", "f32", "i32", "u32", "bool", "true", "false":
		return true
	}
	return false
}

// CanonicalText is ProgramText with every user identifier (functions,
// parameters, locals, globals, structs, members) renamed n0, n1, … in order
// of first appearance, so two programs that differ only in names have the
// same canonical text. Identifiers inside numeric literals (1i, 2u) are
// untouched: a literal's suffix is not a separate word.
func CanonicalText(m *Module, kernel string) string {
	text := ProgramText(m, kernel)
	names := map[string]string{}
	var out []byte
	last := 0
	for _, loc := range identRE.FindAllStringIndex(text, -1) {
		s, e := loc[0], loc[1]
		if s > 0 && isWordByte(text[s-1]) {
			continue // part of a literal like 1i or 0x1fu
		}
		id := text[s:e]
		if predeclared(id) {
			continue
		}
		nn, ok := names[id]
		if !ok {
			nn = "n" + strconv.Itoa(len(names))
			names[id] = nn
		}
		out = append(out, text[last:s]...)
		out = append(out, nn...)
		last = e
	}
	out = append(out, text[last:]...)
	return string(out)
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// CanonicalHash is the hex SHA-256 of CanonicalText: equal for programs
// that differ only in their names. Failure signatures use it so that the
// same shrunk bug found twice under different names is one failure.
func CanonicalHash(m *Module, kernel string) string { return Hash(CanonicalText(m, kernel)) }
