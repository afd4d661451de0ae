package worker

/*
#include <stdlib.h>
#include <unistd.h>

// gd_segfault writes through a null pointer: a real SIGSEGV in C code, as a
// crashing driver causes it.
static void gd_segfault(void) { *(volatile int *)0 = 42; }

// gd_abort aborts the way a Rust panic in wgpu-native does.
static void gd_abort(void) { abort(); }

// gd_hang blocks in C forever, like a driver waiting for a GPU that never
// finishes.
static void gd_hang(void) { for (;;) sleep(3600); }
*/
import "C"

import (
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/gpudiff/gpudiff/harness"
)

// FaultEnv names the environment variable that injects faults into worker
// processes, for tests and campaign acceptance runs. See the package doc.
const FaultEnv = "GPUDIFF_WORKER_FAULT"

// Fault kinds, the part before "@" in FaultEnv.
const (
	faultCrash  = "crash"  // write through a null pointer in C (SIGSEGV)
	faultAbort  = "abort"  // abort() in C (SIGABRT)
	faultExit   = "exit"   // os.Exit(3)
	faultKill   = "kill"   // SIGKILL to itself (as the OOM killer does)
	faultHang   = "hang"   // block in C forever
	faultLose   = "lose"   // reply with a lost-device error, then exit
	faultStdout = "stdout" // write a line to file descriptor 1, then run the dispatch normally
	// faultSlowCompile sleeps in the compile phase, before the kernel's
	// pipeline is created (so before the worker's progress frame), for
	// the duration after ":" ("slow-compile:3s@p1/"), or blocks in C
	// forever without one: a stack whose compiler takes that long (lavapipe
	// runs LLVM for tens of seconds on a large twin). The dispatch then
	// runs normally.
	faultSlowCompile = "slow-compile"
)

var faultKinds = []string{faultCrash, faultAbort, faultExit, faultKill, faultHang, faultLose, faultStdout, faultSlowCompile}

// fault is one "kind@prefix" or "kind:duration@prefix" item of FaultEnv.
// Every kind but slow-compile is injected once the dispatch has compiled
// (after the worker's progress frame), in its dispatch phase.
type fault struct {
	kind   string
	prefix string        // matches every Kernel.Label that starts with it
	sleep  time.Duration // slow-compile: how long; 0 forever
}

// compilePhase reports whether f is injected before the pipeline is
// created rather than after.
func (f *fault) compilePhase() bool { return f.kind == faultSlowCompile }

// parseFaults parses FaultEnv's value: comma-separated "kind@prefix"
// items; an empty value injects nothing.
func parseFaults(spec string) ([]fault, error) {
	var faults []fault
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		kind, prefix, ok := strings.Cut(item, "@")
		if !ok {
			return nil, fmt.Errorf("%s: %q is not kind@label-prefix", FaultEnv, item)
		}
		var sleep time.Duration
		if k, d, ok := strings.Cut(kind, ":"); ok {
			v, err := time.ParseDuration(d)
			if err != nil || v <= 0 || k != faultSlowCompile {
				return nil, fmt.Errorf("%s: %q: only %s takes a duration (a positive one, as time.ParseDuration reads it)", FaultEnv, item, faultSlowCompile)
			}
			kind, sleep = k, v
		}
		known := false
		for _, k := range faultKinds {
			known = known || k == kind
		}
		if !known {
			return nil, fmt.Errorf("%s: unknown fault kind %q in %q (kinds: %s)", FaultEnv, kind, item, strings.Join(faultKinds, ", "))
		}
		faults = append(faults, fault{kind: kind, prefix: prefix, sleep: sleep})
	}
	return faults, nil
}

// matchFault returns the first of faults whose prefix the label starts
// with, or nil. A label may list the labels of several dispatches
// separated by "|" (a module that batches several programs' kernels): a
// fault matches it when it matches any of them.
func matchFault(faults []fault, label string) *fault {
	for i := range faults {
		for _, l := range strings.Split(label, "|") {
			if strings.HasPrefix(l, faults[i].prefix) {
				return &faults[i]
			}
		}
	}
	return nil
}

// inject carries out f for the dispatch labelled label on adapter. It
// announces the fault on stderr first, so the parent's stderr tail shows
// it. For crash, abort, exit, kill, hang and slow-compile without a
// duration it does not return. For lose it returns the Broken
// *harness.DeviceError the dispatch reports; for stdout and a timed
// slow-compile (after its sleep) it returns nil and the dispatch runs.
func inject(f *fault, adapter, label string, stderr io.Writer) error {
	fmt.Fprintf(stderr, "gpudiff worker: injecting fault %s@%s into dispatch %q on %s\n", f.kind, f.prefix, label, adapter)
	switch f.kind {
	case faultCrash:
		C.gd_segfault()
	case faultAbort:
		C.gd_abort()
	case faultExit:
		os.Exit(3)
	case faultKill:
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	case faultHang:
		C.gd_hang()
	case faultLose:
		return &harness.DeviceError{Adapter: adapter, Op: "device", Broken: true,
			Message: fmt.Sprintf("device lost (injected fault %s@%s)", f.kind, f.prefix)}
	case faultStdout:
		syscall.Write(1, []byte("gpudiff worker: injected noise on file descriptor 1\n"))
		return nil
	case faultSlowCompile:
		if f.sleep > 0 {
			time.Sleep(f.sleep)
			return nil
		}
		C.gd_hang()
	}
	C.gd_hang() // kill: wait for the signal
	panic("unreachable")
}
