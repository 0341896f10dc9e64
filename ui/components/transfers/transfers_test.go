package transfers

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

var t0 = time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)

const (
	me    = "0x1111111111111111111111111111111111111111"
	other = "0x2222222222222222222222222222222222222222"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestTransfersRows: each transfer in words from the account's side, its amount signed
// (negative when it left the account) at the collateral's precision, a withdrawal's fee (issue
// #31, 13: it was left out), the other address of a
// send or receipt, the hash shortened. Guards the sign of outgoing amounts and the words.
func TestTransfersRows(t *testing.T) {
	p := rowsPane(t)
	lines := strings.Split(p.View(), "\n")
	for i, want := range [][]string{
		{"01-29 12:03:00", "withdraw (spot)", "-250.00", "-1.00", "USDC", "—", "0xaaaa…aa01"},
		{"send (spot)", "-0.50000000", "WETH", "0x2222…2222", "0xbb"},
		{"receive (perp)", "+1,000.00", "USDC", "0x2222…2222", "—"},
		{"deposit", "+100,000.00", "USDC"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i+1], w) {
				t.Errorf("row %d %q lacks %q", i+1, lines[i+1], w)
			}
		}
	}
	if p.Title() != "Transfers (4)" {
		t.Errorf("title %q", p.Title())
	}
}

// rowsPane is the transfers view at 120x7 over a withdrawal, a send, a receipt and a deposit.
func rowsPane(t *testing.T) *Pane {
	t.Helper()
	s := state.New(func() time.Time { return t0 })
	s.Apply(state.CollateralMsg{Gen: 1, At: t0, Collateral: []api.Collateral{{ID: 1, Symbol: "USDC", Decimals: 6}, {ID: 3, Symbol: "WETH", Decimals: 18}}})
	s.Apply(state.TransfersMsg{Gen: 1, At: t0, Transfers: []api.TransferRecord{
		{Type: api.TransferSpotWithdraw, From: me, To: me, CollateralID: 1, Amount: d("250"), Fee: d("1"), TxHash: "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa01", Time: api.Time{Time: t0.Add(3 * time.Minute)}},
		{Type: api.TransferSpot, From: me, To: other, CollateralID: 3, Amount: d("0.5"), TxHash: "0xbb", Time: api.Time{Time: t0.Add(2 * time.Minute)}},
		{Type: api.TransferDerivative, From: other, To: me, CollateralID: 1, Amount: d("1000"), Time: api.Time{Time: t0.Add(time.Minute)}},
		{Type: api.TransferDeposit, From: me, To: me, CollateralID: 1, Amount: d("100000"), Time: api.Time{Time: t0}},
	}})
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	c.Account = me
	p := newPane(c, nil, source, true)
	p.SetSize(120, 7)
	p.Update(common.DataMsg{Kind: state.KindTransfers})
	return p
}

// TestTransfersGolden: the transfers view (columns, signs, fee, addresses, the status line) in
// the component's own golden, so a change to this view changes this file, not the console's
// screens. Regenerate with: go test ./ui/components/transfers -run TestTransfersGolden -update
func TestTransfersGolden(t *testing.T) {
	golden.RequireEqual(t, []byte(rowsPane(t).View()))
}

// TestTransfersSanitised: a server's words (an unknown kind, a hash, addresses) with terminal
// control sequences in them reach the screen without any: the store cleans them on the way in
// and the view draws the cleaned text. Guards the one route (a pane reading a record that did not
// pass state.Apply would draw the escape).
func TestTransfersSanitised(t *testing.T) {
	s := state.New(func() time.Time { return t0 })
	evil := "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J"
	s.Apply(state.TransfersMsg{Gen: 1, At: t0, Transfers: []api.TransferRecord{
		{Type: "airdrop" + evil, From: other + evil, To: me, Amount: d("1"), TxHash: "0xcc" + evil, Time: api.Time{Time: t0}},
		{Type: api.TransferSpot, From: other + "\r\x1b[1A", To: me, Amount: d("1"), TxHash: "0xdd\x9b31m", Time: api.Time{Time: t0}},
	}})
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	c.Account = me
	p := newPane(c, nil, source, true)
	p.SetSize(160, 5)
	p.Update(common.DataMsg{Kind: state.KindTransfers})
	v := p.View()
	for _, r := range v {
		if r != '\n' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)) {
			t.Fatalf("a control character %U reached the screen:\n%q", r, v)
		}
	}
	if !strings.Contains(v, "airdrop") || !strings.Contains(v, "receive (spot)") {
		t.Errorf("the cleaned words are missing:\n%s", v)
	}
}
