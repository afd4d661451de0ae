package wgsl

import (
	"strings"
	"testing"
)

// WGSL's subgroup uniformity as Tint applies it: subgroup_size is a
// uniform value (a branch on it keeps control flow uniform), and the
// delta of subgroupShuffleUp must be uniform — subgroup_invocation_id is
// not.
func TestSubgroupUniformityRules(t *testing.T) {
	head := "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> o: array<u32, 64>;\n@compute @workgroup_size(64)\n"
	for _, c := range []struct {
		name, body, err string
	}{
		{"branch on subgroup_size", "fn main(@builtin(subgroup_size) n: u32, @builtin(local_invocation_index) i: u32) {\n  var x = i;\n  if (n > 4u) { x = subgroupAdd(x); }\n  o[i] = x;\n}", ""},
		{"branch on subgroup_invocation_id", "fn main(@builtin(subgroup_invocation_id) s: u32, @builtin(local_invocation_index) i: u32) {\n  var x = i;\n  if (s > 4u) { x = subgroupAdd(x); }\n  o[i] = x;\n}", "uniform control flow"},
		{"uniform delta", "fn main(@builtin(local_invocation_index) i: u32) {\n  o[i] = subgroupShuffleUp(i, 1u);\n}", ""},
		{"per-invocation delta", "fn main(@builtin(subgroup_invocation_id) s: u32, @builtin(local_invocation_index) i: u32) {\n  o[i] = subgroupShuffleUp(i, s);\n}", "second argument of subgroupShuffleUp must be a uniform value"},
	} {
		_, err := Parse("u.wgsl", []byte(head+c.body))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.err)
		}
	}
}
