// rule: break inside a switch inside a loop leaves the switch, not the loop
// spec: WGSL #break-statement (Break Statement), "transfers control to immediately after the body of the nearest-enclosing loop or switch statement"
//
// Derivation: each iteration i adds 1 (the default clause) and then 10;
// at i == 2 the break ends only the switch, so that iteration still adds
// 10. n = 0 -> 0; 1 -> 11; 2 -> 22; 3 -> 11 + 11 + 10 = 32; 4 -> 43;
// 6 -> 5*11 + 10 = 65. (A stack that leaves the loop would give 22 for
// every n >= 3.)
//
// The min(n, 32) gives the loop a constant trip bound (so flatten can
// unroll it); every input stays below 32.

fn break_in_switch_in_loop(n: i32) -> i32 {
    var sum = 0;
    for (var i = 0; i < min(n, 32); i++) {
        switch i {
            case 2 {
                break;
            }
            default {
                sum += 1;
            }
        }
        sum += 10;
    }
    return sum;
}
