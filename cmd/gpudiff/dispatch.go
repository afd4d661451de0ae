package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// exec on a compute entry point as written (../shared/DESIGN.md "Entry
// points as written (compute)"): the module's bindings are filled from
// --inputs (a JSON object keyed by binding variable name, plus an optional
// "workgroups": [X, Y, Z]), NAME.inputs.json beside NAME.wgsl, or --seed;
// the dispatch is --workgroups X[,Y[,Z]] (default: the inputs' workgroups,
// else 1); the outputs are the read_write storage bindings, compared leaf
// by leaf with the reference dispatch.

// savedEntry is an entry point's case file: its recorded dispatch,
// bindings and mode are exec's defaults.
type savedEntry struct {
	c   *check.EntryCase
	rec *check.CaseRecord
}

// executeDispatch is executeFile for a module whose kernel is a compute
// entry point (saved, when non-nil, is the case file it comes from).
func executeDispatch(ctx context.Context, g *globalFlags, path string, m *ir.Module, saved *savedEntry, fl execFlags, stderr io.Writer) (*executed, error) {
	if saved != nil && !fl.changed["mode"] {
		fl.mode = saved.rec.Mode
	}
	if saved != nil && fl.recordedPaths {
		fl.flat = fl.flat || !fl.changed["flat"] && saved.rec.Flat
		fl.spirv = fl.spirv || !fl.changed["spirv"] && saved.rec.SPIRV
	}
	mode, err := wgsl.ParseMode(fl.mode)
	if err != nil {
		return nil, usagef("gpudiff %s: --mode: %v", fl.name(), err)
	}
	if fl.changed["invocations"] {
		return nil, usagef("gpudiff %s: --invocations is for function kernels; an entry point's dispatch size is --workgroups X[,Y[,Z]]", fl.name())
	}
	if stages, _ := parseStages(fl.name(), fl.stage); !computeOnly(stages) {
		return nil, usagef("gpudiff %s: --stage %s is for function kernels; a compute entry point runs as written, in the compute stage", fl.name(), fl.stage)
	}
	kernel := fl.kernel
	if saved != nil && kernel == "" {
		kernel = saved.c.Entry
	}
	f, err := wgsl.Entry(m, kernel)
	if err != nil {
		return nil, inputErr(err)
	}
	wg := [3]uint32{1, 1, 1}
	if saved != nil {
		wg = saved.c.Workgroups
	}
	wgSet := fl.changed["workgroups"]
	if wgSet {
		if wg, err = parseWorkgroups(fl.workgroups); err != nil {
			return nil, usagef("gpudiff %s: --workgroups %s: %v", fl.name(), fl.workgroups, err)
		}
	}
	if err := g.checkDispatchLimits(fl, f, wg); err != nil {
		return nil, err
	}
	fill, err := fl.entryFill()
	if err != nil {
		return nil, err
	}
	inputs := fl.inputs
	if inputs == "" && !fl.changed["seed"] && !fl.changed["fill"] && saved == nil {
		inputs = besideInputs(path, fl.kernel)
		if inputs != "" && fl.kernel != "" && fl.kernel != f.Name {
			inputs = ""
		}
	}
	// made is how the inputs were made up (check.Options.Fill), "" when
	// the user gave them all.
	var bufs map[string]ir.Value
	var made check.Fill
	if inputs != "" {
		var fileWG *[3]uint32
		if bufs, fileWG, err = g.readBindingInputs(inputs, m); err != nil {
			return nil, err
		}
		if fileWG != nil && !wgSet {
			wg = *fileWG
			if err := g.checkDispatchLimits(fl, f, wg); err != nil {
				return nil, err
			}
		}
		if fl.changed["fill"] {
			// --fill fills the bindings the file does not give (without
			// it they start zeroed, as WebGPU's new buffers do).
			for name, v := range check.FillBindings(fill, fl.seed, m, f, wg) {
				if _, given := bufs[name]; !given {
					bufs[name], made = v, fill
				}
			}
		}
	} else if saved != nil && !fl.changed["seed"] && !fl.changed["fill"] {
		bufs, made = saved.c.Buffers, check.Fill(saved.rec.Fill)
	} else {
		bufs, made = check.FillBindings(fill, fl.seed, m, f, wg), fill
		fl.warnSeed(fill, stderr)
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
	c := &check.EntryCase{Module: m, Entry: f.Name, Workgroups: wg, Buffers: bufs}
	opts := check.Options{Devices: devices, Flat: fl.flat, SPIRV: fl.spirv, Mode: mode, Fill: made, Interp: g.interpOptions(), Flatten: g.flattenOptions()}
	res, err := check.ExecuteEntry(ctx, c, opts)
	if err != nil {
		return nil, inputErr(err)
	}
	return &executed{ec: c, eres: res, opts: opts}, nil
}

// defaultEntryFill is --fill's default for an entry point's bindings: the
// fill under which real shaders do the most work (README "Filled inputs").
const defaultEntryFill = check.FillSmall

// defaultKernelFill is --fill's default for a function kernel's
// arguments: edge values first, which find stacks' arithmetic bugs.
const defaultKernelFill = check.FillEdges

// entryFill is --fill for an entry point's bindings (defaultEntryFill
// when not given).
func (fl execFlags) entryFill() (check.Fill, error) {
	return fl.parseFill(defaultEntryFill)
}

// parseFill parses --fill, def when it is not given.
func (fl execFlags) parseFill(def check.Fill) (check.Fill, error) {
	if !fl.changed["fill"] {
		return def, nil
	}
	fill, err := check.ParseFill(fl.fill)
	if err != nil {
		return "", usagef("gpudiff %s: --fill: %v", fl.name(), err)
	}
	return fill, nil
}

// warnSeed warns on w when --seed is given but fill ignores seeds (zero,
// iota, small), instead of letting it silently change nothing.
func (fl execFlags) warnSeed(fill check.Fill, w io.Writer) {
	if fl.changed["seed"] && fill != check.FillEdges && fill != check.FillRandom {
		fmt.Fprintf(w, "gpudiff %s: warning: --seed %d changes nothing under --fill %s (only edges and random are seeded)\n", fl.name(), fl.seed, fill)
	}
}

// checkDispatchLimits checks a dispatch of wg workgroups of entry point f
// against --max-invocations and the reference's own bound, naming the
// flags to change, before anything is allocated for it.
func (g *globalFlags) checkDispatchLimits(fl execFlags, f *ir.Func, wg [3]uint32) error {
	ws := f.WorkgroupSize
	total := uint64(wg[0]) * uint64(wg[1]) * uint64(wg[2]) * uint64(ws[0]) * uint64(ws[1]) * uint64(ws[2])
	what := fmt.Sprintf("%d×%d×%d workgroups of %d×%d×%d invocations (@workgroup_size of %s) are %d invocations",
		wg[0], wg[1], wg[2], ws[0], ws[1], ws[2], f.Name, total)
	if total > uint64(g.lim.Invocations) {
		return usagef("gpudiff %s: %s, over the limit of %d (lower --workgroups, or raise --max-invocations)", fl.name(), what, g.lim.Invocations)
	}
	if total > maxDispatchInvocations {
		return usagef("gpudiff %s: %s, over the %d the reference interpreter dispatches (lower --workgroups)", fl.name(), what, maxDispatchInvocations)
	}
	return nil
}

// maxDispatchInvocations is the largest dispatch the reference runs
// (interp.Dispatch.Run: 2^26 invocations).
const maxDispatchInvocations = 1 << 26

// parseWorkgroups parses X[,Y[,Z]] (missing ones are 1), each ≥ 1.
func parseWorkgroups(s string) ([3]uint32, error) {
	wg := [3]uint32{1, 1, 1}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return wg, fmt.Errorf("want X[,Y[,Z]], got %d numbers", len(parts))
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 32)
		if err != nil || n == 0 {
			return wg, fmt.Errorf("%q is not a workgroup count (a whole number ≥ 1)", p)
		}
		wg[i] = uint32(n)
	}
	return wg, nil
}

