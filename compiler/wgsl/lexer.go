package wgsl

import (
	"fmt"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/gpudiff/gpudiff/ir"
)

// The lexer: blankspace and comments (WGSL #blankspace-and-line-breaks,
// #comments), literals (WGSL #literals), identifiers (WGSL #identifiers),
// keywords and reserved words, syntactic tokens, and template-list
// discovery (WGSL #template-lists-sec), which runs once over the whole
// source before tokenization, exactly as the spec's algorithm describes.
// Tokenization is on demand, so the parser can split a token where the
// grammar's context-aware tokenization would have produced a shorter one
// (WGSL #parsing: "the longest token candidate that is also a valid
// lookahead token").

// lexer turns source bytes into tokens.
type lexer struct {
	src   []byte
	pos   int
	lines []int32 // byte offset of the start of each line
	// tmpl marks template-list delimiters: lexTemplateStart or
	// lexTemplateEnd at the byte offset of the '<' or '>'.
	tmpl map[int32]lexKind
	// errf records a positioned error (byte offset, message).
	errf func(off int32, msg string)
	// fatal is set once an error makes further tokens meaningless.
	fatal bool
}

func newLexer(src []byte, errf func(off int32, msg string)) *lexer {
	l := &lexer{src: src, errf: errf, tmpl: map[int32]lexKind{}}
	l.lines = lexLineStarts(src)
	l.discoverTemplates()
	return l
}

// lexLineStarts returns the offset of the first byte of every line; line
// breaks are those of WGSL #blankspace-and-line-breaks (LF, VT, FF, CR,
// CRLF, NEL, LS, PS).
func lexLineStarts(src []byte) []int32 {
	starts := []int32{0}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '\n', '\v', '\f':
			starts = append(starts, int32(i+1))
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			starts = append(starts, int32(i+1))
		case 0xC2:
			if i+1 < len(src) && src[i+1] == 0x85 {
				starts = append(starts, int32(i+2))
			}
		case 0xE2:
			if i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9) {
				starts = append(starts, int32(i+3))
			}
		}
	}
	return starts
}

