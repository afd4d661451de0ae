//go:build !linux

package interp

import "time"

// threadClock falls back to the wall clock where thread CPU time is not
// available.
func threadClock() (now func() time.Duration, release func()) {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }, func() {}
}
