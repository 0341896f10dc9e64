package exec

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state/journal"
)

// bobKey is the key of the receiving account of the rig's transfers (a fixed test key, never a
// real one).
const bobKey = "8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63"

func bobAddr(t *testing.T) string {
	t.Helper()
	s, err := api.SignerFromHex(bobKey)
	must(t, err)
	return s.Address()
}

// usdc is the simulator's USDC collateral id.
func (r *rig) usdc() api.CollateralID {
	r.t.Helper()
	cs, err := r.client.SupportedCollateral(bg, "all")
	must(r.t, err)
	for _, c := range cs {
		if c.Symbol == "USDC" {
			return c.ID
		}
	}
	r.t.Fatal("no USDC")
	return 0
}

// transfers counts the account's transfer records of kind with amount.
func (r *rig) transfers(kind, amount string) int {
	r.t.Helper()
	recs, err := r.client.TransferHistory(bg, r.client.Address(), 0)
	must(r.t, err)
	n := 0
	for _, t := range recs {
		if t.Type == kind && t.Amount.Equal(decimal.RequireFromString(amount)) {
			n++
		}
	}
	return n
}

func (r *rig) derivTransfer(amount string) func(ctx context.Context) (api.TxResponse, error) {
	id, to := r.usdc(), bobAddr(r.t)
	return func(ctx context.Context) (api.TxResponse, error) {
		return r.client.DerivativeTransfer(ctx, id, amount, to)
	}
}

func TestDoJournalsATransferBeforeItIsSigned(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	res, err := e.Do(bg, ActTransfer, Ask{Who: journal.WhoHeadless, What: "derivative transfer 5 USDC"}, r.derivTransfer("5"))
	if err != nil || res.Kind != Done || !res.Sent || !strings.HasPrefix(res.TxHash, "0x") || res.ID == "" {
		t.Fatalf("transfer: %+v %v", res, err)
	}
	en, ok, err := r.j.Get(bg, res.ID)
	if !ok || err != nil || en.Intent.Kind != ActTransfer || en.Intent.Who != journal.WhoHeadless || en.State != journal.StateSent ||
		en.Action != api.ActionDerivativeTransfer || en.Nonce == 0 || en.ExpiresAfter != 0 || !strings.Contains(string(en.Request), `"amount":"5"`) ||
		en.Outcome == nil || en.Outcome.Kind != "done" || !en.Outcome.Settled || !strings.Contains(en.Outcome.Detail, "tx "+res.TxHash[:18]) {
		t.Fatalf("journal entry: %+v %+v %v", en, en.Outcome, err)
	}
	if n := r.transfers(api.TransferDerivative, "5"); n != 1 {
		t.Fatalf("%d transfers at the exchange", n)
	}
	// The exchange refuses more than the balance: rejected, journaled with its reason.
	res, err = e.Do(bg, ActTransfer, Ask{Who: journal.WhoHeadless, What: "too much"}, r.derivTransfer("100000000"))
	if err != nil || res.Kind != Rejected || res.Reason == "" {
		t.Fatalf("too much: %+v %v", res, err)
	}
	// The client's own refusal signs nothing: not sent, the journal says so.
	res, err = e.Do(bg, ActWithdraw, Ask{Who: journal.WhoHeadless, What: "bad chain"}, func(ctx context.Context) (api.TxResponse, error) {
		return r.client.DerivativeWithdraw(ctx, r.usdc(), "1", -1)
	})
	if err != nil || res.Kind != NotSent || res.Sent {
		t.Fatalf("refused by the client: %+v %v", res, err)
	}
	if en, _, _ := r.j.Get(bg, res.ID); en.State != journal.StateNew || en.Outcome == nil || en.Outcome.Kind != "not sent" {
		t.Fatalf("journal entry of a refused send: %+v", en)
	}
	if _, err := e.Do(bg, "teleport", Ask{Who: journal.WhoHeadless}, r.derivTransfer("1")); err == nil {
		t.Fatal("an unknown kind was taken")
	}
}

// TestDoLooksUpALostTransfer: the simulator acts on the transfer and drops the answer; the
// transfer history finds it (not the transfer of another amount just before), and it is not sent
// again.
func TestDoLooksUpALostTransfer(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	if res, err := e.Do(bg, ActTransfer, Ask{Who: journal.WhoHeadless, What: "before"}, r.derivTransfer("6")); err != nil || res.Kind != Done {
		t.Fatalf("transfer before: %+v %v", res, err)
	}
	lost, err := sim.ParseFaults("lost=1")
	must(t, err)
	send := r.derivTransfer("7")
	res, err := e.Do(bg, ActTransfer, Ask{Who: journal.WhoHeadless, What: "lost"}, func(ctx context.Context) (api.TxResponse, error) {
		must(t, r.sim.SetFaults(lost))
		defer func() { must(t, r.sim.SetFaults(sim.Faults{})) }()
		return send(ctx)
	})
	if err != nil || res.Kind != Done || !res.AnswerLost || !strings.HasPrefix(res.TxHash, "0x") || !strings.Contains(res.Reason, "transfer history") {
		t.Fatalf("a lost transfer: %+v %v", res, err)
	}
	if n := r.transfers(api.TransferDerivative, "7"); n != 1 {
		t.Fatalf("%d transfers at the exchange", n)
	}
	if en, _, _ := r.j.Get(bg, res.ID); en.Outcome == nil || !en.Outcome.Settled || en.Outcome.Kind != "done" {
		t.Fatalf("journal: %+v", en.Outcome)
	}
}

