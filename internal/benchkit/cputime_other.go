//go:build !linux

package benchkit

import "time"

// ThreadClock falls back to the wall clock where thread CPU time is not
// available.
func ThreadClock() (now func() time.Duration, release func()) {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }, func() {}
}
