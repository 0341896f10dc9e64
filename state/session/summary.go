package session

import (
	"slices"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// Summary is one profile's account as the combined view shows it: equity, the margin its
// positions use, unrealised PnL, its positions and its open orders. Loaded is false until the
// profile's account summary arrived (its figures are then zero, not known).
type Summary struct {
	Profile    string
	Loaded     bool
	Equity     decimal.Decimal // total account equity, USD
	MarginUsed decimal.Decimal // initial margin of the open positions, USD
	Upnl       decimal.Decimal
	Positions  []api.Position
	Orders     []api.OrderRecord
}

// Source is what a profile's summary is read from: its store (state.Store has these).
type Source interface {
	Account() api.AccountSummary
	Positions() []api.Position
	Orders() []api.OrderRecord
}

// Summarise reads one profile's summary from its store; loaded says whether its account arrived.
func Summarise(profile string, src Source, loaded bool) Summary {
	a := src.Account()
	return Summary{Profile: profile, Loaded: loaded, Equity: a.TotalAccountEquity, MarginUsed: a.InitialMargin, Upnl: a.Upnl,
		Positions: src.Positions(), Orders: src.Orders()}
}

// MarginUse is the share of equity the margin uses (zero with no equity).
func (s Summary) MarginUse() decimal.Decimal {
	if !s.Equity.IsPositive() {
		return decimal.Zero
	}
	return s.MarginUsed.Div(s.Equity)
}

// Net is one instrument's position summed over the profiles: its signed size in each (by
// profile) and in all.
type Net struct {
	Instrument string
	By         map[string]decimal.Decimal
	Total      decimal.Decimal
}

// Total is every profile's summary summed: equity, margin used, unrealised PnL, and every
// position and open order (each keeps its own account's User). Loaded only when every profile's
// account arrived, so a total is never shown as complete while one is missing.
func Total(all []Summary) Summary {
	t := Summary{Profile: "total", Loaded: len(all) > 0}
	for _, s := range all {
		t.Loaded = t.Loaded && s.Loaded
		t.Equity = t.Equity.Add(s.Equity)
		t.MarginUsed = t.MarginUsed.Add(s.MarginUsed)
		t.Upnl = t.Upnl.Add(s.Upnl)
		t.Positions = append(t.Positions, s.Positions...)
		t.Orders = append(t.Orders, s.Orders...)
	}
	return t
}

// Nets is each instrument's position over the profiles, instruments sorted by name.
func Nets(all []Summary) []Net {
	byName := map[string]*Net{}
	for _, s := range all {
		for _, p := range s.Positions {
			n := byName[p.Instrument]
			if n == nil {
				n = &Net{Instrument: p.Instrument, By: map[string]decimal.Decimal{}}
				byName[p.Instrument] = n
			}
			n.By[s.Profile] = n.By[s.Profile].Add(p.Size)
			n.Total = n.Total.Add(p.Size)
		}
	}
	out := make([]Net, 0, len(byName))
	for _, n := range byName {
		out = append(out, *n)
	}
	slices.SortFunc(out, func(a, b Net) int {
		if a.Instrument < b.Instrument {
			return -1
		}
		if a.Instrument > b.Instrument {
			return 1
		}
		return 0
	})
	return out
}
