package flatten

import "os"

// FaultEnv names the environment variable that breaks one flatten rule on
// purpose, for testing the tools that must catch flatten bugs (the
// campaign, the shrinker, repro). It is read when Function runs. Values:
//
//	retest-else  the else arm re-evaluates the if's condition after the then
//	             arm ran, instead of using the value hoisted before it — the
//	             reference design's first rule ("condition hoisted once
//	             before the then-arm"): a then arm that writes a variable the
//	             condition reads now changes which arm's writes survive.
//	masked-break-late, masked-exit-first
//	             two bugs of kept loops (flatten.Options.Fault has them).
//	demote-callee-dropped
//	             a bug of a fragment twin's demote mask (Options.Fault).
//	subgroup-guard-dropped
//	             a reduction's or scan's operand is not guarded with the
//	             path's mask (Options.Fault; doc.go "Subgroups").
//
// Never set it outside tests; `gpudiff run` prints a warning when it is set.
const FaultEnv = "GPUDIFF_FLATTEN_FAULT"

// fault returns the injected fault, "" normally.
func fault() string { return os.Getenv(FaultEnv) }
