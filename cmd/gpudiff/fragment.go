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
	"github.com/gpudiff/gpudiff/report"
)

// runFragmentEntry is exec of a fragment entry point as written (README
// "Fragment entry points"): every pixel of a --size target (default
// 16x16) is one invocation whose @builtin(position) is the pixel centre,
// compared output by output with the reference, as WGSL and with --spirv
// gpudiff's SPIR-V, with --flat the twin too, always in the fragment
// stage. Arguments and dispatch flags of kernels and compute entry points
// (--inputs, --seed, --invocations, --workgroups) do not apply; neither
// does --save-case yet.
func runFragmentEntry(ctx context.Context, g *globalFlags, m *ir.Module, fl execFlags, stdout, stderr io.Writer) error {
	mode, err := wgsl.ParseMode(fl.mode)
	if err != nil {
		return usagef("gpudiff exec: --mode: %v", err)
	}
	for _, name := range []string{"inputs", "seed", "invocations", "workgroups"} {
		if fl.changed[name] {
			return usagef("gpudiff exec: --%s is for kernels and compute entry points; a fragment entry point runs once per pixel of --size WxH", name)
		}
	}
	if fl.saveCase != "" {
		return usagef("gpudiff exec: --save-case does not take fragment entry points yet")
	}
	if fl.changed["stage"] && fl.stage != "fragment" {
		return usagef("gpudiff exec: --stage %s: a fragment entry point runs as written, in the fragment stage", fl.stage)
	}
	f, err := wgsl.FragmentEntry(m, fl.kernel)
	if err != nil {
		return inputErr(err)
	}
	size := check.DefaultFragmentSize
	if fl.changed["size"] {
		if size, err = parseSize(fl.size); err != nil {
			return usagef("gpudiff exec: --size %s: %v", fl.size, err)
		}
	}
	if n := int64(size[0]) * int64(size[1]); n > int64(g.lim.Invocations) {
		return usagef("gpudiff exec: --size %dx%d is %d pixels, over the limit of %d invocations (raise it with --max-invocations)", size[0], size[1], n, g.lim.Invocations)
	}
	var devices []check.Device
	if !fl.noGPU {
		devs, closeAll, err := openDevices(fl.adapters, fl.timeout, stderr)
		if err != nil {
			return usagef("gpudiff exec: --adapter: %v", err)
		}
		defer closeAll()
		devices = devs
	}
	c := &check.FragmentCase{Module: m, Entry: f.Name, Size: size}
	opts := check.Options{Devices: devices, Flat: fl.flat, SPIRV: fl.spirv, Mode: mode, Interp: g.interpOptions(), Flatten: g.flattenOptions()}
	res, err := check.ExecuteFragment(ctx, c, opts)
	if err != nil {
		return inputErr(err)
	}
	if err := writePictures(fl.png, report.ResultPictures(res)); err != nil {
		return err
	}
	args := check.FragmentPositions(size[0], size[1], len(f.Params))
	if fl.asJSON {
		if err := report.WriteExecJSON(stdout, f, args, res, nil); err != nil {
			return err
		}
	} else {
		report.WriteExecTable(stdout, f, args, res, report.ExecOptions{AllRows: fl.allRows, Color: colorOut(stdout)})
		fmt.Fprintf(stdout, "fragment entry point %s over a %dx%d target: invocation i is pixel (i %% %d, i / %d)\n", f.Name, size[0], size[1], size[0], size[0])
	}
	return execExit(res.Verdict, res.FlattenErr)
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
