//go:build linux

package keyfile

import "syscall"

// prSetDumpable is prctl's PR_SET_DUMPABLE (not in every architecture's syscall tables).
const prSetDumpable = 4

// disableCoreDumps keeps a key in memory off the disk: no core file (RLIMIT_CORE 0), and the
// process not dumpable, so no other process of the user may ptrace it or read its memory
// through /proc either.
func disableCoreDumps() error {
	if err := syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{}); err != nil {
		return err
	}
	if _, _, errno := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetDumpable, 0, 0, 0, 0, 0); errno != 0 {
		return errno
	}
	return nil
}
