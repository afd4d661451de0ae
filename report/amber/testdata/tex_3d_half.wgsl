// A 3d texture scaled by 0.3 into an rgba16float 3d storage texture:
// most stores fall between two float16 values (GE/LE pairs).
@group(0) @binding(0) var src: texture_3d<f32>;
@group(0) @binding(1) var dst: texture_storage_3d<rgba16float, write>;
@compute @workgroup_size(4, 4, 2) fn main(@builtin(global_invocation_id) id: vec3u) {
  textureStore(dst, id, textureLoad(src, id, 0) * 0.3);
}
