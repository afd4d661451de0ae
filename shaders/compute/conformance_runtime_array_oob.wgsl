// rule: an out-of-bounds index into a runtime-sized array loads an indeterminate value and leaves in-bounds loads alone
// spec: WGSL #out-of-bounds-access-sec (Out-of-Bounds Access), "Executing an out-of-bounds access generates a dynamic error. ... Loads from an invalid reference may return one of: when the originating variable is a uniform buffer or a storage buffer, the value from any memory location(s) of the WebGPU {{GPUBuffer}} bound to the originating variable ... the zero value for store type of the reference"
// src has 4 elements, 8 invocations each load src[idx[i]] with idx =
// [0, 3, 4, 2, 4294967295, 1, 100, 3]: the in-bounds ones give src[idx]
// = [10, 40, _, 30, _, 20, _, 40]; indices 4, 4294967295 and 100 are out of
// bounds, and WGSL lets such a load return any element of src's buffer or
// zero (Vulkan's robust access and gpudiff's portable mode clamp or zero),
// so out[2], out[4] and out[6] are each one of {0, 10, 20, 30, 40}. Only loads are out of
// bounds: an out-of-bounds store could land on any location of its buffer
// and would make all of it indeterminate.
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read> idx: array<u32, 8>;
@group(0) @binding(2) var<storage, read_write> out: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32) {
  out[li] = src[idx[li]];
}
