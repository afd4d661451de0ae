// rule: an override with no default value and no pipeline constant (Tint's
// var/override/*/no_init, builtins/workgroupUniformLoad/array_overridable_count).
// WebGPU needs a constant for each; gpudiff supplies 1 (true for a bool:
// wgsl.DefaultOverrideConstant), so n = 1, flag = true, scale = 1.0, k = 1,
// w has n * 4 = 4 elements and the workgroup is 4 × n = 4 invocations.
// Hand derivation: w[i] = i; after the barrier out[i] = w[3 - i] + 10n +
// select(0, 100, flag) + u32(2 scale) + 1000k = (3 - i) + 10 + 100 + 2 + 1000,
// so out = [1115, 1114, 1113, 1112].
override n: u32;
override flag: bool;
override scale: f32;
@id(7) override k: i32;

@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
var<workgroup> w: array<u32, n * 4u>;

@compute @workgroup_size(4, n)
fn main(@builtin(local_invocation_index) i: u32) {
  w[i] = i;
  workgroupBarrier();
  out[i] = w[3u - i] + 10u * n + select(0u, 100u, flag) + u32(scale * 2.0) + 1000u * u32(k);
}
