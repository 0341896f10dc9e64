//go:build !race

package api

// raceBuild: the tests run under -race (see race_test.go).
const raceBuild = false
