//go:build race

package exec

// raceBuild: the tests run under -race (see norace_test.go), where every request costs several
// times the CPU; a test that repeats the same work many times does fewer rounds there.
const raceBuild = true
