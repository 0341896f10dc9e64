package headless

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/guard"
)

func guardClientFlags(fs *flagSet, o *opts) {
	fs.StringVar(&o.conn.Address, "account", "", "the account `0x...` whose guard to ask (default: the only guard running)")
}

func init() {
	for _, c := range []struct{ name, summary string }{
		{"status", "Say what the running guard does: its algorithms, alerts, dead-man's switch (time left) and attached consoles; --json for the protocol's status object."},
		{"heartbeat", "Send the running guard a heartbeat: its dead-man's switch waits its span again."},
		{"stop", "Stop the running guard as SIGTERM does: the step in flight finishes, its algorithms stay resumable."},
	} {
		name := c.name
		register(&command{name: "guard " + name, groups: gJSON, local: true, flags: guardClientFlags, summary: c.summary,
			usage: "[--account 0xACCOUNT] [--json]",
			run:   func(ctx context.Context, r *runner) error { return runGuardClient(ctx, r, name) }})
	}
}

// runGuardClient sends one request to the account's guard and prints its answer.
func runGuardClient(ctx context.Context, r *runner, cmd string) error {
	path, err := r.findGuard()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	resp, err := guard.Call(ctx, path, cmd)
	if err != nil {
		return withExit(ExitUnavailable, err)
	}
	if r.o.json {
		r.jsonDone = true
		if resp.Status != nil {
			return writeJSON(r.env.Stdout, resp.Status)
		}
		return writeJSON(r.env.Stdout, resp)
	}
	switch cmd {
	case guard.CmdStop:
		_, err = fmt.Fprintln(r.env.Stdout, "guard stopping: the step in flight finishes, its algorithms stay resumable")
	case guard.CmdHeartbeat:
		_, err = fmt.Fprintln(r.env.Stdout, "heartbeat sent; "+deadManWords(resp.Status.DeadMan))
	default:
		err = writeGuardStatus(r, *resp.Status)
	}
	return err
}

// findGuard is the socket of --account's guard, or, without --account, of the only guard
// running.
func (r *runner) findGuard() (string, error) {
	dir := guard.SocketDir(r.env.Getenv("XDG_RUNTIME_DIR"), StateDir(&r.env))
	if a := r.o.conn.Address; a != "" {
		if !hexAddress.MatchString(a) {
			return "", usagef("--account %s: give the account's 0x address (40 hex digits)", text.Quote(a))
		}
		return guard.SocketPath(dir, a), nil
	}
	socks, _ := filepath.Glob(filepath.Join(dir, "guard-*.sock"))
	switch len(socks) {
	case 0:
		return "", withExit(ExitUnavailable, fmt.Errorf("no guard is running (no socket in %s): start one with tradedesk guard", dir))
	case 1:
		return socks[0], nil
	}
	return "", usagef("%d guards are running: give --account 0xACCOUNT to name one", len(socks))
}

var hexAddress = regexp.MustCompile(`^0[xX][0-9a-fA-F]{40}$`)

// deadManWords is the switch's state in words.
func deadManWords(d guard.DeadManState) string {
	switch {
	case d.Fired != nil:
		return fmt.Sprintf("dead-man fired at %s (arm it again by restarting the guard)", d.Fired.Local().Format(time.DateTime))
	case d.Armed:
		return fmt.Sprintf("dead-man armed: %s, %s left", time.Duration(d.After*float64(time.Second)), time.Duration(d.Left*float64(time.Second)).Round(time.Second))
	}
	return "dead-man off"
}

// writeGuardStatus prints the status in words.
func writeGuardStatus(r *runner, st guard.Status) error {
	var b strings.Builder
	fmt.Fprintf(&b, "guard for %s on %s, pid %d, up since %s\n", text.Clean(st.Account), text.Clean(st.Network), st.PID, st.Started.Local().Format(time.DateTime))
	fmt.Fprintln(&b, deadManWords(st.DeadMan))
	if st.Exchange.LostSince != nil {
		fmt.Fprintf(&b, "exchange: not answering since %s\n", st.Exchange.LostSince.Local().Format(time.DateTime))
	}
	fmt.Fprintf(&b, "consoles attached: %d\n", len(st.Consoles))
	for _, c := range st.Consoles {
		fmt.Fprintf(&b, "  console pid %d since %s, last heartbeat %s\n", c.PID, c.Since.Local().Format(time.DateTime), c.LastHeartbeat.Local().Format(time.TimeOnly))
	}
	if len(st.Algorithms) == 0 {
		fmt.Fprintln(&b, "algorithms: none")
	}
	for _, a := range st.Algorithms {
		fmt.Fprintf(&b, "%s %s %s %s: filled %s of %s, %s\n", a.Kind, text.Clean(a.ID), a.Side, text.Clean(a.Instrument), a.Filled, a.Target, text.Clean(a.State))
	}
	if len(st.Alerts) == 0 {
		fmt.Fprintln(&b, "alerts: none")
	}
	for _, a := range st.Alerts {
		fmt.Fprintf(&b, "alert %s: %s\n", text.Clean(a.ID), text.Clean(a.Rule))
	}
	_, err := fmt.Fprint(r.env.Stdout, b.String())
	return err
}

// handToGuard hands an algorithm (kind, its parameters) to the account's running guard and
// prints its id at once: the algorithm runs in the guard (tradedesk guard status follows it).
func (r *runner) handToGuard(ctx context.Context, kind string, params any) error {
	path := guard.SocketPath(guard.SocketDir(r.env.Getenv("XDG_RUNTIME_DIR"), StateDir(&r.env)), r.client.Address())
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	c, err := guard.Dial(ctx, path)
	if err != nil {
		return withExit(ExitUnavailable, err)
	}
	defer c.Close()
	id, err := c.Start(ctx, kind, params)
	if err != nil {
		return withExit(ExitRefused, fmt.Errorf("the guard: %w", err))
	}
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, map[string]string{"id": id, "kind": kind, "runs_in": "guard"})
	}
	_, err = fmt.Fprintf(r.env.Stdout, "%s %s handed to the guard: tradedesk guard status follows it\n", kind, text.Clean(id))
	return err
}
