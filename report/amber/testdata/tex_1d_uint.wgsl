// A 1d rgba8uint texture (made-up texels) tripled into a 1d rgba8uint
// storage texture: exact codes, one EQ row.
@group(0) @binding(0) var src: texture_1d<u32>;
@group(0) @binding(1) var dst: texture_storage_1d<rgba8uint, write>;
@compute @workgroup_size(8) fn main(@builtin(global_invocation_id) id: vec3u) {
  textureStore(dst, id.x, textureLoad(src, id.x, 0) * 3u);
}
