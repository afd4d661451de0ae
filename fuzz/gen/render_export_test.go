package gen

// TestCount is testCount (long_test.go) for the external test package's
// render properties.
var TestCount = testCount
