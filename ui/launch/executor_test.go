package launch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui"
)

// TestTheConsoleOpensItsJournal: a console that can trade opens the journal of its network and
// account under the state directory (the headless commands' file) with the config's guard; a
// read-only one opens none; the demo's lives in a directory removed on quit.
func TestTheConsoleOpensItsJournal(t *testing.T) {
	signer, err := api.NewRandomSigner()
	if err != nil {
		t.Fatal(err)
	}
	stateDir := t.TempDir()
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return stateDir
		}
		return ""
	}
	guard := guardWith("25000")
	settings := ui.Config{Guard: guard}
	trading := &Connection{Client: api.New("http://127.0.0.1:1/", api.WithSigner(signer)), Network: "testnet"}
	done, err := OpenExecutor(&settings, trading, getenv, nil)
	if err != nil || settings.Exec == nil {
		t.Fatalf("trading console: %v", err)
	}
	if got, want := settings.Exec.Journal().File(), journal.Path(filepath.Join(stateDir, "tradedesk"), "testnet", signer.Address()); got != want {
		t.Errorf("journal at %s, want %s", got, want)
	}
	if !settings.Exec.Guard().MaxNotional.Equal(guard.MaxNotional) {
		t.Errorf("the executor guards %s, the config says %s", settings.Exec.Guard().MaxNotional, guard.MaxNotional)
	}
	done()

	watching := &Connection{Client: api.New("http://127.0.0.1:1/", api.WithAddress(signer.Address())), Network: "testnet", ReadOnly: "watching"}
	settings = ui.Config{}
	if _, err := OpenExecutor(&settings, watching, getenv, nil); err != nil || settings.Exec != nil {
		t.Errorf("a read-only console opened a journal: %v", err)
	}

	demo, err := StartDemo(t.Context(), Demo{Seed: 3, Empty: true})
	if err != nil {
		t.Fatal(err)
	}
	defer demo.Close()
	settings = ui.Config{}
	done, err = OpenExecutor(&settings, demo, getenv, nil)
	if err != nil || settings.Exec == nil {
		t.Fatalf("demo: %v", err)
	}
	dir := filepath.Dir(filepath.Dir(settings.Exec.Journal().File()))
	done()
	if _, err := os.Stat(dir); !os.IsNotExist(err) || dir == stateDir {
		t.Errorf("the demo's journal directory %s is left after quit (%v)", dir, err)
	}
}

// guardWith is the default guard with a max notional.
func guardWith(maxNotional string) state.Guard {
	g := state.DefaultGuard()
	g.MaxNotional = decimal.RequireFromString(maxNotional)
	return g
}
