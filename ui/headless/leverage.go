package headless

import (
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
)

// leverageJSON is leverage --json without --leverage: the leverage in force on one perpetual.
type leverageJSON struct {
	Instrument string          `json:"instrument"`
	Leverage   decimal.Decimal `json:"leverage"`
	Max        decimal.Decimal `json:"max"`
	MarginType string          `json:"margin_type,omitempty"`
	// Set says the account set it (false: the exchange's default is in force).
	Set bool `json:"set"`
}

// runLeverageRead is leverage --instrument SYM alone: the leverage in force and the tier maximum,
// read as the setting's preview reads them (state.Store.CheckLeverage).
func runLeverageRead(ctx context.Context, r *runner) error {
	in, err := r.findInstrument(ctx)
	if err != nil {
		return err
	}
	st, err := r.orderStore(ctx, in.Name)
	if err != nil {
		return err
	}
	c, err := st.CheckLeverage(in.Name, 1)
	if err != nil {
		return err
	}
	if in.Spot {
		return errors.New(c.Err)
	}
	res := leverageJSON{Instrument: in.Name, Leverage: c.Current, Max: c.Max}
	if l, ok := st.Leverage(in.Name); ok {
		res.Set, res.MarginType = true, text.Clean(l.MarginType)
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, res)
	}
	how := "the default"
	if res.Set {
		how = "set, " + res.MarginType + " margin"
	}
	_, err = fmt.Fprintf(r.env.Stdout, "leverage on %s: %sx (%s; tier maximum %sx)\n", in.Name, c.Current, how, c.Max)
	return err
}
