package flatten

// SetVerifyEveryPass sets verifyEveryPass, which verify_test.go turns on
// for every test of the package, and returns the function restoring it:
// the benchmarks measure the pipeline as gpudiff runs it.
func SetVerifyEveryPass(on bool) (restore func()) {
	old := verifyEveryPass
	verifyEveryPass = on
	return func() { verifyEveryPass = old }
}
