package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/balances"
	"github.com/tradedesk/tradedesk/ui/components/brokers"
	"github.com/tradedesk/tradedesk/ui/components/instrument"
	"github.com/tradedesk/tradedesk/ui/components/transfer"
)

func testCollateral() []api.Collateral {
	return []api.Collateral{
		{ID: 1, Symbol: "USDC", Name: "USD Coin", Decimals: 6, DefaultCollWeight: d("1"), WithdrawalFee: d("1"),
			TransferNotionalFee: d("0"), CollRisk: api.CollateralRisk{Enabled: true, MaxMarginCap: d("1000000000"),
				WeightTiers: []api.WeightTier{{Amount: d("0"), Weight: d("1")}, {Amount: d("1000000"), Weight: d("0.9")}}},
			BridgeByChain: []api.Bridge{{BridgeChainID: 42161, Enabled: true}, {BridgeChainID: 56, Enabled: false}}},
		{ID: 3, Symbol: "WETH", Name: "Wrapped Ether", Decimals: 18, DefaultCollWeight: d("0.9"), WithdrawalFee: d("0.0005"),
			TransferNotionalFee: d("0.0005"), CollRisk: api.CollateralRisk{Enabled: false}},
	}
}

func TestBalancesView(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	p := balances.New(c, true)
	p.SetSize(110, 30)
	p.Update(common.StartPanesMsg{})
	if v := p.View(); !strings.Contains(v, "loading account") || !strings.Contains(v, "loading collateral") {
		t.Fatalf("before data:\n%s", v)
	}
	c.Store.Apply(state.CollateralMsg{Gen: 1, At: paneNow, Collateral: testCollateral()})
	c.Store.Apply(state.AccountMsg{Gen: 1, At: paneNow, Summary: api.AccountSummary{
		SpotCollateral: map[string]api.CollateralBalance{"USDC": {Balance: d("1234.5"), WithdrawableBalance: d("1000")},
			"WETH": {Balance: d("0.123456789012345678"), WithdrawableBalance: d("0.1")}},
		Collateral:       map[string]api.CollateralBalance{"USDC": {Balance: d("99000"), WithdrawableBalance: d("95000.25")}},
		VaultBalances:    map[string]api.VaultBalance{"0x00000000000000000000000000000000000000bb": {Amount: d("500"), TotalShares: d("10"), WithdrawableShares: d("4")}},
		StakedCollateral: d("250"),
	}})
	p.Update(common.DataMsg{Kind: state.KindAccount})
	v := p.View()
	for _, want := range []string{
		"1,234.50", "1,000.00", "0.12345679", "95,000.25", "amount 500.00  shares 4 of 10 withdrawable",
		"Staked      250.00", "USDC USD Coin · 6 decimals · weight 1", "weights ≥0 ×1, ≥1.00M ×0.9 · cap 1.00B",
		"withdrawal 1.00 USDC", "transfer 0.050% of amount", "chains: Arbitrum (42161)   ", "disabled chains: BNB Chain (56)",
		"not counted as margin", "chains: none", "weights: none published",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("balances lack %q:\n%s", want, v)
		}
	}
	checkBlock(t, v, 110, 30)
	// QA 10: at the Funds pane's 120x40 width (44) the balance columns fit their figures, none cut.
	p.SetSize(44, 30)
	if v := p.View(); !strings.Contains(v, "95,000.25") || !strings.Contains(v, "0.12345679") {
		t.Errorf("a balance is cut at 44 columns:\n%s", v)
	}
	// #13 QA: the keys' hint goes under the header at 44 columns, not cut ("(t transfer · w withd…").
	if v := p.View(); !strings.Contains(v, "(t transfer · w withdraw)") {
		t.Errorf("the keys' hint is cut at 44 columns:\n%s", v)
	}

	// t and w open the transfer form.
	if msg := p.Update(keyMsg("w"))(); msg != (transfer.OpenMsg{Op: funds.SpotWithdraw}) {
		t.Errorf("w sent %#v", msg)
	}
	if msg := p.Update(keyMsg("t"))(); msg != (transfer.OpenMsg{Op: funds.ToDerivative}) {
		t.Errorf("t sent %#v", msg)
	}

	// A failed account poll keeps the balances and says they are stale.
	c.Store.Apply(state.FailedMsg{Gen: 2, At: paneNow, Of: state.KindAccount, Err: errors.New("timeout")})
	p.Update(common.DataMsg{Kind: state.KindAccount})
	if v := p.View(); !strings.Contains(v, "stale 0s: timeout (retrying)") || !strings.Contains(v, "95,000.25") {
		t.Errorf("after a failure:\n%s", v)
	}
}

