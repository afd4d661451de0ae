// rule: function call arguments are evaluated left to right
// spec: WGSL #function-calls (Function Calls), "Function call argument values are evaluated. The relative order of evaluation is left-to-right."
//
// Derivation: note(d) appends the hex digit d to the private global trace;
// the arguments note(x + 2), note(x), note(x + 1) run in that order, so
// the digits land as x+2, x, x+1; sum3 returns their sum 3x + 3.
// x = 0: trace 0x201 = 513, ret 3; x = 1: 0x312 = 786, ret 6;
// x = 5: 0x756 = 1878, ret 18; x = 13: 0xFDE = 4062, ret 42.

var<private> trace: u32;

fn note(d: u32) -> u32 {
    trace = trace * 16u + d;
    return d;
}

fn sum3(a: u32, b: u32, c: u32) -> u32 {
    return a + b + c;
}

fn eval_order_call_args(x: u32) -> u32 {
    return sum3(note(x + 2u), note(x), note(x + 1u));
}
