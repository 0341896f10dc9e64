//go:build !race

package ui

// raceBuild: the tests run under -race, where a volume test may do fewer rounds (the plain run
// keeps its full volume; each such test says so).
const raceBuild = false
