// lights_cycle: four light implementations dispatched in a loop whose
// tag cycles kind = (kind + 1u) % 3u from 0u: the loop-carried tag holds
// 0, 1 or 2, never 3, so the twin drops light_sun (the default arm) and
// inlines the other three in each unrolled copy. The result is assigned,
// not returned (the assign form of a dispatch).
fn light_point(d: i32) -> i32 { return 100 / (d * d + 1); }
fn light_spot(d: i32) -> i32 { return select(0, 50 - d, d < 50); }
fn light_area(d: i32) -> i32 { return 20 - d; }
fn light_sun(d: i32) -> i32 { return 7; }

fn lights_cycle(d: i32) -> i32 {
  var total = 0;
  var kind = 0u;
  for (var i = 0; i < 4; i++) {
    var c = 0;
    switch kind {
      case 0u: { c = light_point(d + i); }
      case 1u: { c = light_spot(d + i); }
      case 2u: { c = light_area(d + i); }
      default: { c = light_sun(d + i); }
    }
    total += c;
    kind = (kind + 1u) % 3u;
  }
  return total;
}
