// bit_twiddle: the bit-manipulation builtins that GPU hashes, sparse-bitmap
// walks and packed-attribute decoders use, side by side, returned as a fixed
// array. The field offset is masked to [0, 15] so extractBits/insertBits stay
// inside the word; the plain shifts rely on WGSL taking shift counts modulo 32.
//
// Exercises: countOneBits, reverseBits, firstLeadingBit (u32 and i32),
// firstTrailingBit, extractBits (u32 zero-extending and i32 sign-extending),
// insertBits, ~, <<, >> (logical and arithmetic), bitcast, a rotate helper,
// a local var array written element by element and returned.

fn rotl(x: u32, s: u32) -> u32 {
    return (x << (s & 31u)) | (x >> ((32u - s) & 31u));
}

fn bit_twiddle(x: u32, s: u32) -> array<u32, 12> {
    let off = s & 15u;
    let xi = bitcast<i32>(x);
    var r: array<u32, 12>;
    r[0] = countOneBits(x);
    r[1] = reverseBits(x);
    r[2] = firstLeadingBit(x);
    r[3] = firstTrailingBit(x);
    r[4] = extractBits(x, off, 8u);
    r[5] = insertBits(x, ~s, off, 12u);
    r[6] = rotl(x, s);
    r[7] = x >> s;
    r[8] = x << s;
    r[9] = bitcast<u32>(xi >> s);
    r[10] = bitcast<u32>(firstLeadingBit(xi));
    r[11] = bitcast<u32>(extractBits(xi, off, 8u));
    return r;
}
