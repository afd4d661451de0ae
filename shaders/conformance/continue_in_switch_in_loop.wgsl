// rule: continue inside a switch inside a loop continues the loop
// spec: WGSL #continue-statement (Continue Statement), "A continue statement transfers control in the nearest-enclosing loop"
//
// Derivation: iteration i sets bit i, except i = 1 and i = 3, whose
// continue skips the rest of the body (the for loop's update still runs):
// n = 0 -> 0; 1 -> bit 0 = 1; 2 -> 1; 4 -> bits 0, 2 = 5;
// 5 -> bits 0, 2, 4 = 21; 8 -> bits 0, 2, 4, 5, 6, 7 = 245.
//
// The min(n, 32) gives the loop a constant trip bound (so flatten can
// unroll it); every input stays below 32.

fn continue_in_switch_in_loop(n: i32) -> u32 {
    var bits = 0u;
    for (var i = 0; i < min(n, 32); i++) {
        switch i {
            case 1, 3 {
                continue;
            }
            default {
            }
        }
        bits |= 1u << u32(i);
    }
    return bits;
}
