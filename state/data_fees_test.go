package state

import (
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestPreviewFeeFromUserFees: once user_fees has loaded, the order preview's fee and the margin
// rule's fee reserve use the account's own rates, the perpetual ones for a perpetual and the spot
// ones for a spot pair. Guards the preview reading the configured constant (the dropped branch),
// the maker and taker rates swapped, and the perpetual and spot schedules swapped.
func TestPreviewFeeFromUserFees(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	maker := limitBuy("BTC-PERP", "50000", "0.1")
	maker.PostOnly = true
	checkDec(t, "maker fee before user_fees", mustCheck(t, s, maker, Guard{}).Preview.Fee, "0.75") // 5000 x 0.015%
	s.Apply(FeesMsg{Gen: 1, Fees: api.UserFees{PerpMaker: d("-0.0001"), PerpTaker: d("0.0004"),
		SpotMaker: d("0.0002"), SpotTaker: d("0.0007")}})
	if f, ok := s.UserFees(); !ok || f.PerpTaker.String() != "0.0004" {
		t.Fatalf("user fees %+v %v", f, ok)
	}
	checkDec(t, "perp maker rebate", mustCheck(t, s, maker, Guard{}).Preview.Fee, "-0.5") // 5000 x -0.01%
	taker := mustCheck(t, s, limitBuy("BTC-PERP", "50000.5", "0.1"), Guard{})
	checkDec(t, "perp taker fee", taker.Preview.Fee, "2.000020")          // 5000.05 x 0.04%
	checkDec(t, "perp fee reserve", taker.Preview.FeeReserve, "2.000020") // the margin rule reserves the taker fee
	spot := mustCheck(t, s, limitBuy("HYPE/USDC", "20", "10"), DefaultGuard())
	checkDec(t, "spot spend with its taker reserve", spot.Preview.MarginRequired, "200.14") // 200 x (1 + 0.07%)
}
