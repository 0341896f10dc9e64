package transfer

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// newForm is the form of an account holding 1,000 derivative USDC, over a client that never
// reaches a server (these tests only build actions; the console's tests send them).
func newForm(t *testing.T) *Pane {
	t.Helper()
	signer, err := api.NewRandomSigner()
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return t0 }
	store := state.New(clock)
	store.Apply(state.CollateralMsg{Gen: 1, At: t0, Collateral: []api.Collateral{{ID: 1, Symbol: "USDC", Decimals: 6,
		WithdrawalFee: d("1"), TransferNotionalFee: d("0"), DefaultCollWeight: d("1"),
		BridgeByChain: []api.Bridge{{BridgeChainID: 42161, Enabled: true}}}}})
	store.Apply(state.AccountMsg{Gen: 1, At: t0, Summary: api.AccountSummary{
		Collateral: map[string]api.CollateralBalance{"USDC": {Balance: d("1000"), WithdrawableBalance: d("1000")}}}})
	p := New(commontest.NewCommon(t, store, clock), api.New("http://127.0.0.1:1/", api.WithSigner(signer)))
	p.SetSize(80, 20)
	p.SetFocused(true)
	p.Update(common.DataMsg{Kind: state.KindCollateral})
	return p
}

func typeText(p *Pane, s string) {
	for _, r := range s {
		p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func enter(p *Pane) tea.Msg {
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		return nil
	}
	return cmd()
}

func TestOpenShowsTheFormOnTheAmount(t *testing.T) {
	p := newForm(t)
	cmd := p.Update(OpenMsg{Op: funds.DerivativeWithdraw})
	if p.Op() != funds.DerivativeWithdraw || p.Field() != FieldAmount {
		t.Fatalf("op %s field %d after OpenMsg", p.Op(), p.Field())
	}
	if msg, ok := cmd().(common.FocusPaneMsg); !ok || msg.Pane != p {
		t.Fatalf("OpenMsg asked for %#v, want the focus", msg)
	}
}

// TestOverdrawnAmountAsksForNothing: the amount plus its fee is more than the account holds, so
// Enter says why and asks the pipeline for nothing.
func TestOverdrawnAmountAsksForNothing(t *testing.T) {
	p := newForm(t)
	p.Update(OpenMsg{Op: funds.DerivativeWithdraw})
	typeText(p, "1000")
	msg, ok := enter(p).(common.NoticeMsg)
	if !ok || !strings.Contains(msg.Text, "not ready: 1,000.00 USDC plus the 1.00 USDC fee") || p.Pending() != nil {
		t.Fatalf("Enter on an overdrawn withdrawal answered %#v (pending %v)", msg, p.Pending() != nil)
	}
}

// TestAWithdrawalIsOneConfirmedActionAndItsResultShows: Enter asks the pipeline for one confirmed
// money-lane action whose confirmation names the fee; its settlement (and only its own) shows in
// the form and clears the amount.
func TestAWithdrawalIsOneConfirmedActionAndItsResultShows(t *testing.T) {
	p := newForm(t)
	p.Update(OpenMsg{Op: funds.DerivativeWithdraw})
	typeText(p, "250")
	req, ok := enter(p).(action.RequestMsg)
	if !ok {
		t.Fatal("Enter on a valid withdrawal asked the pipeline for nothing")
	}
	a := req.Act
	if a != p.Pending() || a.Kind != action.KindTransfer || a.Lane != action.LaneFunds || !a.Confirm {
		t.Fatalf("asked for %+v", a)
	}
	if body := strings.Join(a.Lines, "\n"); !strings.Contains(body, "fee 1.00 USDC on top: 251.00 USDC leaves, 250.00 USDC arrives") {
		t.Errorf("the confirmation does not name the fee:\n%s", body)
	}
	p.Update(action.SentMsg{Act: a})
	if !p.Sending() || !strings.Contains(p.View(), "sending…") {
		t.Errorf("a sent withdrawal is not shown as sending:\n%s", p.View())
	}
	p.Update(action.SettledMsg{Act: &action.Action{}, Text: "someone else's result"})
	if p.Result() != "" || !p.Sending() {
		t.Fatalf("another action's result reached the form: %q", p.Result())
	}
	p.Update(action.SettledMsg{Act: a, Text: "derivative withdrawal of 250 USDC done: tx 0xabc"})
	if p.Pending() != nil || p.Sending() || p.Amount() != "" || !strings.Contains(p.View(), "done: tx 0xabc") {
		t.Fatalf("after the result: pending %v sending %v amount %q\n%s", p.Pending() != nil, p.Sending(), p.Amount(), p.View())
	}
}

// TestAFailedMovementKeepsTheAmount: after a failure the trader can fix and resend without typing
// the amount again.
func TestAFailedMovementKeepsTheAmount(t *testing.T) {
	p := newForm(t)
	p.Update(OpenMsg{Op: funds.DerivativeWithdraw})
	typeText(p, "250")
	a := enter(p).(action.RequestMsg).Act
	p.Update(action.SettledMsg{Act: a, Text: "derivative withdrawal of 250 USDC failed: bridge paused", Failed: true})
	if p.Amount() != "250" || !strings.Contains(p.View(), "bridge paused") {
		t.Fatalf("after a failure the amount is %q:\n%s", p.Amount(), p.View())
	}
}

// TestAmountTakesNumbersAndEscLeaves (#24 case 5): keys that are not part of a number ([, w) are
// not typed into the amount, and Esc leaves the field (mutation: drop the amountKey check, or the
// Esc case, and this fails).
func TestAmountTakesNumbersAndEscLeaves(t *testing.T) {
	p := newForm(t)
	p.Update(OpenMsg{Op: funds.DerivativeWithdraw})
	typeText(p, "1[2w.5")
	if got := p.amount.Value(); got != "12.5" {
		t.Errorf("amount %q after typing 1[2w.5, want 12.5", got)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if p.Capturing() || p.field != FieldSubmit {
		t.Errorf("after Esc: field %d, capturing %v", p.field, p.Capturing())
	}
}

// Each movement's form starts with its own amount: a withdrawal opened after 10 was typed into a
// transfer starts empty; opening the same movement again keeps what was typed. Guards the amount
// carried from one movement's form to another's.
func TestEachMovementStartsWithItsOwnAmount(t *testing.T) {
	p := newForm(t)
	p.Update(OpenMsg{Op: funds.ToDerivative})
	typeText(p, "10")
	p.Update(OpenMsg{Op: funds.ToDerivative})
	if p.Amount() != "10" {
		t.Fatalf("reopening the same movement lost its amount: %q", p.Amount())
	}
	p.Update(OpenMsg{Op: funds.SpotWithdraw})
	if p.Op() != funds.SpotWithdraw || p.Amount() != "" {
		t.Fatalf("the withdrawal form opened on %s with the transfer's amount %q", p.Op(), p.Amount())
	}
	for _, e := range p.Errors() {
		if p.showError(FieldAmount, e) {
			t.Errorf("an untouched withdrawal shows an amount error: %s", e.Msg)
		}
	}
}

// t and w open a transfer or a withdrawal from the Transfer view as from the balances: outside
// the form and on its fields that take no letter (the amount), but an address being typed takes
// them as letters. Guards keys that only the balances view knows.
func TestTransferAndWithdrawKeysInTheForm(t *testing.T) {
	p := newForm(t)
	opens := func(key string) (funds.Op, bool) {
		cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(key)})
		if cmd == nil {
			return 0, false
		}
		m, ok := cmd().(OpenMsg)
		return m.Op, ok
	}
	if op, ok := opens("w"); !ok || op != funds.SpotWithdraw {
		t.Fatalf("w outside the form opened %v (%v), want a spot withdrawal", op, ok)
	}
	p.Update(OpenMsg{Op: funds.SpotWithdraw})
	if op, ok := opens("t"); !ok || op != funds.ToDerivative {
		t.Fatalf("t on the amount opened %v (%v), want a move to the derivative side", op, ok)
	}
	p.Update(OpenMsg{Op: funds.SpotTransfer})
	p.Focus(FieldDestination)
	if _, ok := opens("w"); ok {
		t.Fatal("w typed into the destination address opened a withdrawal")
	}
	if p.dest.Value() != "w" {
		t.Errorf("the address reads %q, want the w typed", p.dest.Value())
	}
}
