package state

import (
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// FormErrors are the intent's fields that are not of their form, whatever the instrument, the
// market and the account: a side that is not buy or sell, a time in force that is not GTC, IOC or
// FOK, tp/sl that is not tp or sl, a size, notional, price or trigger price that is not a positive
// number, a cloid the exchange would not take (api.CheckCloid). Empty fields are left to
// CheckOrder, which reports these too among its checks; a command line reports them as usage
// errors (a flag to fix).
func (in OrderIntent) FormErrors() []FieldError {
	var errs []FieldError
	if _, ok := normalizeSide(in.Side); !ok && strings.TrimSpace(in.Side) != "" {
		errs = append(errs, sideError(in.Side))
	}
	if tif := strings.ToUpper(strings.TrimSpace(in.Tif)); tif != "" && !validTif(tif) {
		errs = append(errs, tifError(tif))
	}
	if tpsl := strings.TrimSpace(in.Tpsl); tpsl != "" && !validTpsl(tpsl) {
		errs = append(errs, tpslError(in.Tpsl))
	}
	for _, f := range []struct{ field, label, raw string }{
		{FieldSize, "size", in.Size}, {FieldNotional, "notional", in.NotionalUSD},
		{FieldPrice, "price", in.Price}, {FieldTrigger, "trigger price", in.TriggerPx},
	} {
		if strings.TrimSpace(f.raw) == "" {
			continue
		}
		if _, err := ParsePositive(f.field, f.label, f.raw); err != nil {
			errs = append(errs, err.(FieldError))
		}
	}
	if id := strings.TrimSpace(in.Cloid); id != "" {
		if err := api.CheckCloid(id); err != nil {
			errs = append(errs, cloidError(err))
		}
	}
	return errs
}

func sideError(raw string) FieldError {
	return FieldError{Field: FieldSide, Msg: fmt.Sprintf("side %s is not buy or sell", text.Quote(strings.TrimSpace(raw)))}
}

func validTif(tif string) bool {
	return tif == api.TifGTC || tif == api.TifIOC || tif == api.TifFOK
}

func tifError(tif string) FieldError {
	return FieldError{Field: FieldTif, Msg: fmt.Sprintf("time in force %s is not GTC, IOC or FOK", text.Quote(tif)), Suggest: api.TifGTC}
}

func validTpsl(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return s == api.TpslTakeProfit || s == api.TpslStopLoss
}

func tpslError(raw string) FieldError {
	return FieldError{Field: FieldTpsl, Msg: fmt.Sprintf("%s is not tp (take profit) or sl (stop loss)", text.Quote(raw))}
}

func cloidError(err error) FieldError {
	return FieldError{Field: FieldCloid, Msg: err.Error() + "; leave it empty to get one"}
}
