package wgsl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lexAll tokenizes src and returns "kind:text" strings, with template
// delimiters spelled TS and TE, plus the lexer's error messages.
func lexAll(src string) ([]string, []string) {
	var errs []string
	l := newLexer([]byte(src), func(off int32, msg string) { errs = append(errs, msg) })
	var out []string
	for {
		t := l.next()
		if t.kind == lexEOF {
			return out, errs
		}
		text := src[t.off:t.end]
		switch t.kind {
		case lexTemplateStart:
			out = append(out, "TS")
		case lexTemplateEnd:
			out = append(out, "TE")
		case lexIdent:
			out = append(out, "id:"+text)
		case lexKeyword:
			out = append(out, "kw:"+text)
		case lexIntLit:
			out = append(out, "int:"+text)
		case lexFloatLit:
			out = append(out, "float:"+text)
		default:
			out = append(out, text)
		}
	}
}

// TestTemplateDiscovery checks the template list discovery algorithm on
// the cases the spec discusses (WGSL #template-lists-sec) and on the
// common declaration forms. Expected tokens are derived from the spec's
// notes.
func TestTemplateDiscovery(t *testing.T) {
	tests := []struct {
		name, src string
		want      string
	}{
		{"comparisons joined by || are not a template", "a < b || c > d", "id:a < id:b || id:c > id:d"},
		{"comparisons joined by && are not a template", "a<b && c>d", "id:a < id:b && id:c > id:d"},
		{"nested template lists", "array<vec4<f32>, 4>", "id:array TS id:vec4 TS id:f32 TE , int:4 TE"},
		{">> closes two template lists", "array<vec4<f32>>", "id:array TS id:vec4 TS id:f32 TE TE"},
		{"call with template arguments", "a<b>(c)", "id:a TS id:b TE ( id:c )"},
		{"spec note: A ( B < C, D > ( E ) )", "A ( B < C, D > ( E ) )", "id:A ( id:B TS id:C , id:D TE ( id:E ) )"},
		{"'>' inside parentheses does not close", "array<i32,select(2,3,a>b)>",
			"id:array TS id:i32 , id:select ( int:2 , int:3 , id:a > id:b ) TE"},
		{"both ends must be in the same index expression", "a[b<d]>()", "id:a [ id:b < id:d ] > ( )"},
		{"spec note: A<B<<C>", "A<B<<C>", "id:A TS id:B << id:C TE"},
		{"spec note: A<B<=C>", "A<B<=C>", "id:A TS id:B <= id:C TE"},
		{"spec note: A<(B>=C)>", "A<(B>=C)>", "id:A TS ( id:B >= id:C ) TE"},
		{"spec note: A<(B!=C)>", "A<(B!=C)>", "id:A TS ( id:B != id:C ) TE"},
		{"spec note: A<(B==C)>", "A<(B==C)>", "id:A TS ( id:B == id:C ) TE"},
		{"var with address space and access mode", "var<storage, read_write> buf: array<u32>;",
			"kw:var TS id:storage , id:read_write TE id:buf : id:array TS id:u32 TE ;"},
		{"assignment clears pending candidates", "x = a < b; y = c > d;", "id:x = id:a < id:b ; id:y = id:c > id:d ;"},
		{"shift-assign is not a template", "i <<= 1u; j >>= 2u;", "id:i <<= int:1u ; id:j >>= int:2u ;"},
		{"literal suffix is not an identifier", "vec2<f32>(1.0f) > a", "id:vec2 TS id:f32 TE ( float:1.0f ) > id:a"},
		{"template end followed by assignment", "var x: array<i32, 2>= y;", "kw:var id:x : id:array TS id:i32 , int:2 TE = id:y ;"},
		{"comment between name and '<'", "vec3 /* c */ <f32>", "id:vec3 TS id:f32 TE"},
		{"bool literal is not a candidate", "true < b > c", "kw:true < id:b > id:c"},
		{"ptr and texture types", "ptr<function, vec3<f32>>", "id:ptr TS id:function , id:vec3 TS id:f32 TE TE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			toks, errs := lexAll(tc.src)
			require.Empty(t, errs)
			assert.Equal(t, tc.want, strings.Join(toks, " "))
		})
	}
}

