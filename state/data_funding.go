package state

import (
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// KindFunding is the account's funding payments (funding_history), loaded page by page, newest
// first, merged like the fills.
var KindFunding = newKind("funding", time.Minute, func() any {
	return &pagedList[api.FundingPayment, fundingKey]{name: "funding", key: func(f api.FundingPayment) fundingKey {
		return fundingKey{f.InstrumentID, f.Time.UnixNano()}
	}}
})

// fundingKey identifies one payment: a position on one instrument settles once at a time.
type fundingKey struct {
	instrument api.InstrumentID
	at         int64
}

// FundingMsg carries one page of funding payments.
type FundingMsg struct {
	Gen  uint64
	At   time.Time
	Page api.Page[api.FundingPayment]
}

// Kind implements Msg.
func (FundingMsg) Kind() Kind { return KindFunding }

// Order implements Msg.
func (m FundingMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m FundingMsg) apply(s *Store, _ Order) bool { return s.funding().merge(m.Page) }

func (s *Store) funding() *pagedList[api.FundingPayment, fundingKey] {
	return s.data(KindFunding).(*pagedList[api.FundingPayment, fundingKey])
}

// Funding returns the funding payments loaded so far, newest first.
func (s *Store) Funding() []api.FundingPayment {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.funding().rows
}

// NextFundingPage returns the page to fetch to load older payments, and false when all are loaded.
func (s *Store) NextFundingPage() (int, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.funding().next()
}

// FundingEvicted is how many of the oldest payments were let go to stay within MaxPagedRows.
func (s *Store) FundingEvicted() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.funding().evicted
}

// FundingNet is what the payments add up to for the account, per settlement collateral: positive
// when the account received more than it paid (a payment is negative when the position paid).
func FundingNet(ps []api.FundingPayment) map[api.CollateralID]decimal.Decimal {
	out := map[api.CollateralID]decimal.Decimal{}
	for i := range ps {
		out[ps[i].SettlementCurrency] = out[ps[i].SettlementCurrency].Add(ps[i].Payment)
	}
	return out
}

// FormatPayment writes a payment signed at decimals places (FormatSigned), never rounded to zero:
// a payment too small to show is "-<0.01" or "+<0.01" (at 2 places), so a position that paid a
// little does not read as one that paid nothing. Zero is "0.00".
func FormatPayment(d decimal.Decimal, decimals int32) string {
	s := FormatSigned(d, decimals)
	if d.IsZero() || !isZeroText(s) {
		return s
	}
	tiny := "<" + decimal.New(1, -clampDecimals(decimals)).StringFixed(clampDecimals(decimals))
	if d.IsNegative() {
		return "-" + tiny
	}
	return "+" + tiny
}
