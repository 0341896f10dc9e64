package exec

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// BenchmarkChildPlaceAndCancel is one algorithm child's reprice through the executor: a resting
// limit placed and then cancelled, against the simulator on loopback, the journal on disk
// (synchronous=FULL). commits/op is the journal's fsynced commits a reprice.
func BenchmarkChildPlaceAndCancel(b *testing.B) {
	s := sim.New(sim.WithSeed(5), sim.WithQuietMarkets())
	srv := httptest.NewServer(s)
	defer srv.Close()
	signer, err := api.SignerFromHex(testKey)
	if err != nil {
		b.Fatal(err)
	}
	cl := api.New(srv.URL, api.WithSigner(signer))
	if err := s.Fund(cl.Address(), sim.DefaultDemoBalance); err != nil {
		b.Fatal(err)
	}
	j, err := journal.Open(journal.Path(b.TempDir(), "sim", cl.Address()))
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	e, err := New(Config{Journal: j, Send: cl, Read: cl, Account: cl.Address()})
	if err != nil {
		b.Fatal(err)
	}
	st, in := benchStore(b, cl)
	c0 := j.Commits()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cloid := fmt.Sprintf("bench-%d", i)
		c, errs := e.Check(st, state.OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: state.Limit, Price: in.String(), Size: "0.001", Tif: api.TifGTC, Cloid: cloid})
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		res, err := e.Place(bg, c, Ask{Who: journal.WhoAlgorithm, What: "child", Confirmed: true})
		if err != nil || res.Kind != Placed {
			b.Fatalf("place: %+v %v", res, err)
		}
		cr, err := e.Cancel(bg, Cancel{InstrumentID: 1, Cloid: cloid}, Ask{Who: journal.WhoAlgorithm, What: "cancel child"})
		if err != nil || cr.Kind != Cancelled {
			b.Fatalf("cancel: %+v %v", cr, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(j.Commits()-c0)/float64(b.N), "commits/op")
}

// benchStore is a store loaded from the simulator, and a bid price 2 % under BTC-PERP's mid.
func benchStore(b *testing.B, cl *api.Client) (*state.Store, decimal.Decimal) {
	st := state.New(nil)
	ins, err := cl.Instruments(bg, "all")
	if err != nil {
		b.Fatal(err)
	}
	st.Apply(state.InstrumentsMsg{Instruments: ins})
	ms, err := cl.Mids(bg, "all")
	if err != nil {
		b.Fatal(err)
	}
	st.Apply(state.MidsMsg{Mids: ms})
	ts, err := cl.Ticker(bg, "all")
	if err != nil {
		b.Fatal(err)
	}
	st.Apply(state.TickersMsg{Tickers: ts})
	a, err := cl.AccountSummary(bg, cl.Address())
	if err != nil {
		b.Fatal(err)
	}
	st.Apply(state.AccountMsg{Summary: a})
	cs, err := cl.SupportedCollateral(bg, "all")
	if err != nil {
		b.Fatal(err)
	}
	st.Apply(state.CollateralMsg{Collateral: cs})
	inst, _ := st.Instrument("BTC-PERP")
	mid, _ := st.Mid("BTC-PERP")
	return st, state.FloorToStep(mid.Mul(decimal.RequireFromString("0.98")), inst.TickSize)
}
