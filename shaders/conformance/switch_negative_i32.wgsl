// rule: an i32 switch matches negative and extreme case values by signed equality
// spec: WGSL #switch-statement (Switch Statement), "If the selector value equals the value of an expression in a case_selector list, then control is transferred to the body of that case clause."
//
// Derivation: -1 -> 1; INT_MIN -> 2; INT_MAX -> 3; -2 and 2 -> 4;
// 1, 0, -2147483647 (no clause) -> the default, 0.

fn switch_negative_i32(x: i32) -> i32 {
    var r = 0;
    switch x {
        case -1 {
            r = 1;
        }
        case -2147483648 {
            r = 2;
        }
        case 2147483647 {
            r = 3;
        }
        case -2, 2 {
            r = 4;
        }
        default {
            r = 0;
        }
    }
    return r;
}
