// rule: f32 saturate(e) is clamp(e, 0.0, 1.0): below 0 gives 0, above 1 gives 1, else e
// spec: WGSL #saturate-float-builtin (saturate), "Returns clamp(e, 0.0, 1.0)."
//
// Derivation (WGSL #clamp: min(max(e, 0.0), 1.0), the bounds ordered so
// the median reading agrees; correctly rounded, and every result is e, 0
// or 1 exactly): saturate(-2) = 0; saturate(-0.5) = 0; saturate(0) = 0;
// saturate(0.25) = 0.25; saturate(0.999) = 0.999; saturate(1) = 1;
// saturate(1.5) = 1; saturate(1e30) = 1; saturate(-1e30) = 0.

fn saturate_clamps_to_unit(e: f32) -> f32 {
    return saturate(e);
}
