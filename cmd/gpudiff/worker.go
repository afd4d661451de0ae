package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/harness/worker"
)

// newWorkerCmd is the hidden "__worker" subcommand: a worker process that
// runs GPU dispatches for a parent gpudiff (package harness/worker starts
// it). It speaks the worker protocol on the process's own stdin and stdout,
// never on the command's configured writers, and exits with
// worker.ExitServeError when Serve fails.
func newWorkerCmd() *cobra.Command {
	return &cobra.Command{
		Use:    worker.Subcommand,
		Short:  "Run GPU dispatches for a parent gpudiff over stdin/stdout (internal)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := worker.Serve(cmd.Context(), os.Stdin, os.Stdout, os.Stderr); err != nil {
				return &exitError{code: worker.ExitServeError, msg: err.Error()} // "gpudiff worker: ..."
			}
			return nil
		},
	}
}
