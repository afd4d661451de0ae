package flatten

// flatten's own tests verify every twin after every pass, whether or not
// GPUDIFF_VERIFY_PASSES is set (passes.go: verifyEveryPass).
func init() { verifyEveryPass = true }
