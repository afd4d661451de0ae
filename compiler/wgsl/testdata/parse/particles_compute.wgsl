// A particle simulation step: storage buffers with a runtime-sized array,
// uniform parameters, atomics, workgroup memory, barriers, overrides and
// a const_assert. Helpers that only do arithmetic are in the subset.
diagnostic(off, derivative_uniformity);

struct Particle {
  pos: vec2<f32>,
  vel: vec2<f32>,
}

struct SimParams {
  deltaT: f32,
  rule1Distance: f32,
  rule2Distance: f32,
  rule3Distance: f32,
  rule1Scale: f32,
  rule2Scale: f32,
  rule3Scale: f32,
}

struct Particles {
  count: atomic<u32>,
  particles: array<Particle>,
}

override workgroup_size_x: u32 = 64;
override damping = 0.99;

const max_speed = 0.1;
const_assert max_speed > 0.0;
const_assert 64u % 32u == 0u;

@binding(0) @group(0) var<uniform> params: SimParams;
@binding(1) @group(0) var<storage, read_write> particlesA: Particles;
@binding(2) @group(0) var<storage, read_write> particlesB: Particles;

var<workgroup> tile: array<vec2<f32>, 64>;
var<private> rng_state: u32 = 12345u;

fn wrap_coord(x: f32) -> f32 {
  if (x < -1.0) {
    return x + 2.0;
  }
  if (x > 1.0) {
    return x - 2.0;
  }
  return x;
}

fn clamp_speed(v: vec2<f32>) -> vec2<f32> {
  let speed = length(v);
  if (speed > max_speed) {
    return normalize(v) * max_speed;
  }
  return v;
}

fn next_random() -> u32 {
  rng_state ^= rng_state << 13u;
  rng_state ^= rng_state >> 17u;
  rng_state ^= rng_state << 5u;
  return rng_state;
}

fn count_neighbours(n: u32) -> u32 {
  var count = 0u;
  for (var i = 0u; i < n; i++) {
    if (i % 3u == 0u) {
      continue;
    }
    count += 1u;
  }
  return count;
}

@compute @workgroup_size(workgroup_size_x)
fn main(@builtin(global_invocation_id) GlobalInvocationID: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let index = GlobalInvocationID.x;
  let total = arrayLength(&particlesA.particles);
  tile[lid] = vec2(f32(lid));
  workgroupBarrier();
  if (index >= total) {
    return;
  }
  var vPos = particlesA.particles[index].pos + tile[(lid + 1u) % 64u] * 0.0;
  var vVel = particlesA.particles[index].vel;
  var cMass = vec2(0.0);
  var cVel = vec2(0.0);
  var colVel = vec2(0.0);
  var cMassCount = 0u;
  var cVelCount = 0u;
  for (var i = 0u; i < total; i++) {
    if (i == index) {
      continue;
    }
    let pos = particlesA.particles[i].pos.xy;
    let vel = particlesA.particles[i].vel.xy;
    if (distance(pos, vPos) < params.rule1Distance) {
      cMass += pos;
      cMassCount++;
    }
    if (distance(pos, vPos) < params.rule2Distance) {
      colVel -= pos - vPos;
    }
    if (distance(pos, vPos) < params.rule3Distance) {
      cVel += vel;
      cVelCount++;
    }
  }
  if (cMassCount > 0) {
    cMass = (cMass / vec2(f32(cMassCount))) - vPos;
  }
  if (cVelCount > 0) {
    cVel /= f32(cVelCount);
  }
  vVel += (cMass * params.rule1Scale) + (colVel * params.rule2Scale) + (cVel * params.rule3Scale);
  vVel = clamp_speed(vVel * damping);
  vPos = vPos + (vVel * params.deltaT);
  vPos = vec2(wrap_coord(vPos.x), wrap_coord(vPos.y));
  particlesB.particles[index].pos = vPos;
  particlesB.particles[index].vel = vVel;
  atomicAdd(&particlesB.count, 1u);
}