func TestBalancesNoAccount(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	p := balances.New(c, false)
	p.SetSize(80, 6)
	p.Update(common.StartPanesMsg{})
	if v := p.View(); !strings.Contains(v, "no account: start with --address") {
		t.Fatalf("view:\n%s", v)
	}
}

// leverageEx answers instrument_leverage and brokers_check.
type leverageEx struct {
	fakeEx
	fail    error
	brokers []api.BrokerApproval
}

func (l *leverageEx) InstrumentLeverage(_ context.Context, _, symbol string) (api.InstrumentLeverage, error) {
	if l.fail != nil {
		return api.InstrumentLeverage{}, l.fail
	}
	return api.InstrumentLeverage{Instrument: symbol, MarginType: "cross", Leverage: d("20"),
		UpdatedAt: api.Time{Time: paneNow}}, nil
}

func (l *leverageEx) BrokersCheck(_ context.Context, _, _ string, p api.PageParams) (api.Page[api.BrokerApproval], error) {
	if l.fail != nil {
		return api.Page[api.BrokerApproval]{}, l.fail
	}
	return pageOf(l.brokers, api.PageParams{Page: p.Page, Limit: 2}), nil
}

func TestInstrumentView(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	c.Store.Apply(state.InstrumentsMsg{Gen: 2, At: paneNow, Instruments: api.Instruments{Perps: []api.PerpInstrument{
		{ID: 1, Name: "BTC-PERP", PriceIndex: "BTCUSD", TickSize: d("0.1"), LotSize: d("0.001"), MaxLeverage: d("50"),
			MinNotionalUSD: d("10"), ListedAt: api.Time{Time: paneNow.AddDate(-1, 0, 0)},
			MarginTiers: []api.MarginTier{{NotionalUSDThreshold: d("0"), MaxLeverage: d("50"), MMR: d("0.01"), MMD: d("0")},
				{NotionalUSDThreshold: d("5000000"), MaxLeverage: d("20"), MMR: d("0.025"), MMD: d("75000")}}},
		{ID: 9, Name: "LUNA-PERP", TickSize: d("0.0001"), LotSize: d("1"), MaxLeverage: d("3"), OnlyIsolated: true, Delisted: true},
	}}})
	p := instrument.New(c, &leverageEx{})
	p.SetSize(90, 14)
	deliver(t, c, p, p.Update(common.StartPanesMsg{}))
	v := p.View()
	for _, want := range []string{"BTC-PERP  perpetual · id 1 · index BTCUSD", "Tick size     0.1", "Lot size      0.001",
		"Min notional  10 USD", "Max leverage  50x", "Only isolated no", "Listed        2025-03-02 09:00 UTC",
		"Your leverage 20x cross", "5,000,000", "2.50%", "75,000"} {
		if !strings.Contains(v, want) {
			t.Errorf("instrument view lacks %q:\n%s", want, v)
		}
	}
	c.SetInstrument("LUNA-PERP")
	deliver(t, c, p, p.Update(common.DataMsg{Kind: state.KindTickers}))
	if v := p.View(); !strings.Contains(v, "DELISTED: no new orders") || !strings.Contains(v, "Only isolated yes") {
		t.Errorf("delisted view:\n%s", v)
	}

	c2 := paneCommon(t)
	q := instrument.New(c2, &leverageEx{fail: errors.New("unknown method")})
	q.SetSize(90, 14)
	deliver(t, c2, q, q.Update(common.StartPanesMsg{}))
	if v := q.View(); !strings.Contains(v, "Your leverage failed: unknown method (retrying)") {
		t.Errorf("failed leverage:\n%s", v)
	}
}

func TestBrokersView(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	ex := &leverageEx{brokers: []api.BrokerApproval{
		{Broker: "0x7D2B6A4b38bFe8f3bf4A1ec0F2A3E5DA1c9b4e10", MaxFeeRate: d("0.001"), UpdatedAt: api.Time{Time: paneNow}},
		{Broker: "0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD", MaxFeeRate: d("0.0005")},
		{Broker: "0xa1B2c3d4E5f60718293a4B5C6d7E8F9012345678", MaxFeeRate: d("0.0025")},
	}}
	p := brokers.New(c, ex)
	p.SetSize(90, 8)
	deliver(t, c, p, p.Update(common.StartPanesMsg{}))
	v := p.View()
	for _, want := range []string{"0x7D2B6A4b38bFe8f3bf4A1ec0F2A3E5DA1c9b4e10", "0.1000%", "2026-03-02 09:00",
		"0xa1B2c3d4E5f60718293a4B5C6d7E8F9012345678", "0.2500%"} { // the third is on page 2
		if !strings.Contains(v, want) {
			t.Errorf("brokers view lacks %q:\n%s", want, v)
		}
	}
	c2 := paneCommon(t)
	q := brokers.New(c2, &leverageEx{})
	q.SetSize(90, 8)
	deliver(t, c2, q, q.Update(common.StartPanesMsg{}))
	if v := q.View(); !strings.Contains(v, "no broker approved") {
		t.Errorf("empty:\n%s", v)
	}
	c3 := paneCommon(t)
	r := brokers.New(c3, &leverageEx{fail: errors.New("HTTP 500")})
	r.SetSize(90, 8)
	deliver(t, c3, r, r.Update(common.StartPanesMsg{}))
	if v := r.View(); !strings.Contains(v, "brokers request failed: HTTP 500 (retrying)") {
		t.Errorf("failed:\n%s", v)
	}
}

