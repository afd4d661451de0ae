// Command gpudiff is a GPU execution harness and differential tester: it
// proves on real GPU stacks that predication preserves semantics. See
// README.md for the subcommands, the case-file format and the exit codes.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
