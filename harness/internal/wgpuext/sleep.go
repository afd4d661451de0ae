package wgpuext

/*
#include "wgpuext.h"
*/
import "C"

import "time"

// Sleep sleeps for d in C (nanosleep(2)), blocking the calling thread. It
// is for the short waits between polls of a device: Go's time.Sleep takes
// about 1 ms for any duration below that when the process has nothing else
// to do (the runtime's idle wait has millisecond resolution), while a
// dispatch on a CPU adapter often finishes within a few hundred
// microseconds.
func Sleep(d time.Duration) {
	if d > 0 {
		C.gd_sleep_ns(C.longlong(d))
	}
}
