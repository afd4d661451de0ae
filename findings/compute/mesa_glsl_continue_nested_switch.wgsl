// Mesa's GLSL compiler loses a `continue` nested in a switch inside a
// switch inside a loop: every naga GLSL path (wgpu-gl: naga 0.19 from WGSL
// and from gpudiff's SPIR-V; deno-gl: naga 29) returns out = [0, 0] on
// Mesa 22.3.6 and 25.0.7; Tint's GLSL (dawn-gl, dawn-gles) and every
// Vulkan adapter return [1, 1], and so does the flattened twin (no switch,
// no continue). The same shape written as GLSL ES 3.10 by hand and run on
// Mesa's llvmpipe through EGL is wrong too (findings/README.md), so the
// GLSL compiler, not naga, is implicated. Found by gpudiff run --seed 2028
// --profile default --adapter all (program 16: unconfirmed at the deadline;
// shrunk on wgpu-gl with --shard 16/17 to 10 statements); reduced by hand.
// With the selectors read from a buffer instead of literals, Mesa 25 never
// finishes the dispatch and Mesa 22 runs the loop 65,535 times.
// By hand (WGSL #loop-statement, #continue-statement, #switch-statement:
// `continue` in a switch case continues the innermost enclosing loop and
// runs its continuing block): i = 0 < 1; switch (0) takes case 0: n = 1;
// switch (1) takes case 1: continue, so the continuing block makes i = 1;
// then i >= 1 breaks. out = [n, i] = [1, 1].
@group(0) @binding(0) var<storage, read_write> out: array<i32, 2>;

@compute @workgroup_size(1)
fn main() {
  var n: i32 = 0;
  var i: i32 = 0;
  loop {
    if (i >= 1) {
      break;
    }
    switch (0i) {
      case 0i: {
        n += 1;
        switch (1i) {
          case 1i: {
            continue;
          }
          default: {
          }
        }
      }
      default: {
      }
    }
    continuing {
      i += 1;
    }
  }
  out[0] = n;
  out[1] = i;
}
