// Command gpudiff is a GPU execution harness and differential tester: it
// proves on real GPU stacks that predication preserves semantics. README.md
// shows every subcommand, the case-file format and the exit codes.
//
// It owns parsing flags and arguments, mapping them onto the library's
// options, and turning results and errors into output and exit codes: 0
// clean, 1 when disagreements were found, 2 for usage and input errors
// (positioned file:line:col for source errors), and an internal-error
// report for an escaped panic. Its entry point is run(ctx, args, stdout,
// stderr) int, so tests drive it in process, many times: flag values live
// in values each command line creates (a subcommand's flag struct, and
// the globalFlags of the limits and --whitelist that newRoot passes to
// every subcommand), never in package variables.
//
// It must never decide semantics, transform, judge or attribute programs,
// or render results itself: that is the library's (report renders; check
// judges, including a replay's outcome, check.JudgeReplay)
// (ARCHITECTURE.md "Packages"). What it keeps: which files, kernel and
// inputs a command line names (load.go), whether stdout is a colour
// terminal, progress bars, where files go (written atomically), and
// outcomes → exit codes.
package main
