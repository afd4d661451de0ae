// rule: a switch runs the clause whose selectors contain the value, else the default clause wherever it stands
// spec: WGSL #switch-statement (Switch Statement), "If the selector value does not equal any of the case selector values, then control is transferred to the body of the default clause."
//
// Derivation (no fall-through: each clause ends the switch): 0 -> 10;
// 1 and 2 (one clause, two selectors) -> 30; 3 -> 40; anything else
// (4, -1, INT_MIN, INT_MAX) -> 20, from the default clause in the middle.

fn switch_default_middle(x: i32) -> i32 {
    var r = 0;
    switch x {
        case 0 {
            r = 10;
        }
        default {
            r = 20;
        }
        case 1, 2 {
            r = 30;
        }
        case 3 {
            r = 40;
        }
    }
    return r;
}
