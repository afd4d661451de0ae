// materials: six BRDF implementations behind one closed-set dispatch
// (issue 17's acceptance kernel). pick_material only ever makes a
// lambert (kind 1) or a mirror (kind 4) material, so the tag-set analysis
// leaves 2 of the 6 candidates and the twin inlines those 2. Each
// implementation holds its own marker constant (100 + its kind).
struct Material {
  kind: u32,
  albedo: i32,
}

fn brdf_diffuse(m: Material, x: i32) -> i32 { return m.albedo * x + 100; }
fn brdf_lambert(m: Material, x: i32) -> i32 { return m.albedo * x + 101; }
fn brdf_phong(m: Material, x: i32) -> i32 { return (m.albedo + x) * 102; }
fn brdf_ggx(m: Material, x: i32) -> i32 { return m.albedo - x * 103; }
fn brdf_mirror(m: Material, x: i32) -> i32 { return 104 - x + m.albedo; }
fn brdf_toon(m: Material, x: i32) -> i32 { return select(0, 105, x > m.albedo); }

fn eval_brdf(m: Material, x: i32) -> i32 {
  switch m.kind {
    case 0u: { return brdf_diffuse(m, x); }
    case 1u: { return brdf_lambert(m, x); }
    case 2u: { return brdf_phong(m, x); }
    case 3u: { return brdf_ggx(m, x); }
    case 4u: { return brdf_mirror(m, x); }
    default: { return brdf_toon(m, x); }
  }
}

fn pick_material(x: i32) -> Material {
  if (x < 0) {
    return Material(4u, 10);
  }
  return Material(1u, x % 5);
}

fn materials(x: i32) -> i32 {
  let m = pick_material(x);
  return eval_brdf(m, x);
}
