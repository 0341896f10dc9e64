//go:build unix && !linux

package keyfile

import "syscall"

// disableCoreDumps keeps a key in memory off the disk: no core file (RLIMIT_CORE 0).
func disableCoreDumps() error {
	return syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
}
