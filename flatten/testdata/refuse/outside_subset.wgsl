// want: 6:13: flatten: function deref is outside the IR subset
// kernel: deref
// The kernel takes a pointer, which the IR subset does not have: the
// front end keeps it as an opaque declaration, and flatten refuses it
// where the first construct outside the subset is (the ptr type, 6:13).
fn deref(p: ptr<function, i32>) -> i32 {
  return *p;
}
