package main

import (
	"fmt"
	"math"

	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// overrideValue is --override NAME=VALUE, repeatable: the pipeline
// constants (WebGPU GPUProgrammableStage.constants) a WGSL file's
// overrides take instead of their defaults. NAME is an override's name
// or its @id; VALUE a number (or true/false), converted to the
// override's type as WebGPU converts a GPUPipelineConstantValue
// (wgsl.ParseOptions).
type overrideValue struct {
	vals map[string]float64
	keys []string // in the order given, for String
}

func (o *overrideValue) Type() string { return "NAME=VALUE" }

func (o *overrideValue) String() string {
	var parts []string
	for _, k := range o.keys {
		parts = append(parts, k+"="+strconv.FormatFloat(o.vals[k], 'g', -1, 64))
	}
	return strings.Join(parts, ",")
}

func (o *overrideValue) Set(s string) error {
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

// Overrides returns the constants given (nil when none), a copy.
func (o *overrideValue) Overrides() map[string]float64 {
	if len(o.vals) == 0 {
		return nil
	}
	out := make(map[string]float64, len(o.vals))
	for k, v := range o.vals {
		out[k] = v
	}
	return out
}

// addOverrideFlags registers --override on root, bound to g.overrides:
// every subcommand that reads a WGSL file (exec, emit, flatten,
// export-amber) parses it with these constants.
func (g *globalFlags) addOverrideFlags(root *cobra.Command) {
	root.PersistentFlags().AddFlag(&pflag.Flag{
		Name:  "override",
		Usage: "pipeline-overridable constant NAME=VALUE (an override's name or @id; repeatable): the value replaces the override's default (WebGPU GPUProgrammableStage.constants)",
		Value: &g.overrides,
	})
}
