// tier: switch — the selector is evaluated once, each case predicated on
// its values and default on "no case matched".
// expect: weekday selects=3
// expect: const_sel selects=0

// Three clauses write one variable: three selects.
fn weekday(d: u32) -> u32 {
    var r = 0u;
    switch d {
        case 0u, 6u: {
            r = 2u;
        }
        case 3u: {
            r = 1u;
        }
        default: {
            r = 3u;
        }
    }
    return r;
}

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
