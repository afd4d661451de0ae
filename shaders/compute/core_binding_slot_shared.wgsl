// rule: two entry points' bindings at one @group/@binding. WGSL allows it
// (#resource-interface: a pipeline's interface holds only the bindings its
// entry point statically uses), and webgpu-samples' particles/particle.wgsl
// does it (render_params and sim_params at @group(0) @binding(0)). gpudiff
// binds only the compute entry point's own: out, never tint.
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(0) var<uniform> tint: vec4<f32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = i * 3u + 1u;
}

@vertex
fn vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4<f32> {
  return tint * f32(v);
}
