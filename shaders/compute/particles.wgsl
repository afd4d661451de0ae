// Particle update (explicit Euler with a floor bounce): positions and
// velocities in a runtime-sized array of structs, parameters in a uniform
// struct. vel.y -= gravity*dt; pos += vel*dt; below the floor a particle is
// put back on the floor with vel.y negated. Only the first params.count
// particles move: 2 workgroups of 4 invocations over 6 particles with
// count = 5, so invocations 5..7 return early (5 exists but stays as
// given; 6 and 7 have none). dt = 0.5, gravity = 4: every value is an
// integer or a half and stays exact in f32.
// Expectation: compute_expect_test.go (particles: the same update in Go
// float32 arithmetic); e.g. particle 0, pos (0, 10) vel (2, 0): vel.y = -2,
// pos = (1, 9).
struct Particle {
  pos: vec2<f32>,
  vel: vec2<f32>,
}
struct Params {
  dt: f32,
  gravity: f32,
  floor_y: f32,
  count: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> particles: array<Particle>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= params.count || i >= arrayLength(&particles)) {
    return;
  }
  var p = particles[i];
  p.vel.y = p.vel.y - params.gravity * params.dt;
  p.pos = p.pos + p.vel * params.dt;
  if (p.pos.y < params.floor_y) {
    p.pos.y = params.floor_y;
    p.vel.y = -p.vel.y;
  }
  particles[i] = p;
}
