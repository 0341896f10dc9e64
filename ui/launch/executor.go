package launch

import (
	"fmt"
	"os"

	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// OpenExecutor opens the journal of the console's network and account and the executor every
// order and cancel goes through (exec.Open, as the headless commands do), with the config's guard;
// the console runs its Recover at start. Every order it sends passes the [risk] limits. A
// read-only console opens none. The demo's exchange lives only as long as the process, so its
// journal lives in a directory removed on quit.
func OpenExecutor(settings *ui.Config, conn *Connection, getenv func(string) string, limits risk.Limits) (closeExec func(), err error) {
	if conn.ReadOnly != "" || !conn.Client.CanTrade() {
		return func() {}, nil
	}
	dir, drop := headless.StateDir(&headless.Env{Getenv: getenv}), func() {}
	if conn.Sim != nil {
		if dir, err = os.MkdirTemp("", "tradedesk-demo-journal-"); err != nil {
			return nil, fmt.Errorf("demo journal: %w", err)
		}
		drop = func() { _ = os.RemoveAll(dir) }
	}
	guard := settings.Guard
	if guard == (state.Guard{}) {
		guard = state.DefaultGuard()
	}
	e, err := exec.Open(exec.Setup{Dir: dir, Network: conn.Network, Profile: settings.Profile, Config: exec.Config{Send: conn.Client, Read: conn.Client,
		Account: conn.Client.Address(), Guard: &guard, SendTimeout: settings.Intervals.WithDefaults().Timeout, Limits: limits}})
	if err != nil {
		drop()
		return nil, fmt.Errorf("the journal: %w", err)
	}
	settings.Exec = e
	return func() { _ = e.Close(); drop() }, nil
}
