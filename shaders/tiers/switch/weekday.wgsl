// tier: switch — the selector is evaluated once, each case predicated on
// its values and default on "no case matched".
// expect: weekday selects=3

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
