// rule: a u32 switch matches case values by unsigned equality, including values of 2^31 and above
// spec: WGSL #switch-statement (Switch Statement), "If the selector value equals the value of an expression in a case_selector list, then control is transferred to the body of that case clause."
//
// Derivation: 0 -> 1; 0xFFFFFFFF -> 2; 0x80000000 and 1 -> 3;
// 2, 0x7FFFFFFF, 0xFFFFFFFE (no clause) -> the default, 4.

fn switch_u32(x: u32) -> u32 {
    var r = 0u;
    switch x {
        case 0u {
            r = 1u;
        }
        case 0xFFFFFFFFu {
            r = 2u;
        }
        case 0x80000000u, 1u {
            r = 3u;
        }
        default {
            r = 4u;
        }
    }
    return r;
}
