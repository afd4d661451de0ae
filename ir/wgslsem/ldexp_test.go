package wgslsem

import "testing"

// TestLdexpFault: a const-expression e2 > bias + 1 is a shader-creation
// error (WGSL #ldexp-builtin): 128 is the largest exponent for f32 (bias
// 127), 1024 for AbstractFloat (bias 1023); negative exponents never are.
func TestLdexpFault(t *testing.T) {
	for _, tc := range []struct {
		e2, bias int64
		want     Fault
	}{
		{128, F32Bias, NoFault},
		{129, F32Bias, LdexpExponent},
		{-1000, F32Bias, NoFault},
		{0, F32Bias, NoFault},
		{1024, 1023, NoFault},
		{1025, 1023, LdexpExponent},
		{1 << 40, F32Bias, LdexpExponent},
	} {
		if got := LdexpFault(tc.e2, tc.bias); got != tc.want {
			t.Errorf("LdexpFault(%d, %d) = %v, want %v", tc.e2, tc.bias, got, tc.want)
		}
	}
	if LdexpExponent.String() != "ldexp exponent greater than bias + 1" {
		t.Errorf("LdexpExponent names itself %q", LdexpExponent.String())
	}
}
