//go:build !race

package keyfile

// raceBuild: the tests run under -race (see race_test.go).
const raceBuild = false
