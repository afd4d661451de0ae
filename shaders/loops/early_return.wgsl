// loops: unrolled 0, kept uniform 0, masked 2
// Early returns from inside masked loops: find returns from inside its
// while (the index of key in the first len entries of a table row, else
// 99), and the entry point returns from inside its loop (marks[i] = the
// first k < len whose entry exceeds key; 1000 when none does, which only
// the invocations that leave the loop by its break store). Both loops'
// exits read per-invocation lengths: two masked loops, whose return masks
// cross the back edge.
// Expectation (hand-derived): row r of table holds 10r .. 10r+7.
// keys 3, 15, 22, 100, 41, 54, 60, 75 with lens 8, 8, 8, 8, 2, 8, 0, 6:
// found: 3 (row 0), 5 (15 = 10+5), 2 (22), 99 (no 100), 1 (41 within
// len 2), 4 (54), 99 (len 0), 5 (75 within len 6);
// marks: 4 (4 > 3), 6 (16 > 15), 3 (23 > 22), 1000, 1000 (40, 41 not
// > 41), 5 (55 > 54), 1000 (len 0), 1000 (70..75 not > 75).
@group(0) @binding(0) var<storage, read> table: array<u32, 64>;
@group(0) @binding(1) var<storage, read> keys: array<u32, 8>;
@group(0) @binding(2) var<storage, read> lens: array<u32, 8>;
@group(0) @binding(3) var<storage, read_write> found: array<u32, 8>;
@group(0) @binding(4) var<storage, read_write> marks: array<u32, 8>;

fn find(row: u32, key: u32, len: u32) -> u32 {
  var i = 0u;
  while (i < len) {
    if (table[row * 8u + i] == key) {
      return i;
    }
    i++;
  }
  return 99u;
}

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32) {
  found[li] = find(li, keys[li], lens[li]);
  var k = 0u;
  loop {
    if (k >= lens[li]) {
      break;
    }
    if (table[li * 8u + k] > keys[li]) {
      marks[li] = k;
      return;
    }
    k++;
  }
  marks[li] = 1000u;
}