// TestDoLeavesALostUnfoundTransferUnknown: a transfer lost on its way (the exchange never saw it)
// is not found, though the history holds one of another amount and an alike one from before its
// nonce; it stays unknown, is not sent again, and does not hold back an order. Two days after its
// nonce, a Recover calls it never done.
func TestDoLeavesALostUnfoundTransferUnknown(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	for _, amt := range []string{"3", "9"} {
		if res, err := e.Do(bg, ActTransfer, Ask{Who: journal.WhoHeadless, What: "before"}, r.derivTransfer(amt)); err != nil || res.Kind != Done {
			t.Fatalf("transfer %s: %+v %v", amt, res, err)
		}
	}
	// Signed by a clock 10 s ahead: the transfer of 9 above is from before its nonce.
	signer, err := api.SignerFromHex(testKey)
	must(t, err)
	ahead := api.New(r.client.BaseURL(), api.WithSigner(signer), api.WithClock(func() time.Time { return time.Now().Add(10 * time.Second) }))
	id, to := r.usdc(), bobAddr(t)
	r.drop.before.Store(true)
	res, err := e.Do(bg, ActTransfer, Ask{Who: journal.WhoHeadless, What: "lost on its way"}, func(ctx context.Context) (api.TxResponse, error) {
		return ahead.DerivativeTransfer(ctx, id, "9", to)
	})
	if err != nil || res.Kind != Unknown || !res.AnswerLost || !strings.Contains(res.Reason, "check the account by hand") {
		t.Fatalf("a transfer lost on its way: %+v %v", res, err)
	}
	if n := r.transfers(api.TransferDerivative, "9"); n != 1 {
		t.Fatalf("%d transfers at the exchange", n)
	}
	if open, _ := r.j.Unresolved(bg); len(open) != 1 || open[0].Intent.ID != res.ID {
		t.Fatalf("unresolved: %+v", open)
	}
	// A restarted process looks it up again, finds nothing, and still sends an order.
	r.reopen()
	e = r.executor(nil)
	found, err := e.Recover(bg)
	if err != nil || len(found) != 1 || found[0].Result.Kind != Unknown {
		t.Fatalf("recover: %+v %v", found, err)
	}
	if p, err := e.Place(bg, r.bid(e, "after-1", api.TifGTC), Ask{Who: journal.WhoHeadless}); err != nil || p.Kind != Placed {
		t.Fatalf("an order after an unknown transfer: %+v %v", p, err)
	}
	// Past the nonce's window the exchange no longer takes it: never done.
	later := time.Now().Add(NonceWindow + time.Minute)
	e2, err := New(Config{Journal: r.j, Send: r.client, Read: r.client, Account: r.client.Address(), Now: func() time.Time { return later },
		LookupWait: 10 * time.Millisecond})
	must(t, err)
	found, err = e2.Recover(bg)
	if err != nil || len(found) != 1 || found[0].Result.Kind != NotSent {
		t.Fatalf("recover after the nonce window: %+v %v", found, err)
	}
	if n := r.transfers(api.TransferDerivative, "9"); n != 1 {
		t.Fatalf("%d transfers at the exchange", n)
	}
}

// TestRecoverLooksUpAnAgentLeftSent: an addAgent whose process stopped after the journal commit
// is found by a restarted process among the account's agents; its proof signature is not kept.
func TestRecoverLooksUpAnAgentLeftSent(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	must(t, e.ensureRecovered(bg))
	agent, err := api.SignerFromHex(bobKey)
	must(t, err)
	lost, err := sim.ParseFaults("lost=1")
	must(t, err)
	ctx, cancel := context.WithCancel(bg)
	// The answer is lost and the process stops before a lookup: ctx ends with the send.
	res, err := e.Do(ctx, ActAgent, Ask{Who: journal.WhoHeadless, What: "approve agent"}, func(ctx context.Context) (api.TxResponse, error) {
		must(t, r.sim.SetFaults(lost))
		defer func() { must(t, r.sim.SetFaults(sim.Faults{})) }()
		defer cancel()
		return r.client.AddAgent(ctx, agent, "desk-bot", time.Now().Add(time.Hour))
	})
	if err != nil || res.Kind != Unknown {
		t.Fatalf("an agent approval cut short: %+v %v", res, err)
	}
	en, _, _ := r.j.Get(bg, res.ID)
	if !strings.Contains(string(en.Request), `"signature":"(left out)"`) || !strings.Contains(string(en.Request), agent.Address()) {
		t.Fatalf("the journal keeps the agent's proof: %s", en.Request)
	}
	r.reopen()
	found, err := r.executor(nil).Recover(bg)
	if err != nil || len(found) != 1 || found[0].Result.Kind != Done || !strings.Contains(found[0].Result.Reason, "agents list it") {
		t.Fatalf("recover: %+v %v", found, err)
	}
}