// readBindingInputs reads an entry point's --inputs file: a JSON object
// mapping storage and uniform binding names to their initial values (the
// JSON form of ir values; a runtime-sized array takes the given length),
// and optionally "workgroups": [X, Y, Z].
func (g *globalFlags) readBindingInputs(path string, m *ir.Module) (map[string]ir.Value, *[3]uint32, error) {
	data, err := g.readSource(path)
	if err != nil {
		return nil, nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		where := path
		if err != nil {
			where = jsonPos(path, data, err)
		}
		return nil, nil, usagef("%s: want a JSON object mapping binding names to their values", where)
	}
	var wg *[3]uint32
	bufs := map[string]ir.Value{}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		raw := obj[k]
		if k == "workgroups" && m.SharedVar(k) == nil {
			var w []uint32
			if err := json.Unmarshal(raw, &w); err != nil || len(w) == 0 || len(w) > 3 {
				return nil, nil, usagef("%s: workgroups: want [X] to [X, Y, Z], got %s", path, raw)
			}
			v := [3]uint32{1, 1, 1}
			for i, n := range w {
				if n == 0 {
					return nil, nil, usagef("%s: workgroups: a count of 0", path)
				}
				v[i] = n
			}
			wg = &v
			continue
		}
		g := m.SharedVar(k)
		if g == nil || g.Space == ir.SpaceWorkgroup {
			return nil, nil, usagef("%s: the module has no storage or uniform binding named %q (have %s)", path, k, strings.Join(bindingNames(m), ", "))
		}
		v, err := ir.UnmarshalValue(g.T, raw)
		if err != nil {
			return nil, nil, usagef("%s: %s%v", path, k, strings.TrimPrefix(err.Error(), "value"))
		}
		bufs[k] = v
	}
	return bufs, wg, nil
}

func bindingNames(m *ir.Module) []string {
	var out []string
	for _, v := range m.Shared {
		if v.Space != ir.SpaceWorkgroup {
			out = append(out, v.Name)
		}
	}
	return out
}
