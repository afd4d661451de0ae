// tier: switch — the selector is evaluated once, each case predicated on
// its values and default on "no case matched".
// expect: const_sel selects=0

// A selector that is a constant in every unrolled copy picks its clause
// statically: no select.
fn const_sel(x: i32) -> i32 {
    var r = x;
    for (var i = 0; i < 3; i++) {
        switch i {
            case 0: {
                r += 1;
            }
            case 1: {
                r *= 3;
            }
            default: {
                r -= 2;
            }
        }
    }
    return r;
}
