package report

import (
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// Day is one UTC day of the journal.
type Day struct {
	Date     string          `json:"date"` // YYYY-MM-DD, UTC
	Fills    int             `json:"fills"`
	Realised decimal.Decimal `json:"realised_pnl"` // the sum of its fills' closed_pnl
	Fees     decimal.Decimal `json:"fees"`
	Funding  decimal.Decimal `json:"funding"`
	Net      decimal.Decimal `json:"net"` // realised - fees + funding
}

// Daily is the last n UTC days up to now's, oldest first, every day listed (zeros when nothing
// happened).
func Daily(fills []api.Fill, funding []api.FundingPayment, n int, now time.Time) []Day {
	if n < 1 {
		return nil
	}
	today := now.UTC().Truncate(24 * time.Hour)
	days := make([]Day, n)
	at := map[string]int{}
	for i := range days {
		d := today.AddDate(0, 0, i-n+1).Format(time.DateOnly)
		days[i].Date, at[d] = d, i
	}
	for _, f := range fills {
		if i, ok := at[f.BlockTime.UTC().Format(time.DateOnly)]; ok {
			days[i].Fills++
			days[i].Realised = days[i].Realised.Add(f.ClosedPnl)
			days[i].Fees = days[i].Fees.Add(f.Fee)
		}
	}
	for _, p := range funding {
		if i, ok := at[p.Time.UTC().Format(time.DateOnly)]; ok {
			days[i].Funding = days[i].Funding.Add(p.Payment)
		}
	}
	for i := range days {
		days[i].Net = days[i].Realised.Sub(days[i].Fees).Add(days[i].Funding)
	}
	return days
}
