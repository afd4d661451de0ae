package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// executeFragmentEntry runs a fragment entry point as written (README
// "Fragment entry points"): every pixel of a --size target (default
// 16x16) is one invocation whose @builtin(position) is the pixel centre,
// compared output by output with the reference, as WGSL and with --spirv
// gpudiff's SPIR-V, with --flat the twin too, always in the fragment
// stage. Arguments and dispatch flags of kernels and compute entry points
// (--inputs, --seed, --invocations, --workgroups) do not apply; neither
// does --save-case yet.
func executeFragmentEntry(ctx context.Context, g *globalFlags, m *ir.Module, fl execFlags, stderr io.Writer) (*executed, error) {
	mode, err := wgsl.ParseMode(fl.mode)
	if err != nil {
		return nil, usagef("gpudiff %s: --mode: %v", fl.name(), err)
	}
	for _, name := range []string{"inputs", "seed", "invocations", "workgroups"} {
		if fl.changed[name] {
			return nil, usagef("gpudiff %s: --%s is for kernels and compute entry points; a fragment entry point runs once per pixel of --size WxH", fl.name(), name)
		}
	}
	if fl.saveCase != "" {
		return nil, usagef("gpudiff %s: --save-case does not take fragment entry points yet", fl.name())
	}
	if fl.changed["stage"] && fl.stage != "fragment" {
		return nil, usagef("gpudiff %s: --stage %s: a fragment entry point runs as written, in the fragment stage", fl.name(), fl.stage)
	}
	f, err := wgsl.FragmentEntry(m, fl.kernel)
	if err != nil {
		return nil, inputErr(err)
	}
	size := check.DefaultFragmentSize
	if fl.changed["size"] {
		if size, err = parseSize(fl.size); err != nil {
			return nil, usagef("gpudiff %s: --size %s: %v", fl.name(), fl.size, err)
		}
	}
	if n := int64(size[0]) * int64(size[1]); n > int64(g.lim.Invocations) {
		return nil, usagef("gpudiff %s: --size %dx%d is %d pixels, over the limit of %d invocations (raise it with --max-invocations)", fl.name(), size[0], size[1], n, g.lim.Invocations)
	}
	var devices []check.Device
	if !fl.noGPU {
		devs, closeAll, err := openDevices(fl.adapters, fl.timeout, stderr)
		if err != nil {
			return nil, usagef("gpudiff %s: --adapter: %v", fl.name(), err)
		}
		defer closeAll()
		devices = devs
	}
	c := &check.FragmentCase{Module: m, Entry: f.Name, Size: size}
	opts := check.Options{Devices: devices, Flat: fl.flat, SPIRV: fl.spirv, Mode: mode, Interp: g.interpOptions(), Flatten: g.flattenOptions()}
	res, err := check.ExecuteFragment(ctx, c, opts)
	if err != nil {
		return nil, inputErr(err)
	}
	args := check.FragmentPositions(size[0], size[1], len(f.Params))
	return &executed{f: f, args: args, opts: opts, res: res, fragment: &size}, nil
}

// parseSize parses --size WxH: a width and a height in pixels, each at
// least 1.
func parseSize(s string) ([2]uint32, error) {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !ok {
		return [2]uint32{}, fmt.Errorf("want WxH, e.g. 16x16")
	}
	var size [2]uint32
	for i, p := range []string{ws, hs} {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 32)
		if err != nil || n == 0 {
			return size, fmt.Errorf("%q is not a size in pixels (a whole number ≥ 1)", p)
		}
		size[i] = uint32(n)
	}
	return size, nil
}
