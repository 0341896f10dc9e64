package sim

import (
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// Two accounts trade against each other; each sees its fills, position, balances and summary.
func TestTwoAccountsTrade(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	rest := place(t, alice, limit(1, api.SideSell, "97300", "0.5"))
	aOid := oid(t, rest)
	r := place(t, bob, limit(1, api.SideBuy, "97400", "0.2"))
	sts, _ := r.OrderStatuses()
	if len(sts) != 1 || sts[0].TotalSize.Decimal.String() != "0.2" || sts[0].AvgPrice.Decimal.String() != "97300" {
		t.Fatalf("bob status %+v (%s)", sts, r.Data)
	}

	bf, err := bob.Fills(ctx(), "", api.PageParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(bf.Data) != 1 {
		t.Fatalf("bob fills %d", len(bf.Data))
	}
	f := bf.Data[0]
	if f.Direction != api.DirOpenLong || !f.Crossed || f.Side != "b" || f.Account != bob.Address() {
		t.Errorf("bob fill %+v", f)
	}
	eqDec(t, "bob price", f.Price, "97300")
	eqDec(t, "bob fee", f.Fee, "7.784") // 19460 * 0.0004
	eqDec(t, "bob notional", f.NotionalValue, "19460")

	af, _ := alice.Fills(ctx(), "", api.PageParams{})
	if len(af.Data) != 1 || af.Data[0].OrderID != aOid || af.Data[0].Direction != api.DirOpenShort || af.Data[0].Crossed {
		t.Fatalf("alice fills %+v", af.Data)
	}
	eqDec(t, "alice fee", af.Data[0].Fee, "-1.946") // maker rebate
	if af.Data[0].TradeID != f.TradeID {
		t.Errorf("trade ids differ: %d %d", af.Data[0].TradeID, f.TradeID)
	}

	bp, _ := bob.Positions(ctx(), "")
	if len(bp) != 1 {
		t.Fatalf("bob positions %+v", bp)
	}
	eqDec(t, "bob size", bp[0].Size, "0.2")
	eqDec(t, "bob entry", bp[0].EntryPrice, "97300")
	ap, _ := alice.Positions(ctx(), "")
	eqDec(t, "alice size", ap[0].Size, "-0.2")

	// Mark = index = 97250 (quiet market, one-sided book). Bob is long 0.2 from 97300.
	bs, err := bob.AccountSummary(ctx(), "")
	if err != nil {
		t.Fatal(err)
	}
	eqDec(t, "bob upnl", bs.Upnl, "-10")
	eqDec(t, "bob usdc", bs.Collateral["USDC"].Balance, "99992.216")
	eqDec(t, "bob equity", bs.TotalAccountEquity, "99982.216")
	eqDec(t, "bob im", bs.InitialMargin, "1945")      // 19450 / 10x
	eqDec(t, "bob mm", bs.MaintenanceMargin, "194.5") // 1% tier
	eqDec(t, "bob available", bs.AvailableBalance, "98037.216")
	ps := bs.PerpPositions["BTC-PERP"]
	if len(ps.Legs) != 1 || ps.PositionType != "oneWay" {
		t.Fatalf("bob perp positions %+v", bs.PerpPositions)
	}
	// liq: (0 - 0 - 99992.216 + 0.2*97250... see liquidationPrice) computed below
	if !ps.LiquidationPrice.IsZero() {
		t.Errorf("bob liquidation price %s, want 0 (cannot be liquidated with 100k on 0.2 BTC)", ps.LiquidationPrice)
	}

	as, _ := alice.AccountSummary(ctx(), "")
	eqDec(t, "alice upnl", as.Upnl, "10")
	eqDec(t, "alice usdc", as.Collateral["USDC"].Balance, "100001.946")
	// alice still rests 0.3 sell: order margin counts the worst case 0.5 short.
	eqDec(t, "alice available", as.AvailableBalance, "95149.446")

	tape := e.infoRaw(t, `{"method":"trades","params":{"symbol":"BTC-PERP","limit":5}}`)
	if !contains(tape, `[{"instrument_id":1,"instrument":"BTC-PERP","trade_id":7000000000,"tx_hash":"0x`) ||
		!contains(tape, `"side":"b","price":"97300","size":"0.2","maker":"`+alice.Address()+`","taker":"`+bob.Address()+`","timestamp":"2026-01-29T12:40:00.000Z"}]`) {
		t.Errorf("trades %s", tape)
	}
}
