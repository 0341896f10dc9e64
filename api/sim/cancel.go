package sim

import (
	"fmt"

	"github.com/tradedesk/tradedesk/api"
)

// cancelOne cancels one of the account's open orders, checking it is on the named instrument.
func (e *engine) cancelOne(a *account, o *order, id api.InstrumentID, name string) error {
	if o == nil || o.acct != a {
		return fmt.Errorf("order %s is not an open order of this account", name)
	}
	if o.mkt.id != id {
		return fmt.Errorf("order %s is on %s (instrument %d), not instrument %d", name, o.mkt.name, o.mkt.id, id)
	}
	e.cancel(o)
	return nil
}

// cancelByOid cancels orders by exchange id; one error (or nil) per cancel.
func (e *engine) cancelByOid(a *account, cs []api.CancelOid) []error {
	out := make([]error, len(cs))
	for i, c := range cs {
		out[i] = e.cancelOne(a, e.orders[c.Oid], c.InstrumentID, fmt.Sprint(c.Oid))
	}
	return out
}

// cancelByCloid cancels orders by client order id; one error (or nil) per cancel.
func (e *engine) cancelByCloid(a *account, cs []api.CancelCloid) []error {
	out := make([]error, len(cs))
	for i, c := range cs {
		if c.Cloid == "" {
			out[i] = fmt.Errorf("cancel %d has an empty cloid", i+1)
			continue
		}
		out[i] = e.cancelOne(a, a.openByCloid(c.Cloid), c.InstrumentID, fmt.Sprintf("with cloid %q", trunc(c.Cloid, 64)))
	}
	return out
}

// openByCloid finds the account's open order with a client order id (there is at most one).
func (a *account) openByCloid(cloid string) *order { return a.cloids[cloid] }

// cancelByInstrument cancels all the account's open orders on one instrument.
func (e *engine) cancelByInstrument(a *account, id api.InstrumentID) (int, error) {
	if _, err := e.market(id); err != nil {
		return 0, err
	}
	return e.cancelAccount(a, id), nil
}
