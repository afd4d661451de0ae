// divmod: integer division in every flavour a shader needs for tiling and
// wrap-around addressing: WGSL's truncating / and % (with its runtime rules
// x / 0 = x, x % 0 = 0, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0), floored
// division and modulo (the sign of the divisor, for wrapping texel
// coordinates), the same on the u32 bit patterns, and the gcd of the
// magnitudes (abs(INT_MIN) = INT_MIN, whose bit pattern is 2^31).
//
// Exercises: i32 and u32 / and %, a struct result, bool != bool, &&, early
// returns in helpers, a bounded for loop with a data-dependent exit, abs, bitcast between i32 and u32.

struct DivMod {
    quot: i32,
    rem: i32,
    floor_quot: i32,
    floor_mod: i32,
    uquot: u32,
    urem: u32,
    gcd: u32,
}

fn floor_div(a: i32, b: i32) -> i32 {
    let q = a / b;
    if (a % b != 0 && (a < 0) != (b < 0)) {
        return q - 1;
    }
    return q;
}

fn floor_mod(a: i32, b: i32) -> i32 {
    let r = a % b;
    if (r != 0 && (r < 0) != (b < 0)) {
        return r + b;
    }
    return r;
}

// Euclid on u32 needs at most 46 steps (consecutive Fibonacci numbers below
// 2^32 are the worst case), so a 48-step counter bounds the loop.
fn gcd(a: u32, b: u32) -> u32 {
    var x = a;
    var y = b;
    for (var k = 0; k < 48 && y != 0u; k++) {
        let t = x % y;
        x = y;
        y = t;
    }
    return x;
}

fn divmod(a: i32, b: i32) -> DivMod {
    var d: DivMod;
    d.quot = a / b;
    d.rem = a % b;
    d.floor_quot = floor_div(a, b);
    d.floor_mod = floor_mod(a, b);
    d.uquot = bitcast<u32>(a) / bitcast<u32>(b);
    d.urem = bitcast<u32>(a) % bitcast<u32>(b);
    d.gcd = gcd(bitcast<u32>(abs(a)), bitcast<u32>(abs(b)));
    return d;
}
