package main

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTheConsoleRunsOnOneProcessor: the console sets GOMAXPROCS to one unless the environment
// sets it (consoleProcs), and says so in its --log. Run on no terminal, the console stops right
// after, at the screen.
func TestTheConsoleRunsOnOneProcessor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ env, want string }{{"", `"gomaxprocs":1}`}, {"GOMAXPROCS=2", `"gomaxprocs":2}`}} {
		dir := t.TempDir()
		logFile := filepath.Join(dir, "console.log")
		cmd := osexec.Command(programBin(t), "--seed", "1", "--log", logFile)
		cmd.Env = []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_STATE_HOME=" + filepath.Join(dir, "state"), programEnv}
		if c.env != "" {
			cmd.Env = append(cmd.Env, c.env)
		}
		out, err := cmd.CombinedOutput() // stdin is not a terminal: the console stops at the screen
		if err == nil {
			t.Fatalf("%s: the console ran with no terminal: %s", c.env, out)
		}
		b, rerr := os.ReadFile(logFile)
		if rerr != nil || !strings.Contains(string(b), c.want) {
			t.Fatalf("env %q: the log says %q (%v), want %s; output %s", c.env, b, rerr, c.want, out)
		}
	}
}
