package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/transfer"
)

// bobAddr is a second account's address (EIP-55), typed in lower case into the form.
const bobAddr = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"

func (c *simConsole) summary(t *testing.T, user string) api.AccountSummary {
	t.Helper()
	s, err := c.m.ex.AccountSummary(context.Background(), user)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fundsGroup finds the Funds group and its transfer form.
func fundsGroup(t *testing.T, m *Model) (*common.Group, *transfer.Pane) {
	t.Helper()
	for _, s := range m.slots {
		if g, ok := s.pane.(*common.Group); ok && g.Name() == "Funds" {
			for _, p := range g.Panes() {
				if tp, ok := p.(*transfer.Pane); ok {
					return g, tp
				}
			}
		}
	}
	t.Fatal("no Funds group with a transfer form")
	return nil, nil
}

// TestWithdrawAndTransferThroughTheUI withdraws and transfers by keyboard against the simulator
// over HTTP: each is checked, confirmed with the address in full and the fee, sent once, and the
// balances move by the amount and its fee.
func TestWithdrawAndTransferThroughTheUI(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	me := c.m.ex.Address()
	before := c.summary(t, me)
	g, form := fundsGroup(t, c.m)

	// 8 focuses the Funds group; w opens the form on a spot withdrawal (as the CLI's withdraw
	// without --from), on the amount.
	c.key(t, "8", "w")
	if g.Active() != form || form.Op() != funds.SpotWithdraw || form.Field() != transfer.FieldAmount {
		t.Fatalf("w did not open the withdrawal form: view %q op %s field %d", g.Active().Title(), form.Op(), form.Field())
	}
	c.typeText(t, "2500")
	c.key(t, "down", "right") // the chain: Ethereum -> Arbitrum
	if form.Chain() != 42161 {
		t.Fatalf("chain %d after right", form.Chain())
	}
	c.key(t, "enter")
	v := c.m.View()
	for _, want := range []string{"Spot withdrawal: 2,500.00 USDC", "to your address", "  " + me, "on Arbitrum (42161)",
		"fee 1.00 USDC on top: 2,501.00 USDC leaves, 2,500.00 USDC arrives", "Enter to confirm"} {
		if !strings.Contains(v, want) {
			t.Errorf("confirmation lacks %q:\n%s", want, v)
		}
	}
	c.key(t, "enter")
	if !strings.Contains(c.m.shownNotice(), "spot withdrawal of 2500 USDC done: tx 0x") {
		t.Fatalf("status after the withdrawal: %q", c.m.shownNotice())
	}
	after := c.summary(t, me)
	if got, want := after.SpotCollateral["USDC"].Balance, before.SpotCollateral["USDC"].Balance.Sub(d("2501")); !got.Equal(want) {
		t.Fatalf("spot USDC %s, want %s", got, want)
	}
	if !after.Collateral["USDC"].Balance.Equal(before.Collateral["USDC"].Balance) {
		t.Errorf("a spot withdrawal moved the derivative balance: %s, was %s", after.Collateral["USDC"].Balance, before.Collateral["USDC"].Balance)
	}
	if !c.m.store.Account().SpotCollateral["USDC"].Balance.Equal(after.SpotCollateral["USDC"].Balance) {
		t.Errorf("the console's balances were not refreshed after the withdrawal")
	}

	// Back to the movement field; right twice: spot transfer to another account.
	for form.Field() != transfer.FieldOp {
		c.key(t, "up")
	}
	c.key(t, "right", "right") // the derivative withdrawal, then it wraps from the last movement to the first
	if form.Op() != funds.SpotTransfer {
		t.Fatalf("op %s", form.Op())
	}
	c.key(t, "down", "down") // collateral, amount
	c.typeText(t, "150.25")
	if form.Amount() != "150.25" || form.Field() != transfer.FieldAmount {
		t.Fatalf("amount %q in field %d", form.Amount(), form.Field())
	}
	c.key(t, "down")
	c.typeText(t, "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeX")
	if len(form.Errors()) != 1 || form.Errors()[0].Msg != "address has 'X' at position 42, which is not a hex digit (0-9, a-f)" ||
		!strings.Contains(c.m.View(), "! address has 'X' at position 42") {
		t.Errorf("a bad address shows no error: %v", form.Errors())
	}
	c.key(t, "backspace")
	c.typeText(t, "d")
	c.key(t, "enter")
	if v := c.m.View(); !strings.Contains(v, "  "+bobAddr) || !strings.Contains(v, "Spot transfer: 150.25 USDC") {
		t.Fatalf("the confirmation does not show the full checksummed address:\n%s", v)
	}
	send := confirmOpenDialog(t, c.m)
	_, again := c.m.Update(keyMsg("enter")) // a second Enter while it is sent does nothing
	if !form.Sending() || again == nil {
		t.Fatalf("sending %v after two Enters; the second said nothing", form.Sending())
	}
	if msg, ok := again().(common.NoticeMsg); !ok || !strings.Contains(msg.Text, "in flight") {
		t.Fatalf("a second Enter while the transfer is out answered %#v", msg)
	}
	pump(t, c.m, send)
	if !strings.Contains(c.m.shownNotice(), "spot transfer of 150.25 USDC done: tx 0x") {
		t.Fatalf("status after the transfer: %q", c.m.shownNotice())
	}
	bob := c.summary(t, bobAddr)
	mine := c.summary(t, me)
	// bob was never funded: the transfer opens his account with exactly what it credits.
	if !bob.SpotCollateral["USDC"].Balance.Equal(d("150.25")) {
		t.Errorf("bob's spot USDC %s, want 150.25 (once)", bob.SpotCollateral["USDC"].Balance)
	}
	if got, want := mine.SpotCollateral["USDC"].Balance, after.SpotCollateral["USDC"].Balance.Sub(d("150.25")); !got.Equal(want) {
		t.Errorf("my spot USDC %s, want %s", got, want)
	}
}

// TestTransferFormRefusesBadInput shows each problem next to its field and sends nothing.
func TestTransferFormRefusesBadInput(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	_, form := fundsGroup(t, c.m)
	c.key(t, "8", "w")
	c.typeText(t, "1.1234567")
	if len(form.Errors()) != 1 || form.Errors()[0].Suggest != "1.123456" || !strings.Contains(c.m.View(), "! USDC takes at most 6 decimals:") {
		t.Errorf("no decimals error: %v", form.Errors())
	}
	for range 9 {
		c.key(t, "backspace")
	}
	c.typeText(t, "999999999")
	c.key(t, "enter")
	if form.Pending() != nil || c.m.confirmation() != nil || !strings.Contains(c.m.shownNotice(), "not ready: 999,999,999.00 USDC plus the 1.00 USDC fee is more than") {
		t.Fatalf("asked to send %v, notice %q", form.Pending() != nil, c.m.shownNotice())
	}
	// The disabled chain of USDC (BNB Chain) is refused.
	form.Focus(transfer.FieldChain)
	for i := 0; form.Chain() != 56; i++ {
		if i == 10 {
			t.Fatalf("right never reached BNB Chain: chain %d", form.Chain())
		}
		c.key(t, "right")
	}
	if v := c.m.View(); !strings.Contains(v, "! withdrawals of USDC to BNB Chain (56) are") {
		t.Errorf("no disabled chain error:\n%s", v)
	}
}

// TestTransferReadOnly says why nothing can be sent.
func TestTransferReadOnly(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, true)
	pump(t, c.m, c.m.Init())
	_, form := fundsGroup(t, c.m)
	c.key(t, "8", "t") // refused at the key, as with an agent key (TestAgentRefusedAtTheFirstKey)
	if form.InForm() || !strings.Contains(c.m.shownNotice(), "read-only: cannot move collateral") {
		t.Fatalf("t read-only: in the form %v, notice %q", form.InForm(), c.m.shownNotice())
	}
	c.key(t, "]", "down") // paged to and entered: Enter says the same
	c.typeText(t, "10")
	c.key(t, "enter")
	if form.Pending() != nil || c.m.confirmation() != nil || !strings.Contains(c.m.shownNotice(), "read-only: cannot move collateral") {
		t.Fatalf("asked to send %v, notice %q", form.Pending() != nil, c.m.shownNotice())
	}
}

