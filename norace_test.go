//go:build !race

package main

// raceBuild: the tests run under -race.
const raceBuild = false
