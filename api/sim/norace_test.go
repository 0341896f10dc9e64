//go:build !race

package sim

// raceBuild: the tests run under -race (see race_test.go).
const raceBuild = false
