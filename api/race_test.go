//go:build race

package api

// raceBuild: the tests run under -race (see norace_test.go).
const raceBuild = true
