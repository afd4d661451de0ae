// Package worker runs harness dispatches in worker processes, one per
// adapter, so that a driver that segfaults, aborts, hangs or loses its
// device costs one dispatch and not the run.
//
// A worker is the running binary re-executed (os.Executable) with the
// hidden subcommand "__worker" (Subcommand), which calls Serve: it reads
// requests on stdin, runs them on a harness.Device that it keeps open
// across dispatches, and writes replies on stdout. Requests and replies are
// plain data — harness.Kernel (WGSL text or SPIR-V words), harness.Dispatch,
// a request id, output bytes, and errors as their fields — in one
// encoding/gob stream per direction. A worker writes nothing else to
// stdout: Serve points file descriptor 1 at stderr before it starts.
//
// The parent side is Device (Start, Info, Run, Close or Shutdown), a
// harness.Runner. Workers open wgpu adapters (harness.Open); Dawn's adapters
// already run in a node process of their own (package harness/dawn). Run
// classifies every failure:
//
//   - the stack rejected the kernel: *harness.CompileError, as the
//     in-process harness returns it (same Stage, same naga message);
//   - the worker died during the dispatch: *CrashError, with its exit
//     status, the fatal signal and the last 2 KiB of its stderr. A lost
//     device is a crash too: the worker reports the Broken
//     *harness.DeviceError (CrashError.Err) and exits;
//   - the dispatch exceeded a time limit: *TimeoutError, which wraps
//     context.DeadlineExceeded; the worker's process group was killed.
//     A dispatch has two limits, one per phase (TimeoutError.Phase):
//     compiling (the shader modules and the pipeline,
//     Options.CompileTimeout), which ends when the worker reports the
//     pipeline created (a progress frame), then running (the buffers,
//     the dispatch and its readback, Options.Timeout; on GL, where Mesa
//     compiles at the first dispatch, CompileTimeout + Timeout, phase
//     PhaseFirstDispatch);
//   - other *harness.DeviceError and harness errors pass through unchanged.
//
// After a crash, a timeout or a cancelled ctx the next Run starts a fresh
// worker (a process start, a WebGPU instance and opening the adapter again:
// see BenchmarkCrashRecovery); nothing else is lost. When Options.MaxStarts workers in a row die or time out before they
// have opened the adapter, the Device gives up with a *StartError instead of
// looping.
//
// Workers run in their own process group, with SIGKILL as their
// parent-death signal, and exit when their stdin closes, so they do not
// outlive the parent. A segfault in C code (the driver) under the Go
// runtime ends in "exit status 2" after the runtime prints the signal; the
// parent reads the signal back from that report (CrashError.Signal).
//
// # Fault injection
//
// The environment variable GPUDIFF_WORKER_FAULT (FaultEnv), read by the
// worker when it starts, injects faults for tests and campaign acceptance
// runs. Its value is a comma-separated list of kind@prefix (or
// kind:duration@prefix); a dispatch whose
// Kernel.Label starts with prefix gets the fault of the first item that
// matches ("crash@p5/" crashes every dispatch of program 5; "hang@" hangs
// every dispatch). A label may list several labels separated by "|" (a
// module batching several programs' kernels): it gets the fault of the
// first item that matches any of them. Every fault but slow-compile acts
// in the dispatch phase, after the progress frame. Kinds:
//
//   - crash: write through a null pointer in C: a real SIGSEGV, which the
//     Go runtime reports and turns into exit status 2.
//   - abort: abort() in C, as a Rust panic in wgpu-native does (SIGABRT,
//     likewise reported by the Go runtime, exit status 2).
//   - exit: os.Exit(3).
//   - kill: SIGKILL to itself, as the OOM killer would (signal: killed).
//   - hang: block in C forever once the dispatch has compiled; the
//     parent's Timeout fires (TimeoutError.Phase PhaseDispatch).
//   - slow-compile:DURATION (e.g. "slow-compile:3s@p1/"): sleep that long
//     before compiling, as a slow shader compiler does, then run the
//     dispatch normally; without ":DURATION" block in C forever there,
//     so the parent's CompileTimeout fires (PhaseCompile).
//   - lose: reply with a Broken "device lost" *harness.DeviceError, then
//     exit, as on a real lost device.
//   - stdout: write a line to file descriptor 1 (as a chatty driver
//     might), then run the dispatch normally.
//
// The worker prints one line naming the fault to stderr before it acts. An
// unknown kind or malformed item makes every worker exit at start, which
// Start reports as a *StartError. Set it per Device with Options.Env.
//
// This package must never: run GPU work in the parent process; decode
// output bytes or judge them; retry a dispatch (a crash or timeout is the
// dispatch's result); or leave a worker process behind after Close.
package worker
