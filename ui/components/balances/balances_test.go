package balances

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

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

// TestDisabledChainsOnTheirOwnLine (#13 QA 6): a disabled bridge chain is said on a line of its
// own ("disabled chains: BNB Chain (56)"), and no chain name is split by the wrap at the Funds
// pane's widths, so it is never unclear what is disabled; nor is a fee from its asset. Guards
// "BNB Chain (56) disabled" wrapped alone under the chains list, and "0.0005" / "WETH".
func TestDisabledChainsOnTheirOwnLine(t *testing.T) {
	t.Parallel()
	col := testCollateral()[0]
	col.BridgeByChain = []api.Bridge{{BridgeChainID: 1, Enabled: true}, {BridgeChainID: 42161, Enabled: true},
		{BridgeChainID: 8453, Enabled: true}, {BridgeChainID: 56, Enabled: false}}
	st := common.NewStyles(commontest.Theme)
	for _, w := range []int{44, 58, 110} {
		lines := collateralLines(st, col, w)
		text := strings.Join(lines, "\n")
		for _, name := range []string{"Ethereum (1)", "Arbitrum (42161)", "Base (8453)", "BNB Chain (56)"} {
			if !strings.Contains(text, name) {
				t.Errorf("width %d: %q split or missing:\n%s", w, name, text)
			}
		}
		weth := strings.Join(collateralLines(st, testCollateral()[1], w), "\n")
		if !strings.Contains(weth, "withdrawal 0.0005 WETH") {
			t.Errorf("width %d: the withdrawal fee is split from its asset:\n%s", w, weth)
		}
		for _, l := range lines {
			if strings.Contains(l, "BNB") != strings.HasPrefix(strings.TrimSpace(l), "disabled chains: BNB Chain (56)") {
				t.Errorf("width %d: the disabled chain is not said on its own line: %q\n%s", w, l, text)
			}
			if common.TextWidth(l) > w {
				t.Errorf("width %d: line %q is wider", w, l)
			}
		}
	}
}
