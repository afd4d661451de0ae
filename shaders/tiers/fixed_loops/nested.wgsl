// tier: fixed loops — a loop with constant bounds unrolls into straight-line
// copies with its counter substituted; with no data-dependent exit there
// is no mask and no select.
// expect: nested selects=0

// Nested fixed loops: 3 × 2 copies.
fn nested(m: array<u32, 6>) -> u32 {
    var h = 0u;
    for (var r = 0u; r < 3u; r++) {
        for (var c = 0u; c < 2u; c += 1u) {
            h = h * 31u + m[r * 2u + c];
        }
    }
    return h;
}
