package exec

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TestCancelManyIsJournaledAndSettledByWhatIsOpen: a cancel of an instrument's orders and the
// kill switch's cancel of all are each one journaled intent; answered, they say how many went;
// lost before the exchange saw them, the open orders settle them once the request has expired
// (still open: not acted on); killed after the send, the next start finds nothing left open and
// sends nothing.
func TestCancelManyIsJournaledAndSettledByWhatIsOpen(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	place := func(cloid string) {
		t.Helper()
		if res, err := e.Place(bg, r.bid(e, cloid, api.TifGTC), Ask{Who: journal.WhoForm}); err != nil || res.Kind != Placed {
			t.Fatalf("place %s: %+v %v", cloid, res, err)
		}
	}
	place("many-1")
	place("many-2")
	in, _ := r.st.Instrument("BTC-PERP")
	res, err := e.CancelMany(bg, CancelMany{InstrumentID: in.ID}, Ask{Who: journal.WhoCommandLine, What: "cancel 2 open orders on BTC-PERP"})
	if err != nil || res.Kind != Cancelled || res.Outcome.Count != 2 || res.ID == "" {
		t.Fatalf("cancel the instrument: %+v %v", res, err)
	}
	if en, _, _ := r.j.Get(bg, res.ID); en.Intent.Kind != "cancel-instrument" || en.Intent.Who != journal.WhoCommandLine ||
		en.Action != api.ActionCancelByInstrument || en.Outcome == nil || en.Outcome.Kind != "cancelled" || !en.Outcome.Settled {
		t.Fatalf("journal: %+v %+v", en, en.Outcome)
	}

	place("many-3")
	r.drop.before.Store(true)
	res, err = e.CancelMany(bg, CancelMany{All: true}, Ask{Who: journal.WhoForm, What: "kill switch"})
	if err != nil || res.Kind != CancelFailed || !res.AnswerLost || res.Open != 1 || !strings.Contains(res.Reason, "1 order still open") {
		t.Fatalf("a kill switch that never arrived: %+v %v", res, err)
	}

	r.killedDuring(true, func(e *Executor) {
		_, _ = e.CancelMany(bg, CancelMany{All: true}, Ask{Who: journal.WhoForm, What: "kill switch"})
	})
	_, found := r.restart()
	if len(found) != 1 || found[0].Entry.Intent.Kind != "cancel-all" || found[0].Result.Kind != Cancelled || found[0].Result.Open != 0 {
		t.Fatalf("recovered: %+v", found)
	}
	if n := r.atExchange(); n["many-3"] != 1 || len(n) != 3 {
		t.Fatalf("at the exchange: %v", n)
	}
}

// TestOpenNamesTheJournalByNetworkAndAccount: Open keeps the journal under the state directory,
// one file per network and account, and refuses without a directory.
func TestOpenNamesTheJournalByNetworkAndAccount(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	dir := t.TempDir()
	e, found, err := OpenRecovered(bg, Setup{Dir: dir, Network: "testnet", Config: Config{Send: r.client, Read: r.client, Account: r.client.Address()}})
	if err != nil || len(found) != 0 {
		t.Fatalf("open: %v %v", found, err)
	}
	if got, want := e.Journal().File(), journal.Path(dir, "testnet", r.client.Address()); got != want {
		t.Errorf("journal at %s, want %s", got, want)
	}
	must(t, e.Close())
	if _, err := Open(Setup{Network: "testnet", Config: Config{Send: r.client, Read: r.client, Account: r.client.Address()}}); err == nil || !strings.Contains(err.Error(), "XDG_STATE_HOME") {
		t.Errorf("no directory: %v", err)
	}
}