func TestPaneGroupSwitchesViews(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	g := newFundsGroup(c, &leverageEx{})
	g.SetSize(80, 12)
	g.SetFocused(true)
	if g.Title() != "Funds: Balances" {
		t.Fatalf("title %q", g.Title())
	}
	g.Update(keyMsg("]"))
	if g.Title() != "Funds: Transfer" {
		t.Fatalf("after ]: %q", g.Title())
	}
	g.Update(keyMsg("["))
	g.Update(keyMsg("["))
	if g.Title() != "Funds: Brokers" {
		t.Fatalf("after [ [: %q", g.Title())
	}
	g.Click(12, 0) // the second tab: " Balances " is 10 cells plus a space
	if g.Title() != "Funds: Transfer" {
		t.Fatalf("after a click on the tab row: %q", g.Title())
	}
	// While the transfer form's amount field has the focus, [ goes to the field (which, holding a
	// number, ignores it: #24), not to the group.
	tp := g.Panes()[1].(*transfer.Pane)
	c.Store.Apply(state.CollateralMsg{Gen: 1, At: paneNow, Collateral: testCollateral()})
	g.Update(common.DataMsg{Kind: state.KindCollateral})
	tp.Focus(transfer.FieldAmount)
	if !g.Capturing() {
		t.Fatal("the group does not report the form's text field")
	}
	g.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("[")})
	if g.Title() != "Funds: Transfer" || tp.Amount() != "" {
		t.Fatalf("title %q, amount %q", g.Title(), tp.Amount())
	}
	checkBlock(t, g.View(), 80, 12)

	// The tab row follows the views' titles (the fills count).
	a := newActivityGroup(c, &fakeEx{fills: makeFills(3, 3)}, false)
	a.SetSize(120, 8)
	a.View()
	deliver(t, c, a, a.Update(common.StartPanesMsg{}))
	if bar := strings.Split(a.View(), "\n")[0]; !strings.Contains(bar, "Fills (3)") {
		t.Fatalf("tab row %q", bar)
	}
}

// TestRebindFormerlyPaneLocalKeys: the pane groups' and the balances pane's keys, once pane-local
// variables, follow the key map: rebound, the new keys act, the old ones do not, and the tab row
// and help name the new keys.
func TestRebindFormerlyPaneLocalKeys(t *testing.T) {
	t.Parallel()
	over := map[string][]string{"prev_view": {"<"}, "next_view": {">"}, "transfer": {"T"}}
	keys := map[string][]string{}
	for k, v := range testKeys {
		keys[k] = v
	}
	for k, v := range over {
		keys[k] = v
	}
	km, err := common.NewKeyMap(keys)
	if err != nil {
		t.Fatal(err)
	}
	c := paneCommon(t)
	c.Keys = &km
	g := newFundsGroup(c, &leverageEx{})
	g.SetSize(80, 12)
	g.SetFocused(true)
	if v := g.View(); !strings.Contains(v, "< > switch") || !strings.Contains(v, "(T transfer · w withdraw)") {
		t.Errorf("the tab row or the collateral's hint does not name the rebound keys:\n%s", v)
	}
	if cmd := g.Update(keyMsg("t")); cmd != nil {
		if msg := cmd(); msg == (transfer.OpenMsg{Op: funds.ToDerivative}) {
			t.Error("t still opens the transfer form after it was rebound to T")
		}
	}
	if cmd := g.Update(keyMsg("T")); cmd == nil || cmd() != (transfer.OpenMsg{Op: funds.ToDerivative}) {
		t.Error("T does not open the transfer form")
	}
	g.Update(keyMsg("]"))
	if g.Title() != "Funds: Balances" {
		t.Fatalf("] still switches views after it was rebound: %q", g.Title())
	}
	g.Update(keyMsg(">"))
	if g.Title() != "Funds: Transfer" {
		t.Fatalf("> does not switch views: %q", g.Title())
	}
}
