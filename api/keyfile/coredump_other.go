//go:build !unix

package keyfile

// disableCoreDumps does nothing where there are no core files to turn off.
func disableCoreDumps() error { return nil }
