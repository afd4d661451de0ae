package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes (README "Exit codes").
const (
	exitOK       = 0 // every run agrees with the reference
	exitFound    = 1 // some run disagrees (or a new failure in a campaign)
	exitUsage    = 2 // usage, input or compile error (source errors as file:line:col: …)
	exitInternal = 3 // a bug in gpudiff itself
)

// exitError carries an exit code and a message already formatted for
// the user.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usagef is an input or usage error (exit 2).
func usagef(format string, args ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

// inputErr wraps an error from parsing user input (exit 2), keeping its
// own positioned text.
func inputErr(err error) error { return &exitError{code: exitUsage, msg: err.Error()} }

// found is the error of a command that ran fine and found disagreements.
var errFound = &exitError{code: exitFound}

// version is the tool version recorded in reports and case files.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// run executes the gpudiff command line args and returns the exit code.
// It never lets a panic escape: a panic is a gpudiff bug, reported as an
// internal error (exit 3) with the stack only when GPUDIFF_DEBUG is set.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "gpudiff: internal error: %v\nThis is a bug in gpudiff; please report it with the command line.\n", r)
			if os.Getenv("GPUDIFF_DEBUG") != "" {
				fmt.Fprintf(stderr, "%s", debug.Stack())
			}
			code = exitInternal
		}
	}()
	root := newRoot(ctx, stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, strings.TrimRight(ee.msg, "\n"))
		}
		return ee.code
	}
	// cobra's own errors: unknown commands and flags, wrong arity.
	fmt.Fprintf(stderr, "gpudiff: %v\nRun 'gpudiff --help' for usage.\n", err)
	return exitUsage
}

func newRoot(ctx context.Context, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "gpudiff",
		Short: "GPU execution harness and differential tester for predicated (flattened) shader code",
		Long: `gpudiff runs WGSL-subset kernels in a reference interpreter and on every WebGPU
adapter of the machine, flattens them into branchless, call-free twins, and
reports every per-invocation disagreement, attributed to the component that
caused it.

Exit codes: 0 every run agrees; 1 a run disagrees; 2 usage, input or compile
error (source errors are printed file:line:col: message); 3 internal error.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usagef("gpudiff %s: %v\nRun 'gpudiff %s --help' for usage.", c.Name(), err, c.Name())
	})
	addLimitFlags(root)
	addFlattenFlags(root)
	root.AddCommand(newAdaptersCmd(), newExecCmd(), newFlattenCmd(), newEmitCmd(), newRunCmd(), newReproCmd(), newDriversCmd(), newAmberCmd(), newWorkerCmd())
	return root
}