// lexPosOf returns the 1-based line and byte column of offset off.
func lexPosOf(lines []int32, off int32) ir.Pos {
	i := sort.Search(len(lines), func(i int) bool { return lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return ir.Pos{Line: int32(i + 1), Col: off - lines[i] + 1}
}

// lexBlankAt returns the length of the blankspace code point at p, or 0.
func lexBlankAt(s []byte, p int) int {
	switch s[p] {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return 1
	case 0xC2:
		if p+1 < len(s) && s[p+1] == 0x85 {
			return 2
		}
	case 0xE2:
		if p+2 < len(s) && s[p+1] == 0x80 {
			switch s[p+2] {
			case 0x8E, 0x8F, 0xA8, 0xA9: // U+200E, U+200F, U+2028, U+2029
				return 3
			}
		}
	}
	return 0
}

// skip advances past blankspace and comments from p. An unterminated
// block comment is reported (when report is set) and ends the input.
func (l *lexer) skip(p int, report bool) int {
	s := l.src
	for p < len(s) {
		if n := lexBlankAt(s, p); n > 0 {
			p += n
			continue
		}
		if s[p] != '/' || p+1 >= len(s) {
			return p
		}
		switch s[p+1] {
		case '/':
			p += 2
			for p < len(s) {
				if s[p] == '\n' || s[p] == '\r' || s[p] == '\v' || s[p] == '\f' {
					break
				}
				if s[p] >= 0x80 && lexBlankAt(s, p) > 0 && (s[p] == 0xC2 || s[p+2] >= 0xA8) {
					break // NEL, LS, PS end a line-ending comment
				}
				p++
			}
		case '*':
			start := p
			depth := 0
			for {
				if p+1 >= len(s) {
					if report {
						l.errf(int32(start), "unterminated block comment")
						l.fatal = true
					}
					return len(s)
				}
				if s[p] == '/' && s[p+1] == '*' {
					depth++
					p += 2
				} else if s[p] == '*' && s[p+1] == '/' {
					depth--
					p += 2
					if depth == 0 {
						break
					}
				} else {
					p++
				}
			}
		default:
			return p
		}
	}
	return p
}

func lexIsIDStart(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

func lexIsIDContinue(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
	}
	return lexIsIDStart(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

// scanIdent returns the end of the ident_pattern_token at p, or p when
// there is none. A lone '_' is not an identifier (it is the underscore
// token). XID_Start/XID_Continue (UAX #31) are approximated by Go's
// unicode categories: letters, letter numbers and Other_ID_Start; plus
// marks, decimal digits, connector punctuation and Other_ID_Continue.
func (l *lexer) scanIdent(p int) int {
	s := l.src
	r, n := utf8.DecodeRune(s[p:])
	if r == '_' {
		if p+1 >= len(s) {
			return p
		}
		r2, _ := utf8.DecodeRune(s[p+1:])
		if !lexIsIDContinue(r2) {
			return p
		}
	} else if !lexIsIDStart(r) {
		return p
	}
	q := p + n
	for q < len(s) {
		if c := s[q]; c < utf8.RuneSelf {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
				q++
				continue
			}
			break
		}
		r, n := utf8.DecodeRune(s[q:])
		if !lexIsIDContinue(r) {
			break
		}
		q += n
	}
	return q
}

func lexIsDigit(s []byte, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }

func lexIsHex(s []byte, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// lexNumberStart reports whether a numeric literal starts at p.
func lexNumberStart(s []byte, p int) bool {
	return lexIsDigit(s, p) || s[p] == '.' && lexIsDigit(s, p+1)
}

// scanNumber scans the numeric literal at p (WGSL #numeric-literals:
// decimal_int_literal, hex_int_literal, decimal_float_literal,
// hex_float_literal) and returns its end, its kind and an error message
// ("" when well formed).
func scanNumber(s []byte, p int) (int, lexKind, string) {
	n := len(s)
	if s[p] == '0' && p+1 < n && (s[p+1] == 'x' || s[p+1] == 'X') {
		i := p + 2
		for lexIsHex(s, i) {
			i++
		}
		digits := i - (p + 2)
		frac := false
		if i < n && s[i] == '.' {
			frac = true
			i++
			fs := i
			for lexIsHex(s, i) {
				i++
			}
			digits += i - fs
		}
		if digits == 0 {
			return i, lexIntLit, "hexadecimal literal has no digits"
		}
		if i < n && (s[i] == 'p' || s[i] == 'P') {
			j := i + 1
			if j < n && (s[j] == '+' || s[j] == '-') {
				j++
			}
			if !lexIsDigit(s, j) {
				return j, lexFloatLit, "hexadecimal float literal: exponent has no digits"
			}
			for lexIsDigit(s, j) {
				j++
			}
			if j < n && (s[j] == 'f' || s[j] == 'h') {
				j++
			}
			return j, lexFloatLit, ""
		}
		if frac {
			return i, lexFloatLit, ""
		}
		if i < n && (s[i] == 'i' || s[i] == 'u') {
			i++
		}
		return i, lexIntLit, ""
	}
	i := p
	for lexIsDigit(s, i) {
		i++
	}
	intDigits := i - p
	frac := false
	if i < n && s[i] == '.' && (intDigits > 0 || lexIsDigit(s, i+1)) {
		frac = true
		i++
		for lexIsDigit(s, i) {
			i++
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < n && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if lexIsDigit(s, j) {
			for lexIsDigit(s, j) {
				j++
			}
			if j < n && (s[j] == 'f' || s[j] == 'h') {
				j++
			}
			return j, lexFloatLit, ""
		}
		if frac {
			return j, lexFloatLit, "float literal: exponent has no digits"
		}
	}
	if frac {
		if i < n && (s[i] == 'f' || s[i] == 'h') {
			i++
		}
		return i, lexFloatLit, ""
	}
	if intDigits > 1 && s[p] == '0' {
		return i, lexIntLit, fmt.Sprintf("invalid integer literal %s: leading zeros are not allowed", s[p:i])
	}
	if i < n && (s[i] == 'f' || s[i] == 'h') {
		return i + 1, lexFloatLit, ""
	}
	if i < n && (s[i] == 'i' || s[i] == 'u') {
		i++
	}
	return i, lexIntLit, ""
}

// discoverTemplates runs WGSL's template list discovery algorithm
// (WGSL #template-lists-sec) over the whole source and records the
// delimiters it finds in l.tmpl.
func (l *lexer) discoverTemplates() {
	type cand struct{ pos, depth int }
	s := l.src
	var pending []cand
	depth := 0
	popAtDepth := func() {
		for len(pending) > 0 && pending[len(pending)-1].depth >= depth {
			pending = pending[:len(pending)-1]
		}
	}
	p := 0
	for {
		// Advance past blankspace, comments and literals.
		for {
			p = l.skip(p, false)
			if p >= len(s) {
				return
			}
			if lexNumberStart(s, p) {
				p, _, _ = scanNumber(s, p)
				continue
			}
			if e := l.scanIdent(p); e > p && (string(s[p:e]) == "true" || string(s[p:e]) == "false") {
				p = e
				continue
			}
			break
		}
		if e := l.scanIdent(p); e > p {
			p = l.skip(e, false)
			if p < len(s) && s[p] == '<' {
				pending = append(pending, cand{p, depth})
				p++
				if p < len(s) && (s[p] == '<' || s[p] == '=') {
					pending = pending[:len(pending)-1]
					p++
				}
			}
			continue
		}
		switch c := s[p]; {
		case c == '>':
			if n := len(pending); n > 0 && pending[n-1].depth == depth {
				l.tmpl[int32(pending[n-1].pos)] = lexTemplateStart
				l.tmpl[int32(p)] = lexTemplateEnd
				pending = pending[:n-1]
				p++
				continue
			}
			p++
			if p < len(s) && s[p] == '=' {
				p++
			}
		case c == '(' || c == '[':
			depth++
			p++
		case c == ')' || c == ']':
			popAtDepth()
			if depth > 0 {
				depth--
			}
			p++
		case c == '!':
			p++
			if p < len(s) && s[p] == '=' {
				p++
			}
		case c == '=':
			p++
			if p < len(s) && s[p] == '=' {
				p++
				continue
			}
			depth = 0
			pending = pending[:0]
		case c == ';' || c == '{' || c == ':':
			depth = 0
			pending = pending[:0]
			p++
		case (c == '&' || c == '|') && p+1 < len(s) && s[p+1] == c:
			popAtDepth()
			p += 2
		default:
			p++
		}
	}
}

// next returns the next token. Errors are reported through errf; after a
// fatal error next returns lexEOF.
func (l *lexer) next() lexTok {
	if l.fatal {
		return lexTok{kind: lexEOF, off: int32(len(l.src)), end: int32(len(l.src))}
	}
	s := l.src
	p := l.skip(l.pos, true)
	if p >= len(s) {
		l.pos = len(s)
		return lexTok{kind: lexEOF, off: int32(len(s)), end: int32(len(s))}
	}
	if k, ok := l.tmpl[int32(p)]; ok {
		l.pos = p + 1
		return lexTok{kind: k, off: int32(p), end: int32(p + 1)}
	}
	c := s[p]
	if lexNumberStart(s, p) {
		end, kind, msg := scanNumber(s, p)
		if msg != "" {
			l.errf(int32(p), msg)
		}
		l.pos = end
		return lexTok{kind: kind, off: int32(p), end: int32(end)}
	}
	if e := l.scanIdent(p); e > p {
		l.pos = e
		word := string(s[p:e])
		switch {
		case ir.IsKeyword(word):
			return lexTok{kind: lexKeyword, off: int32(p), end: int32(e)}
		case ir.IsReserved(word):
			l.errf(int32(p), fmt.Sprintf("%q is a reserved word and cannot be used", word))
		case len(word) >= 2 && word[0] == '_' && word[1] == '_':
			l.errf(int32(p), fmt.Sprintf("identifier %q must not start with two underscores", word))
		}
		return lexTok{kind: lexIdent, off: int32(p), end: int32(e)}
	}
	if c >= utf8.RuneSelf || c == 0 || c < ' ' {
		r, _ := utf8.DecodeRune(s[p:])
		if c == 0 {
			l.errf(int32(p), "the source must not contain a null code point")
		} else {
			l.errf(int32(p), fmt.Sprintf("invalid character %U", r))
		}
		l.fatal = true
		return lexTok{kind: lexEOF, off: int32(p), end: int32(p)}
	}
	for _, k := range lexPunctByByte[c] {
		sp := lexSpelling[k]
		if p+len(sp) <= len(s) && string(s[p:p+len(sp)]) == sp {
			l.pos = p + len(sp)
			return lexTok{kind: k, off: int32(p), end: int32(p + len(sp))}
		}
	}
	l.errf(int32(p), fmt.Sprintf("invalid character %q", c))
	l.fatal = true
	return lexTok{kind: lexEOF, off: int32(p), end: int32(p)}
}