// TestQuitWithAWithdrawalOutAsksTwice: a withdrawal out counts as an action out, as an order does
// (q quit at once when transfers ran their own stage machine). Tab moves the focus off the form,
// so q reaches the quit key and not the amount field.
func TestQuitWithAWithdrawalOutAsksTwice(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.key(t, "8", "w")
	c.typeText(t, "10")
	c.key(t, "enter")
	send := confirmOpenDialog(t, c.m)
	if c.m.pipe.open != 1 || !c.m.pipe.busy(action.LaneFunds) {
		t.Fatalf("the withdrawal was not sent: %d actions out, notice %q", c.m.pipe.open, c.m.shownNotice())
	}
	c.m.Update(keyMsg("tab")) // not c.key: its pump would wait for the withdrawal
	quitTwice(t, c.m)
	pump(t, c.m, send)
	if c.m.pipe.open != 0 || c.m.pipe.busy(action.LaneFunds) {
		t.Fatalf("the withdrawal is still out after its answer: %d", c.m.pipe.open)
	}
}

// TestSecondMovementWaitsForTheFirst: while one movement is out, Enter on the form sends nothing
// and says why; the first movement's result still reaches the form.
func TestSecondMovementWaitsForTheFirst(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	_, form := fundsGroup(t, c.m)
	c.key(t, "8", "w")
	c.typeText(t, "10")
	c.key(t, "enter")
	send := confirmOpenDialog(t, c.m)
	first := form.Pending()
	_, again := c.m.Update(keyMsg("enter")) // the form again, while the first is out
	c.m.Update(again())
	if c.m.confirmation() != nil || form.Pending() != first || !strings.Contains(c.m.shownNotice(), "in flight") {
		t.Fatalf("a second movement was asked for while one was out: dialog %v, notice %q", c.m.confirmation() != nil, c.m.shownNotice())
	}
	pump(t, c.m, send)
	if form.Pending() != nil || !strings.Contains(form.Result(), "spot withdrawal of 10 USDC done: tx 0x") {
		t.Fatalf("the form shows %q after the first movement", form.Result())
	}
}

