package live

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestLiveCommandKeepsTheOptionsNotTheID: what a paper chase or TWAP hands the live session is
// its kind, instrument, side, size and options (a chase's rehearsed duration from its start),
// never its id, arrival or schedule; a scale is refused with a reason.
func TestLiveCommandKeepsTheOptionsNotTheID(t *testing.T) {
	at := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	raw := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ch := algo.ChaseParams{Instrument: "BTC-PERP", Side: "sell", Size: d("0.2"), Offset: 2, MaxDistance: "0.1%", Keep: true,
		Until: at.Add(10 * time.Minute), Arrival: d("97000"), Limit: d("96903")}
	c, err := Command(journal.Algo{ID: "paper-1", Kind: "chase", Params: raw(ch), Created: at})
	if err != nil || c.Kind != "chase" || c.Side != "sell" || !c.Size.Equal(d("0.2")) || c.Offset != 2 || c.MaxDistance != "0.1%" ||
		!c.Keep || c.For != 10*time.Minute || c.ID != "" {
		t.Fatalf("chase: %+v, %v", c, err)
	}
	tw := algo.TWAPParams{Instrument: "ETH-PERP", Side: "buy", Size: d("3"), Start: at, Duration: time.Hour, Slices: 12,
		BandLo: d("3000"), BandHi: d("3100"), Randomize: true, Seed: 7, Arrival: d("3050")}
	c, err = Command(journal.Algo{ID: "paper-2", Kind: "twap", Params: raw(tw), Created: at})
	if err != nil || c.Kind != "twap" || c.Instrument != "ETH-PERP" || c.Duration != time.Hour || c.Slices != 12 ||
		!c.BandLo.Equal(d("3000")) || !c.BandHi.Equal(d("3100")) || !c.Random || c.ID != "" {
		t.Fatalf("twap: %+v, %v", c, err)
	}
	sc := algo.ScaleParams{Instrument: "BTC-PERP", Side: "buy", Size: d("0.3"), From: d("90000"), To: d("91000"), Count: 5, Distribution: "inc",
		Rungs: []algo.Rung{{Price: d("90000"), Size: d("0.06")}}}
	c, err = Command(journal.Algo{ID: "paper-3", Kind: "scale", Params: raw(sc), Created: at})
	if err != nil || c.Kind != "scale" || !c.From.Equal(d("90000")) || !c.To.Equal(d("91000")) || c.Count != 5 || c.Distribution != "inc" || c.ID != "" {
		t.Fatalf("scale: %+v, %v", c, err)
	}
	tr := algo.TrailParams{Instrument: "BTC-PERP", Distance: "1.5%", Dist: d("1450"), Side: "sell", Arrival: d("97000")}
	c, err = Command(journal.Algo{ID: "paper-4", Kind: "trail", Params: raw(tr), Created: at})
	if err != nil || c.Kind != "trail" || c.Instrument != "BTC-PERP" || c.Distance != "1.5%" || c.ID != "" {
		t.Fatalf("trail: %+v, %v", c, err)
	}
	if _, err := Command(journal.Algo{ID: "paper-5", Kind: "grid", Params: []byte("{}")}); err == nil {
		t.Fatal("an unknown kind is sent live")
	}
}

// TestAPaperAlgorithmsLiveConfirmation: the live confirmation of a rehearsed chase says LIVE
// and the network in its title, takes a typed yes, names the rehearsal that keeps running on
// paper and previews the new chase; a read that failed, or an instrument the store lacks, is
// not sent live and says why.
func TestAPaperAlgorithmsLiveConfirmation(t *testing.T) {
	now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	st := state.New(func() time.Time { return now })
	st.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: api.Instruments{Perps: []api.PerpInstrument{{
		ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001"), MaxLeverage: decimal.NewFromInt(20)}}}})
	st.Apply(state.TickersMsg{Gen: 1, At: now, Tickers: []api.Ticker{{Symbol: "BTC-PERP", BestBidPrice: d("96990"), BestAskPrice: d("97010"), MidPrice: d("97000")}}})
	raw, err := json.Marshal(algo.ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: d("0.2"), Offset: 1})
	if err != nil {
		t.Fatal(err)
	}
	styles := common.NewStyles(commontest.Theme)
	r := Route{Network: "mainnet"}
	a, err := r.AlgoAction(AlgoMsg{a: journal.Algo{ID: "paper-1", Kind: "chase", Params: raw, Created: now}}, nil, st, styles)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Join(a.Lines, "\n")
	if !IsLive(a) || a.Title != "Send LIVE · Start chase · LIVE MAINNET" || a.Typed != "yes" || a.What != "LIVE chase buy 0.2 BTC-PERP" ||
		!strings.Contains(lines, "the rehearsal paper-1 keeps running on paper") || !strings.Contains(lines, "Now          96,990.0") {
		t.Fatalf("title %q typed %q what %q lines:\n%s", a.Title, a.Typed, a.What, lines)
	}
	if _, err := r.AlgoAction(AlgoMsg{err: errors.New("journal closed")}, nil, st, styles); err == nil || err.Error() != "journal closed" {
		t.Fatalf("a failed read: %v", err)
	}
	raw, _ = json.Marshal(algo.TrailParams{Instrument: "DOGE-PERP", Distance: "1%"})
	if _, err := r.AlgoAction(AlgoMsg{a: journal.Algo{ID: "paper-2", Kind: "trail", Params: raw}}, nil, st, styles); err == nil {
		t.Fatal("an instrument the store lacks is sent live")
	}
}
