// Package raster is the reference rasterizer of a draw (issue 39, ARCHITECTURE.md
// "Render pipelines"): from the vertices after the vertex stage — each one's
// clip-space position (float32, each component possibly within an absolute
// tolerance the reference grants) and its varyings — and the draw's
// topology, cull mode, front face and target size, it assembles the
// primitives in order and gives, for each, its facing, whether it is
// culled, and its fragments in 2×2 quads: every pixel centre in, out or
// ambiguous, the barycentric weights and every varying as an allowed set,
// @builtin(position), and the helper lanes of each quad.
//
// It owns the rasterization rules and the tolerances they need; it never
// executes a shader (interp does: Program.RunQuadList runs the quads),
// composes pixels or judges a run (check does), and it imports only ir.
//
// # What the specs fix, and what they leave open
//
//   - Primitive assembly (WebGPU #primitive-assembly, Vulkan
//     "Triangle Strips"): a triangle list takes vertices (3i, 3i+1, 3i+2);
//     a triangle strip's primitive i takes (i, i+1, i+2) for even i and
//     (i, i+2, i+1) for odd i, so every triangle of a strip keeps the
//     winding of the first. Incomplete primitives are dropped. The first
//     vertex of primitive i (the provoking vertex of Vulkan's default
//     mode and of WGSL's flat first) is vertex i (3i in a list); the last
//     (OpenGL's provoking vertex, which flat either also allows) is i+2
//     (3i+2).
//   - Clipping (WebGPU #clipping): 0 ≤ z ≤ w and −w ≤ x, y ≤ w. This
//     version does not clip: a vertex whose w may be ≤ 0 or whose z may
//     lie outside [0, w] within its tolerance is refused (*VertexError).
//     A triangle partly outside x or y is kept: clipping it against those
//     planes changes no pixel inside the target, which scissors it.
//   - Viewport (WebGPU #coordinate-systems): framebuffer coordinates have
//     y down; x_fb = (x/w + 1)/2 · width, y_fb = (1 − y/w)/2 · height,
//     depth z/w.
//   - Facing (Vulkan "Basic Polygon Rasterization", WebGPU
//     GPUFrontFace): the area a = −½ Σ (x_i y_{i+1} − x_{i+1} y_i) of the
//     framebuffer positions is positive for a counter-clockwise triangle
//     (counter-clockwise as seen on the target, and in clip space with y
//     up); a zero-area triangle is back-facing.
//   - Coverage (WebGPU #rasterization): no fill rule — "if a pixel center
//     is on the edge of the polygon, whether or not it's included is not
//     defined"; Vulkan snaps vertices to at least 4 sub-pixel bits.
//   - Interpolation (WGSL #interpolation): at the pixel centre (one
//     sample), perspective-correct by default, linear in screen space, or
//     flat from the first vertex (first) or the first or last (either);
//     no numeric accuracy is specified anywhere.
//   - Helper invocations (WGSL #helper-invocation): a quad's positions
//     that the primitive does not cover run as helpers, whose values feed
//     derivatives and whose outputs are dropped.
//
// # The assumptions this package states (checked per adapter by
// shaders/raster_calibration_test.go)
//
//  1. Coverage. Each vertex's framebuffer position lies in a box: its
//     own bound (from the position's tolerance, through the viewport
//     transform, plus 4 f32 ULPs of the larger of the coordinate and the
//     target's size for the GPU's own transform) widened by δ in x and in
//     y. δ defaults to DefaultDelta = 1/32 px, what snapping to 1/16 px (4
//     sub-pixel bits) moves a vertex by. A pixel centre is *in* when it
//     lies strictly inside every triangle with vertices in those boxes,
//     *out* when it lies strictly outside every one, else *ambiguous*.
//     In and out centres are therefore farther than δ from every edge
//     line they are near (translating an edge by δ moves both of its
//     vertices by at most δ in x and y). Facing is *ambiguous* when the
//     area's sign can change within the boxes; a primitive whose facing
//     is ambiguous under culling is maybe culled, and its in pixels
//     become ambiguous. (Issue 39 measured coverage mistakes only within
//     0.0334 px of an edge on SwiftShader and 0.0015 px on llvmpipe.)
//  2. Interpolation. A float varying f at a pixel is within
//     ‖∇f‖₁·(δ + e) + Σ|μᵢ|·tᵢ + Σ|∂f/∂qᵢ|·Δqᵢ + K·ULP(max|fᵢ|)
//     of its float64 value at the centre, where ∇f is f's screen-space
//     gradient there, e the vertices' own position bound, μᵢ the weights,
//     tᵢ the vertex values' own tolerances, qᵢ = 1/wᵢ within Δqᵢ
//     (perspective only), and K = DefaultInterpULP = 4 f32 ULPs (issue
//     39 measured ‖∇f‖₁·δ + 4 ULP·max|fᵢ| with δ = 1/32 px to hold on
//     SwiftShader and llvmpipe, and δ = 1/64 px to fail). The same bound
//     holds @builtin(position)'s z (z/w, linear) and w (1/w, linear);
//     its x and y are the pixel centre, exact.
package raster
