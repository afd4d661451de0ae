// particle: one explicit-Euler step of a particle bouncing in the box
// x in [0, 16], y >= 0 under gravity, the update kernel of a GPU particle
// system. A particle dies after its fourth bounce. dt is 1/2, gravity 4 and
// restitution 1/2, and inputs are multiples of 1/4 of moderate size, so all
// arithmetic is exact.
//
// Exercises: a struct parameter and a struct result (vec2 members, a u32 and
// a bool), copying a struct into a var, assignments through member and
// component chains (q.vel.y = ...), compound assignment on a member, ||,
// clamp, an early return.

struct Particle {
    pos: vec2<f32>,
    vel: vec2<f32>,
    bounces: u32,
    alive: bool,
}

fn step_particle(p: Particle) -> Particle {
    var q = p;
    if (!q.alive) {
        return q;
    }
    let dt = 0.5;
    q.vel.y = q.vel.y - 4.0 * dt;
    q.pos = q.pos + q.vel * dt;
    if (q.pos.y < 0.0) {
        q.pos.y = -q.pos.y * 0.5;
        q.vel.y = -q.vel.y * 0.5;
        q.bounces += 1u;
    }
    if (q.pos.x < 0.0 || q.pos.x > 16.0) {
        q.pos.x = clamp(q.pos.x, 0.0, 16.0);
        q.vel.x = -q.vel.x;
        q.bounces += 1u;
    }
    q.alive = q.bounces < 4u;
    return q;
}
