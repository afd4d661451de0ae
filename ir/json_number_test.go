package ir

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJSONNumberGrammar: UnmarshalValue's fast paths take exactly the
// texts encoding/json's scanner accepts as one number (json.Valid, and the
// value starts like a number), over hand-picked edge cases and 20,000
// random strings of number characters.
func TestJSONNumberGrammar(t *testing.T) {
	isNum := func(s string) bool {
		// UnmarshalValue trims the text first: a number here has no spaces.
		return json.Valid([]byte(s)) && s != "" && strings.TrimSpace(s) == s && (s[0] == '-' || s[0] >= '0' && s[0] <= '9')
	}
	isInt := func(s string) bool { return isNum(s) && !strings.ContainsAny(s, ".eE") }
	cases := []string{"0", "-0", "1", "-1", "01", "-01", "1.", ".5", "1.5", "1e5", "1E+5", "1e-5", "1e", "1e+", "-", "", "--1",
		"0.0", "00", "1.5e3", "12345678901234567890", "1ee2", "1.2.3", "+1", "Infinity", "NaN", "0x10", "1_0", " 1", "1 "}
	r := rand.New(rand.NewSource(1))
	const alphabet = "0123456789-+.eE"
	for range 20000 {
		n := 1 + r.Intn(7)
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		require.Equal(t, isNum(c), isJSONNumber([]byte(c)), "%q", c)
		require.Equal(t, isInt(c), isJSONInteger([]byte(c)), "%q", c)
	}
}

// TestUnmarshalValueErrorsNamePaths: an error deep in a value names its
// path from the binding, built on the way out (hand-written cases).
func TestUnmarshalValueErrorsNamePaths(t *testing.T) {
	p := StructType(&StructDecl{Name: "P", Fields: []Field{{Name: "pos", Type: Vec(2, F32)}, {Name: "id", Type: U32}}})
	rt := RuntimeArrayOf(p)
	_, err := UnmarshalValue(rt, json.RawMessage(`[{"pos": [1, 2], "id": 3}, {"pos": [1, "x"], "id": 3}]`))
	require.EqualError(t, err, `[1].pos[1]: want a number, got "x"`)
	_, err = UnmarshalValue(rt, json.RawMessage(`[{"pos": [1, 2], "id": -3}]`))
	require.EqualError(t, err, `[0].id: -3 is out of range for u32`)
	_, err = UnmarshalValue(I32, json.RawMessage(`2147483648`))
	require.EqualError(t, err, `value: 2147483648 is out of range for i32`)
	_, err = UnmarshalValue(I32, json.RawMessage(`1.5`))
	require.EqualError(t, err, `value: 1.5 is not an integer`)
	_, err = UnmarshalValue(F32, json.RawMessage(`1e39`))
	require.EqualError(t, err, `value: 1e39 is not an f32`)
	v, err := UnmarshalValue(rt, json.RawMessage(`[{"pos": [0.25, -1e2], "id": 4294967295}]`))
	require.NoError(t, err)
	require.Equal(t, float32(0.25), v.Elems[0].Elems[0].Elems[0].F32())
	require.Equal(t, float32(-100), v.Elems[0].Elems[0].Elems[1].F32())
	require.Equal(t, uint32(4294967295), v.Elems[0].Elems[1].Bits)
	v, err = UnmarshalValue(F32, json.RawMessage(`"-Inf"`))
	require.NoError(t, err)
	require.Equal(t, uint32(0xff800000), v.Bits)
}
