package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// movement is a transfer or withdrawal as its transfer_history record shows it.
type movement struct {
	kind       string // api.TransferSpot ...
	collateral api.CollateralID
	amount     decimal.Decimal
	from, to   string
}

// movementOf reads the journaled data of a transfer or withdrawal of account.
func movementOf(action string, data json.RawMessage, account string) (movement, error) {
	var d struct {
		CollateralID api.CollateralID `json:"collateralId"`
		Amount       string           `json:"amount"`
		Destination  string           `json:"destination"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return movement{}, err
	}
	amt, err := decimal.NewFromString(d.Amount)
	if err != nil {
		return movement{}, fmt.Errorf("amount: %v", err)
	}
	mv := movement{collateral: d.CollateralID, amount: amt, from: account, to: account}
	switch action {
	case api.ActionSpotTransfer:
		mv.kind, mv.to = api.TransferSpot, d.Destination
	case api.ActionDerivativeTransfer:
		mv.kind, mv.to = api.TransferDerivative, d.Destination
	case api.ActionInternalTransfer:
		mv.kind = api.TransferInternal
	case api.ActionSpotWithdraw:
		mv.kind = api.TransferSpotWithdraw
	case api.ActionDerivativeWithdraw:
		mv.kind = api.TransferDerivativeWithdraw
	}
	return mv, nil
}

// recordSlack is how much earlier than the nonce, beyond the executor's Skew, a record of the
// movement may be stamped: the exchange stamps it by its own clock.
const recordSlack = time.Second

// findMovement looks for the one record of mv in the account's transfer history made since the
// action's nonce (less Skew and recordSlack). One found settles it (res gets its tx hash);
// several are not told apart, and the outcome stays unknown.
func (e *Executor) findMovement(ctx context.Context, rd ActionReader, mv movement, nonce uint64, res *Result) (bool, string, error) {
	recs, err := rd.TransferHistory(ctx, e.cfg.Account, 0)
	if err != nil {
		return false, "", err
	}
	since := time.UnixMilli(int64(nonce)).Add(-e.cfg.Skew - recordSlack)
	var hits []api.TransferRecord
	for _, r := range recs {
		if r.Type == mv.kind && r.CollateralID == mv.collateral && r.Amount.Equal(mv.amount) &&
			api.SameAddress(r.From, mv.from) && api.SameAddress(r.To, mv.to) && !r.Time.Before(since) {
			hits = append(hits, r)
		}
	}
	switch len(hits) {
	case 0:
		return false, "not in the transfer history", nil
	case 1:
		res.TxHash = hits[0].TxHash
		return true, "the answer was lost; the transfer history shows it done", nil
	}
	return false, "", fmt.Errorf("%d movements alike in the transfer history since it was signed: which is this one is not known", len(hits))
}

// findAgent settles a lost addAgent by the agent being listed, a lost revokeAgent by its not
// being listed any more.
func (e *Executor) findAgent(ctx context.Context, rd ActionReader, action string, data json.RawMessage) (bool, string, error) {
	var d struct {
		Agent string `json:"agent"`
	}
	if err := json.Unmarshal(data, &d); err != nil || d.Agent == "" {
		return false, "", fmt.Errorf("the journal's %s cannot be read", action)
	}
	agents, err := rd.Agents(ctx, e.cfg.Account)
	if err != nil {
		return false, "", err
	}
	listed := false
	for _, a := range agents {
		listed = listed || api.SameAddress(a.Address, d.Agent)
	}
	switch {
	case action == api.ActionAddAgent && listed:
		return true, "the answer was lost; the account's agents list it now", nil
	case action == api.ActionRevokeAgent && !listed:
		return true, "the answer was lost; the account's agents no longer list it", nil
	case action == api.ActionAddAgent:
		return false, "the account's agents do not list it", nil
	}
	return false, "the account's agents still list it", nil
}

// findBroker settles a lost approveBrokerFee by the approval the exchange shows being the one
// asked for (none, or a zero rate, for "0").
func (e *Executor) findBroker(ctx context.Context, rd ActionReader, data json.RawMessage) (bool, string, error) {
	var d struct {
		Broker     string `json:"broker"`
		MaxFeeRate string `json:"maxFeeRate"`
	}
	if err := json.Unmarshal(data, &d); err != nil || d.Broker == "" {
		return false, "", fmt.Errorf("the journal's %s cannot be read", api.ActionApproveBrokerFee)
	}
	want, err := decimal.NewFromString(d.MaxFeeRate)
	if err != nil {
		return false, "", fmt.Errorf("the journal's max fee rate: %v", err)
	}
	pg, err := rd.BrokersCheck(ctx, e.cfg.Account, d.Broker, api.PageParams{})
	if err != nil {
		return false, "", err
	}
	have := decimal.Zero
	for _, b := range pg.Data {
		if api.SameAddress(b.Broker, d.Broker) {
			have = b.MaxFeeRate
		}
	}
	if have.Equal(want) {
		return true, "the answer was lost; the exchange shows the broker's approval as asked (max fee rate " + want.String() + ")", nil
	}
	return false, "the exchange shows the broker's max fee rate at " + have.String(), nil
}

// LeverageReader reads the leverage in force on a perpetual: *api.Client is one. An executor
// whose Config.Read is one settles a lost leverage change by it.
type LeverageReader interface {
	Instruments(ctx context.Context, kind string) (api.Instruments, error)
	InstrumentLeverage(ctx context.Context, user, symbol string) (api.InstrumentLeverage, error)
}

// findLeverage settles a lost leverage change by the leverage in force being the one asked for.
func (e *Executor) findLeverage(ctx context.Context, lr LeverageReader, data json.RawMessage) (bool, string, error) {
	var d struct {
		InstrumentID api.InstrumentID `json:"instrumentId"`
		Leverage     json.RawMessage  `json:"leverage"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return false, "", fmt.Errorf("the journal's %s cannot be read", api.ActionUpdateLeverage)
	}
	want, err := decimal.NewFromString(strings.Trim(string(d.Leverage), `"`))
	if err != nil {
		return false, "", fmt.Errorf("the journal's leverage: %v", err)
	}
	ins, err := lr.Instruments(ctx, "perps")
	if err != nil {
		return false, "", err
	}
	name := ""
	for _, p := range ins.Perps {
		if p.ID == d.InstrumentID {
			name = p.Name
		}
	}
	if name == "" {
		return false, "", fmt.Errorf("instrument %d is not listed", d.InstrumentID)
	}
	lv, err := lr.InstrumentLeverage(ctx, e.cfg.Account, name)
	if err != nil {
		return false, "", err
	}
	if lv.Leverage.Equal(want) {
		return true, "the answer was lost; the leverage on " + name + " is " + want.String() + "x now, as asked", nil
	}
	return false, "the leverage on " + name + " is not " + want.String() + "x", nil
}
