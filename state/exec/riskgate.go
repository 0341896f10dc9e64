package exec

import (
	"context"
	"errors"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/risk"
)

// newRisk is the executor's risk engine over its journal, with the limits of cfg, and where it
// reads the account and the market: Config.RiskSource, else Config.Read when it can.
func newRisk(cfg Config) (*risk.Engine, risk.Source, error) {
	eng, err := risk.New(context.Background(), cfg.Journal, cfg.Limits, cfg.Now)
	if err != nil {
		return nil, nil, err
	}
	src := cfg.RiskSource
	if x, ok := cfg.Read.(risk.Exchange); ok && src == nil {
		src = risk.ExchangeSource(x, cfg.Account)
	}
	return eng, src, nil
}

// Risk is the executor's risk engine: its state, limits and their use (tradedesk risk, the
// console's account pane), and Halt and Resume.
func (e *Executor) Risk() *risk.Engine { return e.risk }

// RiskSource is where the engine reads the account and the market (nil: nowhere).
func (e *Executor) RiskSource() risk.Source { return e.riskSrc }

// riskOrder is a checked order as the risk engine values it.
func riskOrder(co state.CheckedOrder) risk.Order {
	return risk.Order{Instrument: co.Instrument.Name, Buy: co.Wire.Side == api.SideBuy, Price: co.Price, Size: co.Size, ReduceOnly: co.Wire.ReduceOnly}
}

// legOrder is a bracket's leg (only its wire is at hand) as the engine values it: at the higher
// of its price and its trigger.
func legOrder(inst string, w api.OrderWire) risk.Order {
	px, _ := decimal.NewFromString(w.Price)
	if t, err := decimal.NewFromString(w.TriggerPx); err == nil {
		px = decimal.Max(px, t)
	}
	size, _ := decimal.NewFromString(w.Size)
	return risk.Order{Instrument: inst, Buy: w.Side == api.SideBuy, Price: px, Size: size, ReduceOnly: w.ReduceOnly, Leg: true}
}

// riskGate passes the orders of one intent or says why the limits refuse them (a Refused
// result's reason). No confirmation overrides it. The error is for a journal that cannot be read.
func (e *Executor) riskGate(ctx context.Context, orders []risk.Order) (string, error) {
	err := e.risk.Check(ctx, e.riskSrc, orders)
	var r *risk.Refusal
	if errors.As(err, &r) {
		return r.Error(), nil
	}
	return "", err
}
