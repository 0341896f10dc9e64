package cli

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// result is one command line's run.
type result struct {
	code        int
	out, errOut string
	console     *ConsoleOptions // what the console was opened with (nil: not opened)
}

// runLine runs one command line through the whole tree; env fills the headless environment.
func runLine(t *testing.T, env headless.Env, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	var res result
	simCmd := sim.NewCommand(&out, &errb)
	env = testEnv(t, env)
	res.code = Run(context.Background(), args, Program{
		Stdout: &out, Stderr: &errb,
		Console: func(_ context.Context, o ConsoleOptions) error { res.console = &o; return nil },
		Sim:     Sim{Flags: simCmd.Flags, Help: sim.CommandHelp, Run: simCmd.Run},
		Env:     env,
	})
	res.out, res.errOut = out.String(), errb.String()
	return res
}

// lines runs command lines one after another through one tree: NewRoot once, then
// headless.Execute for each line, as Run does for a line that asks for no completion. Building
// the tree is most of a line's cost (several milliseconds of CPU under -race), so a test that
// runs thousands of lines that each end in --help (whatever flags an earlier line set, help
// wins) builds one tree per command instead of one per line.
type lines struct {
	root      *cobra.Command
	out, errb bytes.Buffer
	console   *ConsoleOptions
}

// newLines builds the tree a lines runs its lines through; env fills the headless environment.
func newLines(t *testing.T, env headless.Env) *lines {
	t.Helper()
	l := &lines{}
	simCmd := sim.NewCommand(&l.out, &l.errb)
	l.root = NewRoot(&Program{
		Stdout: &l.out, Stderr: &l.errb,
		Console: func(_ context.Context, o ConsoleOptions) error { l.console = &o; return nil },
		Sim:     Sim{Flags: simCmd.Flags, Help: sim.CommandHelp, Run: simCmd.Run},
		Env:     testEnv(t, env),
	})
	return l
}

// run runs one command line through the tree.
func (l *lines) run(args ...string) result {
	l.out.Reset()
	l.errb.Reset()
	l.console = nil
	code := headless.Execute(context.Background(), l.root, args, &l.errb)
	return result{code: code, out: l.out.String(), errOut: l.errb.String(), console: l.console}
}

// testEnv is env with what a test on loopback leaves unset filled in.
func testEnv(t *testing.T, env headless.Env) headless.Env {
	t.Helper()
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.StateDir == "" {
		env.StateDir = t.TempDir()
	}
	if env.ExpiryWindow == 0 {
		// A lost order is settled once its request has expired: a short window keeps that quick.
		env.ExpiryWindow = time.Second
	}
	if env.Skew == 0 && env.LookupGrace == 0 {
		// The simulator on loopback runs on this clock: no skew to allow for, and lookups that
		// keep failing give up soon after the expiry (the outcome unknown).
		env.Skew, env.LookupGrace = 100*time.Millisecond, 500*time.Millisecond
	}
	return env
}
