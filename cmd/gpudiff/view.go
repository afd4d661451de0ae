package main

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/report"
)

// viewFlags are view's flags: exec's case flags, and what to show.
type viewFlags struct {
	execFlags
	screenshot string // write one frame to this PNG and exit
	keys       string // keys applied before the first frame
}

func newViewCmd(g *globalFlags) *cobra.Command {
	var fl viewFlags
	cmd := &cobra.Command{
		Use:     "view CASE.wgsl|FILE.wgsl|VERT.wgsl FRAG.wgsl",
		Short:   "Run a case as exec does and show each run's picture in a window",
		Long:    helpText("view"),
		Example: helpText("view.example"),
		Args:    cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl.given = changedFlags(cmd)
			fl.fragmentFile = secondFile(args)
			return runView(cmd.Context(), g, args[0], fl, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addCaseFlags(f, &fl.execFlags)
	g.addStrictFlag(f)
	f.StringVar(&fl.screenshot, "screenshot", "", "render one frame into this PNG file and exit (no window shown)")
	f.StringVar(&fl.keys, "keys", "", "keys to apply before the first frame, in order (e.g. fs: the twin, then the other format; a q closes the window after its first frame)")
	return cmd
}

func runView(ctx context.Context, g *globalFlags, path string, fl viewFlags, stdout, stderr io.Writer) error {
	if !viewerBuilt {
		return usagef("gpudiff view: this gpudiff is built without the viewer (it needs cgo and the X11 development headers that 'make deps' installs); build one with 'go build -tags glfw ./cmd/gpudiff' or 'make build-viewer'")
	}
	if fl.screenshot != "" {
		if st, err := os.Stat(filepath.Dir(fl.screenshot)); err != nil || !st.IsDir() {
			return usagef("gpudiff view: --screenshot %s: no directory %s", fl.screenshot, filepath.Dir(fl.screenshot))
		}
	}
	fl.command, fl.recorded = "view", true
	o, err := execLoadOptions(g, fl.execFlags, stderr)
	if err != nil {
		return err
	}
	x, err := executeFile(ctx, g, path, fl.execFlags, o, stderr)
	if err != nil {
		return err
	}
	if err := writeExecuted(x, fl.execFlags, stdout); err != nil {
		return err
	}
	v := report.NewViewer(report.CaseViews(x))
	quit := v.Keys(fl.keys, stdout)
	if err := showViewer(ctx, v, fl.screenshot, quit, stdout); err != nil {
		return err
	}
	return execExit(x)
}
