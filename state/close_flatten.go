package state

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// FlattenPlan is flatten all, checked: a reduce-only market order for every position it can
// close (signed together as one placeOrder), and the positions it skips with why.
type FlattenPlan struct {
	Closes  []ClosePlan
	Skipped []FlattenSkip
	// PnL and Fee are the sums of the closes'.
	PnL, Fee decimal.Decimal
	// CancelFirst: every open order is cancelled before the closes are sent (`flatten cancel`).
	CancelFirst bool
}

// FlattenSkip is a position flatten all does not close, and why.
type FlattenSkip struct {
	Instrument string
	Why        string
}

// maxFlattenAge is how old the account's positions may be for flatten all to trust them.
const maxFlattenAge = 30 * time.Second

// PlanFlatten checks a reduce-only market close of every position, each with the client id
// cloid(i) (i from 1, in the plan's order). It is refused while the account's positions are
// stale, failed or not loaded: flatten must see every position it is to close. A position the
// check refuses (an instrument delisted, untradeable, without a price) is skipped and said.
func (s *Store) PlanFlatten(g Guard, cloid func(i int) (string, error)) (FlattenPlan, error) {
	var plan FlattenPlan
	for _, k := range []Kind{KindPositions, KindAccount} {
		f := s.Freshness(k)
		switch {
		case !f.Loaded():
			return plan, fmt.Errorf("flatten refused: the account's %s have not loaded yet; wait for them", k)
		case f.Err != nil:
			return plan, fmt.Errorf("flatten refused: the account's %s failed to load (%v); nothing sent, try again when they load", k, f.Err)
		case f.Stale || f.Age > maxFlattenAge:
			return plan, fmt.Errorf("flatten refused: the account's %s are %s old; nothing sent, wait for fresh data", k, f.Age.Round(time.Second))
		}
	}
	for _, pos := range s.Positions() {
		if pos.Size.IsZero() {
			continue
		}
		id, err := cloid(len(plan.Closes) + 1)
		if err != nil {
			return plan, err
		}
		c, errs := s.PlanClose(CloseRequest{Instrument: pos.Instrument, Percent: hundred, Cloid: id}, g)
		if len(errs) > 0 {
			plan.Skipped = append(plan.Skipped, FlattenSkip{Instrument: pos.Instrument, Why: joinFieldErrors(errs)})
			continue
		}
		plan.Closes = append(plan.Closes, c)
		plan.PnL, plan.Fee = plan.PnL.Add(c.PnL), plan.Fee.Add(c.Fee)
	}
	if len(plan.Closes) == 0 && len(plan.Skipped) == 0 {
		return plan, fmt.Errorf("no open positions to flatten")
	}
	return plan, nil
}

// Lines is the flatten's preview: one line per order it sends, one per position it skips, and
// the sums.
func (p FlattenPlan) Lines() []string {
	var out []string
	if p.CancelFirst {
		out = append(out, "first: cancel every open order")
	}
	for _, c := range p.Closes {
		out = append(out, "send: "+c.Words())
	}
	for _, sk := range p.Skipped {
		out = append(out, "skip: "+sk.Instrument+": "+sk.Why)
	}
	return append(out, fmt.Sprintf("flatten: %d orders to send, %d skipped; realises %s USD, fee %s USD", len(p.Closes), len(p.Skipped),
		FormatSigned(p.PnL, 2), FormatUSDFee(p.Fee)))
}

// FlattenChild is what became of one order of a flatten, as the executor says it.
type FlattenChild struct {
	Instrument string
	Status     string // placed, filled, rejected, ... (exec's words)
	Filled     bool
	Refused    bool // not placed: rejected, refused or not sent
	Reason     string
	// PnL and Fee are what its close realises and pays (the plan's estimate), counted when filled.
	PnL, Fee decimal.Decimal
}

// Line is the child's result line ("BTC-PERP: filled", "SOL-PERP: rejected: why").
func (c FlattenChild) Line() string {
	line := c.Instrument + ": " + c.Status
	if c.Reason != "" && !c.Filled {
		line += ": " + c.Reason
	}
	return line
}

// FlattenSummary sums a flatten's children: "5 sent, 4 filled, 1 refused: why; the filled
// realise -12.30 USD, fee 1.20 USD (est.)".
func FlattenSummary(children []FlattenChild) string {
	filled, refused := 0, 0
	var whys []string
	for _, c := range children {
		switch {
		case c.Filled:
			filled++
		case c.Refused:
			refused++
			whys = append(whys, c.Instrument+" "+c.Reason)
		}
	}
	s := fmt.Sprintf("%d sent, %d filled", len(children), filled)
	if other := len(children) - filled - refused; other > 0 {
		s += fmt.Sprintf(", %d not filled yet", other)
	}
	if refused > 0 {
		s += fmt.Sprintf(", %d refused: %s", refused, strings.Join(whys, "; "))
	}
	if filled > 0 {
		pnl, fee := decimal.Zero, decimal.Zero
		for _, c := range children {
			if c.Filled {
				pnl, fee = pnl.Add(c.PnL), fee.Add(c.Fee)
			}
		}
		s += fmt.Sprintf("; the filled realise %s USD, fee %s USD (est.)", FormatSigned(pnl, 2), FormatUSDFee(fee))
	}
	return s
}
