package algo

import (
	"context"
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/record"
)

// GroupOf is the algorithm a child client id belongs to ("" for none): record.GroupOf.
func GroupOf(cloid string) string { return record.GroupOf(cloid) }

// openChildren lists the account's open orders that are children of algorithm id.
func (d *Deps) openChildren(ctx context.Context, id string) ([]api.OrderRecord, error) {
	open, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return d.Read.OpenOrders(ctx, d.Account, p)
	}, 0, nil)
	if err != nil {
		return nil, err
	}
	var out []api.OrderRecord
	for _, o := range open {
		if GroupOf(o.Cloid) == id {
			out = append(out, o)
		}
	}
	return out, nil
}

// CancelGroup cancels every open child of algorithm id (a scale's rungs, a chase's kept child)
// through the executor, one cancel each, and says how many were cancelled.
func CancelGroup(ctx context.Context, d *Deps, id string) (int, error) {
	if err := d.check(); err != nil {
		return 0, err
	}
	open, err := d.openChildren(ctx, id)
	if err != nil {
		return 0, err
	}
	n := 0
	var failed []string
	for _, o := range open {
		if err := d.Limits.wait(ctx); err != nil {
			return n, err
		}
		res, err := d.Exec.Cancel(ctx, exec.Cancel{InstrumentID: o.InstrumentID, Cloid: o.Cloid},
			exec.Ask{Who: journal.WhoAlgorithm, What: "cancel " + o.Cloid + " of " + id, Parent: id})
		d.Limits.reads.drop()
		if err != nil {
			return n, err
		}
		if res.Kind == exec.Cancelled {
			n++
		} else {
			failed = append(failed, o.Cloid+": "+res.Kind.String()+" "+res.Reason)
		}
	}
	if len(failed) > 0 {
		return n, fmt.Errorf("not cancelled: %s", strings.Join(failed, "; "))
	}
	return n, nil
}
