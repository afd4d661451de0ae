package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/flatten"
)

// interruption is the cancellation cause of the command's context when a
// signal stopped it (main).
type interruption struct{ sig os.Signal }

func (i interruption) Error() string { return "interrupted by " + signalName(i.sig) }

// signalName names the signals gpudiff handles as a shell user knows them.
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// interruptCode is the exit status of a command whose context ctx ended:
// 128 + the signal's number when a signal ended it (130 for SIGINT, 143
// for SIGTERM), else exitInterrupted.
func interruptCode(ctx context.Context) int {
	var in interruption
	if errors.As(context.Cause(ctx), &in) {
		if s, ok := in.sig.(syscall.Signal); ok {
			return 128 + int(s)
		}
	}
	return exitInterrupted
}

// interruptedBy says what ended ctx, e.g. "interrupted by SIGTERM".
func interruptedBy(ctx context.Context) string {
	var in interruption
	if errors.As(context.Cause(ctx), &in) {
		return in.Error()
	}
	return "interrupted"
}

// exitError carries an exit code and a message already formatted for
// the user.
type exitError struct {
	code int
	msg  string
	// commandLine marks a usage error of the command line (a flag that
	// does not apply, a bad flag value: usagef, testcase.UsageError) rather
	// than of one file or entry point: runEach stops at it.
	commandLine bool
}

func (e *exitError) Error() string { return e.msg }

// usagef is an input or usage error (exit 2).
func usagef(format string, args ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...), commandLine: true}
}

// inputErr wraps an error from parsing user input (exit 2), keeping its
// own positioned text.
func inputErr(err error) error {
	var fe *flatten.Error
	if errors.As(err, &fe) && fe.Kind == flatten.Internal {
		return &exitError{code: exitInternal, msg: err.Error()} // a flatten bug, not the input's
	}
	var ue *testcase.UsageError
	return &exitError{code: exitUsage, msg: err.Error(), commandLine: errors.As(err, &ue)}
}

// found is the error of a command that ran fine and found disagreements.
var errFound = &exitError{code: exitFound}

// version is buildVersion: the gpudiff build that made a report, case file,
// journal or Amber script.
func version() string { return buildVersion() }

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
	code = exitCode(root.ExecuteContext(ctx), stderr)
	// A command a signal stopped never looks like a success or a finding
	// (run reports the interruption itself, with its own message).
	var in interruption
	if errors.As(context.Cause(ctx), &in) && code < 128 && code != exitInternal {
		fmt.Fprintf(stderr, "gpudiff: %v\n", in)
		code = interruptCode(ctx)
	}
	return code
}

// exitCode prints a command's error and returns its exit code.
func exitCode(err error, stderr io.Writer) int {
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

// newRoot builds the command tree of one command line. Its flag values
// live in values it creates (the subcommands' flag structs and one
// globalFlags that each subcommand captures), never in package variables,
// so that run may be called many times in one process.
func newRoot(ctx context.Context, stdout, stderr io.Writer) *cobra.Command {
	g := &globalFlags{lim: check.DefaultLimits}
	root := &cobra.Command{
		Use:           "gpudiff",
		Short:         "GPU execution harness and differential tester for predicated (flattened) shader code",
		Long:          helpText("gpudiff"),
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
		PersistentPreRunE: func(*cobra.Command, []string) error {
			return g.checkLimitFlags()
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usagef("gpudiff %s: %v\nRun 'gpudiff %s --help' for usage.", c.Name(), err, c.Name())
	})
	g.addLimitFlags(root)
	g.addFlattenFlags(root)
	g.addOverrideFlags(root)
	root.AddCommand(newAdaptersCmd(), newExecCmd(g), newFlattenCmd(g), newEmitCmd(g), newRunCmd(g), newMergeCmd(), newReproCmd(g), newDriversCmd(g), newAmberCmd(g), newViewCmd(g), newWorkerCmd())
	return root
}
