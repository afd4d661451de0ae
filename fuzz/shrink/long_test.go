package shrink_test

import "os"

// longTests: GPUDIFF_TEST_LONG=1 (`make test-long`, CI's nightly) runs the
// generated-program tests at their full counts; `make test` runs a bounded
// share of each — the first seeds of the same corpus, so a failure there
// fails both (README "Testing gpudiff itself").
var longTests = os.Getenv("GPUDIFF_TEST_LONG") == "1"

// testCount returns full under GPUDIFF_TEST_LONG=1 and bounded otherwise.
func testCount(full, bounded int) int {
	if longTests {
		return full
	}
	return bounded
}
