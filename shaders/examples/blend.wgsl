// blend: 8-bit compositing blend modes chosen by a switch on the mode, the
// core of a layer compositor: normal, multiply, screen (both rounded),
// add/subtract (saturating), difference, lighten/darken and invert.
// Unknown modes keep the destination. Channels are nominally 0..255; larger
// u32 inputs just wrap, as WGSL u32 arithmetic does.
//
// Exercises: switch on i32 with several selectors per case, a negative case
// value, default in the middle of the clauses, break out of a case from
// inside an if, u32 division by a constant, wrapping u32 multiply,
// u32 <-> i32 conversion, abs, min/max.

fn blend(mode: i32, dst: u32, src: u32) -> u32 {
    var r = 0u;
    switch mode {
        case 0, 8: {
            r = src;
        }
        case 1: {
            r = (dst * src + 127u) / 255u;
        }
        case 2: {
            r = 255u - ((255u - dst) * (255u - src) + 127u) / 255u;
        }
        case 3, 4: {
            if (mode == 3) {
                r = min(dst + src, 255u);
            } else {
                r = dst - min(src, dst);
            }
        }
        default: {
            r = dst;
        }
        case 5: {
            r = u32(abs(i32(dst) - i32(src)));
        }
        case 6, 7: {
            if (dst == src) {
                r = dst;
                break;
            }
            if (mode == 6) {
                r = max(dst, src);
            } else {
                r = min(dst, src);
            }
        }
        case -1: {
            r = 255u - src;
        }
    }
    return r;
}
