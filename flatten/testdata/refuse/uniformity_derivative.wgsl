// want: 8:9: flatten: dpdx in non-uniform control flow
// options: whitelist=dpdx
// dpdx runs only where x > 0 in the source; the twin would run it in
// every invocation, changing which invocations take part. 8:9.
fn edge(x: f32) -> f32 {
  var r = x;
  if (x > 0.0) {
    r = dpdx(x);
  }
  return r;
}