// TestDoDoesNotGuessBetweenAlikeTransfers: a lost transfer with an alike one just before it in the
// history is not called done: which of the two is this one is not known.
func TestDoDoesNotGuessBetweenAlikeTransfers(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	if res, err := e.Do(bg, ActTransfer, Ask{Who: journal.WhoHeadless, What: "first"}, r.derivTransfer("4")); err != nil || res.Kind != Done {
		t.Fatalf("first: %+v %v", res, err)
	}
	lost, err := sim.ParseFaults("lost=1")
	must(t, err)
	send := r.derivTransfer("4")
	res, err := e.Do(bg, ActTransfer, Ask{Who: journal.WhoHeadless, What: "second, lost"}, func(ctx context.Context) (api.TxResponse, error) {
		must(t, r.sim.SetFaults(lost))
		defer func() { must(t, r.sim.SetFaults(sim.Faults{})) }()
		return send(ctx)
	})
	if err != nil || res.Kind != Unknown || !strings.Contains(res.Reason, "alike") {
		t.Fatalf("a lost transfer beside an alike one: %+v %v", res, err)
	}
	if n := r.transfers(api.TransferDerivative, "4"); n != 2 {
		t.Fatalf("%d transfers at the exchange", n)
	}
}

// TestDoLooksUpALostLeverageChange: a leverage change whose answer is lost after the exchange
// made it is settled by the leverage now in force; one lost on its way is not (and not resent).
func TestDoLooksUpALostLeverageChange(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	in, _ := r.st.Instrument("BTC-PERP")
	lost, err := sim.ParseFaults("lost=1")
	must(t, err)
	res, err := e.Do(bg, ActLeverage, Ask{Who: journal.WhoHeadless, What: "BTC-PERP 7x"}, func(ctx context.Context) (api.TxResponse, error) {
		must(t, r.sim.SetFaults(lost))
		defer func() { must(t, r.sim.SetFaults(sim.Faults{})) }()
		return r.client.UpdateLeverage(ctx, in.ID, 7)
	})
	if err != nil || res.Kind != Done || !res.AnswerLost || !strings.Contains(res.Reason, "7x now") {
		t.Fatalf("a lost leverage change: %+v %v", res, err)
	}
	r.drop.before.Store(true)
	res, err = e.Do(bg, ActLeverage, Ask{Who: journal.WhoHeadless, What: "BTC-PERP 9x"}, func(ctx context.Context) (api.TxResponse, error) {
		return r.client.UpdateLeverage(ctx, in.ID, 9)
	})
	if err != nil || res.Kind != Unknown || !strings.Contains(res.Reason, "is not 9x") {
		t.Fatalf("a leverage change lost on its way: %+v %v", res, err)
	}
	if lv, err := r.client.InstrumentLeverage(bg, "", "BTC-PERP"); err != nil || !lv.Leverage.Equal(decimal.NewFromInt(7)) {
		t.Fatalf("leverage now %s (%v)", lv.Leverage, err)
	}
}

// countingReader counts the transfer history reads of an executor.
type countingReader struct {
	*api.Client
	n int
}

func (c *countingReader) TransferHistory(ctx context.Context, user string, limit int) ([]api.TransferRecord, error) {
	c.n++
	return c.Client.TransferHistory(ctx, user, limit)
}

// TestRecoverLooksOnceAtAnUnknownTransfer: each start looks an unknown transfer up once (it may
// stay unknown for two days: the start is not held up polling for it).
func TestRecoverLooksOnceAtAnUnknownTransfer(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	r.drop.before.Store(true)
	if res, err := e.Do(bg, ActTransfer, Ask{Who: journal.WhoHeadless, What: "lost on its way"}, r.derivTransfer("9")); err != nil || res.Kind != Unknown {
		t.Fatalf("a transfer lost on its way: %+v %v", res, err)
	}
	c := &countingReader{Client: r.client}
	e2, err := New(Config{Journal: r.j, Send: r.client, Read: c, Account: r.client.Address(), LookupWait: 10 * time.Millisecond})
	must(t, err)
	if found, err := e2.Recover(bg); err != nil || len(found) != 1 || found[0].Result.Kind != Unknown || c.n != 1 {
		t.Fatalf("recover: %+v %v, %d lookups", found, err, c.n)
	}
}
