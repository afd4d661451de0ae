// rule: default may share a case clause with other selectors
// spec: WGSL #switch-statement (Switch Statement), "a case clause where 'default' appears as one of its selectors"
//
// Derivation: 1 -> 10; 4, 5, 6 -> 30; 2 and 3 select the clause that also
// holds default -> 20; every other value (7, 0, -1) takes the default,
// that same clause -> 20.

fn switch_case_with_default(x: i32) -> i32 {
    var r = 0;
    switch x {
        case 1 {
            r = 10;
        }
        case 2, default, 3 {
            r = 20;
        }
        case 4, 5, 6 {
            r = 30;
        }
    }
    return r;
}
