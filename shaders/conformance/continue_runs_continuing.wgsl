// rule: continue goes to the continuing block, which runs before the next iteration
// spec: WGSL #continue-statement (Continue Statement), "forward to the continuing statement at the end of the body of that loop, if it exists."
//
// Derivation: i counts 0, 1, ... n, incremented only in continuing; even
// i continue (the increment must still happen), odd i are summed; trips
// counts the iterations begun. n = 0 -> odd 0, trips 1 -> 1; n = 1 ->
// trips 2 -> 2; n = 4 -> odd 1+3 = 4, trips 5 -> 4*256 + 5 = 1029;
// n = 5 -> odd 4, trips 6 -> 1030; n = 8 -> odd 16, trips 9 -> 4105.
// (The trips > 32 guard only bounds a stack that skips continuing; it
// never fires here.)

fn continue_runs_continuing(n: u32) -> u32 {
    var i = 0u;
    var odd = 0u;
    var trips = 0u;
    loop {
        trips += 1u;
        if i >= n || trips > 32u {
            break;
        }
        if (i & 1u) == 0u {
            continue;
        }
        odd += i;
        continuing {
            i += 1u;
        }
    }
    return odd * 256u + trips;
}
