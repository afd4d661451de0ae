package wgsl

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// OverrideFlag collects pipeline constants given as NAME=VALUE, one per
// Set (gpudiff's repeatable --override; it is a pflag.Value): NAME is an
// override's name or its @id, VALUE a number (or true/false), converted
// to the override's type as WebGPU converts a GPUPipelineConstantValue
// (ParseOptions.Overrides). The zero value holds none.
type OverrideFlag struct {
	vals map[string]float64
	keys []string // in the order given, for String
}

// Type names the flag's value in a usage line.
func (o *OverrideFlag) Type() string { return "NAME=VALUE" }

// String is the constants given, NAME=VALUE comma-separated in order.
func (o *OverrideFlag) String() string {
	var parts []string
	for _, k := range o.keys {
		parts = append(parts, k+"="+strconv.FormatFloat(o.vals[k], 'g', -1, 64))
	}
	return strings.Join(parts, ",")
}

// Set adds one NAME=VALUE; a malformed one, a value that is not a finite
// number (or true/false), or a name given twice is an error.
func (o *OverrideFlag) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE (an override's name or @id, and a number), got %q", s)
	}
	var v float64
	switch val = strings.TrimSpace(val); val {
	case "true":
		v = 1
	case "false":
		v = 0
	default:
		f, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s: value %q is not a finite number (or true/false)", name, val)
		}
		v = f
	}
	if o.vals == nil {
		o.vals = map[string]float64{}
	}
	if _, dup := o.vals[name]; dup {
		return fmt.Errorf("%s is given twice", name)
	}
	o.vals[name] = v
	o.keys = append(o.keys, name)
	return nil
}

// Overrides returns the constants given (nil when none), a copy, for
// ParseOptions.Overrides.
func (o *OverrideFlag) Overrides() map[string]float64 {
	if len(o.vals) == 0 {
		return nil
	}
	out := make(map[string]float64, len(o.vals))
	for k, v := range o.vals {
		out[k] = v
	}
	return out
}
