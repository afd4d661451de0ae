// rule: operands are evaluated left to right, whatever the operator precedence
// spec: WGSL #program-order (Program Order Within an Invocation), "The order of evaluation for operands of an expression is left-to-right in WGSL."
//
// Derivation: note(d) appends the hex digit d to the private global trace.
// In a + b * c the operands of + are a, then b * c, whose operands are b,
// then c: the digits land as x, x+1, x+2. x = 0: trace 0x012 = 18, ret
// 0 + 1*2 = 2; x = 1: 0x123 = 291, ret 7; x = 5: 0x567 = 1383, ret 47;
// x = 13: 0xDEF = 3567, ret 13 + 14*15 = 223.

var<private> trace: u32;

fn note(d: u32) -> u32 {
    trace = trace * 16u + d;
    return d;
}

fn eval_order_operands(x: u32) -> u32 {
    return note(x) + note(x + 1u) * note(x + 2u);
}
