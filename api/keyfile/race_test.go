//go:build race

package keyfile

// raceBuild: the tests run under -race (see norace_test.go).
const raceBuild = true
