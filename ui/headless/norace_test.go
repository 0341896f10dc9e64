//go:build !race

package headless

// raceBuild: the tests run under -race (see inOwnDir).
const raceBuild = false