// TestLexLiterals checks literal forms against the grammar's patterns
// (WGSL #numeric-literals, the spec's example lists).
func TestLexLiterals(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"0", "int:0"}, {"0i", "int:0i"}, {"1u", "int:1u"}, {"123", "int:123"},
		{"0x123", "int:0x123"}, {"0X123u", "int:0X123u"}, {"0x3f", "int:0x3f"},
		{"0.e+4f", "float:0.e+4f"}, {"01.", "float:01."}, {".01", "float:.01"}, {"12.34", "float:12.34"},
		{".0f", "float:.0f"}, {"0h", "float:0h"}, {"1e-3", "float:1e-3"}, {"1f", "float:1f"},
		{"0xa.fp+2", "float:0xa.fp+2"}, {"0x1P+4f", "float:0x1P+4f"}, {"0X.3", "float:0X.3"},
		{"0x3p+2h", "float:0x3p+2h"}, {"0X1.fp-4", "float:0X1.fp-4"}, {"0x3.2p+2h", "float:0x3.2p+2h"},
		// 0x1f is a hexadecimal integer: f is a digit (spec note).
		{"0x1f", "int:0x1f"},
		// A literal ending in a letter is followed by an identifier.
		{"1x", "int:1 id:x"},
		{"1.x", "float:1. id:x"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			toks, errs := lexAll(tc.src)
			require.Empty(t, errs)
			assert.Equal(t, tc.want, strings.Join(toks, " "))
		})
	}
}

func TestLexErrors(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"012", "leading zeros"},
		{"0x", "no digits"},
		{"1.5e", "exponent has no digits"},
		{"let null = 1;", `"null" is a reserved word`},
		{"let __x = 1;", "must not start with two underscores"},
		{"a /* unterminated /* nested */", "unterminated block comment"},
		{"a $ b", "invalid character"},
		{"a \x00 b", "null code point"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			_, errs := lexAll(tc.src)
			require.NotEmpty(t, errs)
			assert.Contains(t, errs[0], tc.want)
		})
	}
}

func TestLexCommentsAndBlankspace(t *testing.T) {
	src := "a /* x /* nested */ y */ b // line\n c\u2028d\u0085e /**/f"
	toks, errs := lexAll(src)
	require.Empty(t, errs)
	assert.Equal(t, "id:a id:b id:c id:d id:e id:f", strings.Join(toks, " "))
}

// TestLexPositions checks 1-based line and byte-column positions across
// the line breaks of WGSL #blankspace-and-line-breaks (LF, CRLF, CR, NEL).
func TestLexPositions(t *testing.T) {
	src := "a\nbb c\r\n  d\re\u0085 f"
	l := newLexer([]byte(src), func(int32, string) {})
	var got []string
	for tok := l.next(); tok.kind != lexEOF; tok = l.next() {
		got = append(got, lexPosOf(l.lines, tok.off).String())
	}
	assert.Equal(t, []string{"1:1", "2:1", "2:4", "3:3", "4:1", "5:2"}, got)
}

func TestLexUnicodeIdentifiers(t *testing.T) {
	for _, id := range []string{"Δέλτα", "réflexion", "Кызыл", "朝焼け", "_x", "x_1"} {
		t.Run(id, func(t *testing.T) {
			toks, errs := lexAll(id)
			require.Empty(t, errs)
			assert.Equal(t, []string{"id:" + id}, toks)
		})
	}
	toks, _ := lexAll("_ = x;")
	assert.Equal(t, []string{"_", "=", "id:x", ";"}, toks, "a lone underscore is the phony token")
}
