// Command gpudiff is a GPU execution harness and differential tester: it
// proves on real GPU stacks that predication preserves semantics. README.md
// shows every subcommand, the case-file format and the exit codes.
//
// It owns parsing flags and arguments, mapping them onto the library's
// options, and turning results and errors into output and exit codes: 0
// clean, 1 when disagreements were found, 2 for usage and input errors
// (positioned file:line:col for source errors), and an internal-error
// report for an escaped panic. Its entry point is run(ctx, args, stdout,
// stderr) int, so tests drive it in process.
//
// It must never decide semantics, transform or judge programs itself:
// that is the library's (ARCHITECTURE.md "Packages").
package main
