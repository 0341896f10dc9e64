//go:build !unix

package api

// disableCoreDumps does nothing where there are no core files to turn off.
func disableCoreDumps() error { return nil }
