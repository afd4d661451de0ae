package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
)

// Exit codes of repro (README "gpudiff repro").
const (
	reproFixed     = 0 // the recorded failure no longer occurs: every run agrees
	reproStill     = 1 // the recorded failure (same class on the same kind of path) reproduces
	reproDifferent = 4 // something fails, but not as recorded
)

func newReproCmd() *cobra.Command {
	var (
		adapters []string
		asJSON   bool
		timeout  time.Duration
	)
	cmd := &cobra.Command{
		Use:   "repro CASE.wgsl",
		Short: "Replay a saved case and report whether its recorded failure still reproduces",
		Long: `repro re-runs a case file (as saved by 'gpudiff run') with the recorded kernel,
inputs, emission mode, flattening and SPIR-V choice, on the selected adapters
(default: the first Vulkan adapter), and compares the outcome with the recorded
findings.

Exit codes:
  0  the recorded failure no longer reproduces (every run agrees)
  1  it reproduces: a finding of the recorded class occurs again
  4  something fails, but differently from the record
  2  the case file is unreadable or invalid (file:line:col: …)`,
		Example: `  gpudiff repro findings/lavapipe_loop_exit_wrap.wgsl
  gpudiff repro shaders/regress/value_array_index.wgsl --adapter all --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFlags("repro", nil, positiveDuration("timeout", timeout)); err != nil {
				return err
			}
			return runRepro(cmd.Context(), args[0], adapters, timeout, asJSON, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringArrayVar(&adapters, "adapter", nil, "adapter(s) to replay on: short name, prefix, or all (default: the first Vulkan adapter)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print exec's JSON object for the replay")
	cmd.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "per-dispatch time limit")
	return cmd
}

func runRepro(ctx context.Context, path string, sels []string, timeout time.Duration, asJSON bool, stdout, stderr io.Writer) error {
	src, err := readSource(path)
	if err != nil {
		return err
	}
	c, rec, err := check.ParseCase(path, src)
	if err != nil {
		return inputErr(err)
	}
	mode, err := wgsl.ParseMode(rec.Mode)
	if err != nil {
		return usagef("%s: case record: %v", path, err)
	}
	devs, closeAll, err := openDevices(sels, timeout, stderr)
	if err != nil {
		return usagef("gpudiff repro: %v", err)
	}
	defer closeAll()
	if err := checkKernelLimits(c.Module, c.Module.Func(c.Kernel), len(c.Args)); err != nil {
		return err
	}
	opts := check.Options{Devices: devs, Flat: rec.Flat, SPIRV: rec.SPIRV, Mode: mode, Interp: interpOptions(), Flatten: flattenOptions()}
	res, err := check.Execute(ctx, c, opts)
	if err != nil {
		return inputErr(err)
	}
	now := check.Attribute(res)
	if res.FlattenErr != nil && rec.Flat {
		now = append([]check.Finding{{Class: "flatten-refused", Adapter: "flatten"}}, now...)
	}
	out := judgeRepro(rec, now)
	f := c.Module.Func(c.Kernel)
	if asJSON {
		if err := writeExecJSON(stdout, f, c.Args, res, &out); err != nil {
			return err
		}
	} else {
		writeExecTable(stdout, f, c.Args, res, false)
		fmt.Fprintln(stdout, out.Message)
	}
	if out.code == reproFixed {
		return nil
	}
	return &exitError{code: out.code}
}

// reproJSON is repro's judgement of a replay, the "repro" member of
// `repro --json`'s one document.
type reproJSON struct {
	// Outcome is "fixed" (exit 0), "reproduces" (exit 1) or "different"
	// (exit 4).
	Outcome string `json:"outcome"`
	// Recorded lists the case file's recorded classes (or its verdict
	// when it records no finding); Now the classes found by the replay.
	Recorded []string `json:"recorded"`
	Now      []string `json:"now"`
	// Message is the line repro prints under its table.
	Message string `json:"message"`
	code    int
}

// judgeRepro compares the replay's findings now with the case record:
// the recorded failure reproduces when a finding of a recorded class
// family (classFamily) occurs again.
func judgeRepro(rec *check.CaseRecord, now []check.Finding) reproJSON {
	recorded := map[string]bool{}
	out := reproJSON{Recorded: []string{}, Now: []string{}}
	for _, fd := range rec.Findings {
		recorded[classFamily(fd.Class)] = true
		out.Recorded = append(out.Recorded, string(fd.Class))
	}
	if len(rec.Findings) == 0 && rec.Verdict != "pass" {
		recorded[rec.Verdict] = true
		out.Recorded = append(out.Recorded, rec.Verdict)
	}
	for _, fd := range now {
		out.Now = append(out.Now, string(fd.Class))
	}
	switch {
	case len(now) == 0:
		out.Outcome, out.code = "fixed", reproFixed
		out.Message = fmt.Sprintf("repro: the recorded failure (%s) no longer reproduces: every run agrees", classes(rec.Findings, rec.Verdict))
	case anyRecorded(now, recorded):
		out.Outcome, out.code = "reproduces", reproStill
		out.Message = fmt.Sprintf("repro: REPRODUCES: %s — %s", now[0].Class, now[0].Implicates)
	default:
		out.Outcome, out.code = "different", reproDifferent
		out.Message = fmt.Sprintf("repro: fails differently: recorded %s, now %s — %s", classes(rec.Findings, rec.Verdict), now[0].Class, now[0].Implicates)
	}
	return out
}

// classFamily maps a finding class onto the disagreement it names,
// independent of how many adapters took part: "vendor" is "stack" (the
// GPU's original disagrees with the reference) seen next to other
// adapters that agree, so a vendor case replayed on its adapter alone,
// where it can only be called "stack", still reproduces.
func classFamily(class check.Class) string {
	if class == check.ClassVendor {
		return string(check.ClassStack)
	}
	return string(class)
}

func anyRecorded(now []check.Finding, recorded map[string]bool) bool {
	for _, f := range now {
		if recorded[classFamily(f.Class)] {
			return true
		}
	}
	return false
}

func classes(fs []check.Finding, verdict string) string {
	if len(fs) == 0 {
		return verdict
	}
	s := string(fs[0].Class)
	for _, f := range fs[1:] {
		s += ", " + string(f.Class)
	}
	return s
}
