//go:build !race

package exec

// raceBuild: the tests run under -race (see race_test.go).
const raceBuild = false
