package wgsl

import "testing"

func TestOverrideFlag(t *testing.T) {
	var o OverrideFlag
	if o.Overrides() != nil {
		t.Fatal("zero value holds constants")
	}
	for _, s := range []string{"n=3", "7 = true", "f=-0.5"} {
		if err := o.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	if got := o.String(); got != "n=3,7=1,f=-0.5" {
		t.Errorf("String = %q", got)
	}
	for s, want := range map[string]string{
		"n":     `want NAME=VALUE (an override's name or @id, and a number), got "n"`,
		"m=inf": `m: value "inf" is not a finite number (or true/false)`,
		"n=1":   "n is given twice",
	} {
		if err := o.Set(s); err == nil || err.Error() != want {
			t.Errorf("Set(%q) = %v, want %s", s, err, want)
		}
	}
	if m := o.Overrides(); len(m) != 3 || m["7"] != 1 {
		t.Errorf("Overrides = %v", m)
	}
}
