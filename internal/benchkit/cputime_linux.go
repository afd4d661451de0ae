package benchkit

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// ThreadClock returns a clock of the calling thread's CPU time (the
// goroutine is locked to its thread until release is called), so that a
// benchmark on a shared, loaded machine measures work rather than waiting.
func ThreadClock() (now func() time.Duration, release func()) {
	runtime.LockOSThread()
	const clockThreadCPUTimeID = 3
	now = func() time.Duration {
		var ts syscall.Timespec
		if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
			return time.Duration(time.Now().UnixNano())
		}
		return time.Duration(ts.Nano())
	}
	return now, runtime.UnlockOSThread
}
