package keyfile

import (
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestKeyLoadedTurnsCoreDumpsOff: once LoadSigner holds a key the process writes no core file
// and is not dumpable. Guards a crash writing the key to disk, and /proc/PID/mem readable by
// the user's other processes. It runs in a fresh process of its own (other tests load keys).
func TestKeyLoadedTurnsCoreDumpsOff(t *testing.T) {
	if os.Getenv("TRADEDESK_TEST_COREDUMP") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKeyLoadedTurnsCoreDumpsOff$", "-test.count=1")
		cmd.Env = append(os.Environ(), "TRADEDESK_TEST_COREDUMP=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_CORE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Max > 0 { // a limit above zero to start from, so that the test sees it drop
		lim.Cur = min(lim.Max, 1<<20)
		if err := syscall.Setrlimit(syscall.RLIMIT_CORE, &lim); err != nil {
			t.Fatal(err)
		}
	}
	if dumpable(t) != 1 {
		t.Skip("the test process starts not dumpable")
	}
	if s, err := LoadSigner(Credentials{Getenv: envOf(nil)}); s != nil || err != nil || dumpable(t) != 1 {
		t.Fatal("no key loaded, and yet dumps are off")
	}
	if _, err := LoadSigner(Credentials{Getenv: envOf(map[string]string{api.EnvPrivateKey: connKeyHex})}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Getrlimit(syscall.RLIMIT_CORE, &lim); err != nil || lim.Cur != 0 {
		t.Errorf("RLIMIT_CORE %d after a key was loaded (%v)", lim.Cur, err)
	}
	if d := dumpable(t); d != 0 {
		t.Errorf("PR_GET_DUMPABLE %d after a key was loaded", d)
	}
}

func dumpable(t *testing.T) uintptr {
	const prGetDumpable = 3
	r, _, errno := syscall.RawSyscall6(syscall.SYS_PRCTL, prGetDumpable, 0, 0, 0, 0, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	return r
}
