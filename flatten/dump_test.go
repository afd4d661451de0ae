package flatten_test

import (
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
)

// CheckLoops takes the three modes; DumpAfter prints the twin after the
// pass it names (every pass with all) and refuses an unknown one.
func TestDumpAfterAndCheckLoops(t *testing.T) {
	for _, l := range []string{"auto", "unroll", "mask"} {
		if err := flatten.CheckLoops(l); err != nil {
			t.Errorf("%s: %v", l, err)
		}
	}
	if err := flatten.CheckLoops(""); err == nil || err.Error() != `--loops: "" is not one of auto, unroll, mask` {
		t.Errorf("\"\": %v", err)
	}
	var o flatten.Options
	if err := o.DumpAfter("", nil); err != nil || o.AfterPass != nil {
		t.Errorf("no pass: %v", err)
	}
	if err := o.DumpAfter("nope", nil); err == nil || !strings.HasPrefix(err.Error(), `--dump-after: no pass "nope" (passes: all, `) {
		t.Errorf("nope: %v", err)
	}
	m, err := wgsl.Parse("t.wgsl", []byte("fn k(x: i32) -> i32 { if x > 0 { return 1; } return 2; }\n"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	o = flatten.Options{MaxUnroll: 64}
	if err := o.DumpAfter("all", &b); err != nil {
		t.Fatal(err)
	}
	if err := flatten.Module(m, o); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "// after ") || !strings.Contains(b.String(), "k_flat") {
		t.Errorf("dump:\n%s", b.String())
	}
}