// t and w work in every view of the Funds group: from the Transfer view (outside its form and on
// its amount) and from the Brokers view, as from the balances; a withdrawal opened after a
// transfer's amount was typed starts empty. Guards keys that only the balances view knows, and
// the transfer's amount carried into the withdrawal form (#13 QA).
func TestFundsKeysInEveryView(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	g, form := fundsGroup(t, c.m)
	c.key(t, "8", "t")
	c.typeText(t, "10")
	if g.Active() != form || form.Op() != funds.ToDerivative || form.Amount() != "10" {
		t.Fatalf("t: view %q op %s amount %q", g.Active().Title(), form.Op(), form.Amount())
	}
	c.key(t, "w") // on the amount, which takes no letter
	if form.Op() != funds.SpotWithdraw || form.Amount() != "" || form.Field() != transfer.FieldAmount {
		t.Fatalf("w on the transfer's amount: op %s amount %q field %d", form.Op(), form.Amount(), form.Field())
	}
	c.key(t, "esc", "t") // outside the form
	if form.Op() != funds.ToDerivative || form.Field() != transfer.FieldAmount {
		t.Fatalf("t outside the form: op %s field %d", form.Op(), form.Field())
	}
	c.key(t, "esc")
	brokersView(t, c)
	c.key(t, "w")
	if g.Active() != form || form.Op() != funds.SpotWithdraw {
		t.Fatalf("w in the Brokers view: view %q op %s", g.Active().Title(), form.Op())
	}
}
