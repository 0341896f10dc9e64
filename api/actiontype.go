package api

import (
	"fmt"
	"strconv"

	"github.com/tradedesk/tradedesk/api/text"
)

// ActionTypeForm is how a request's action.type is written. It is not signed: the exchange reads
// it to know the action. The spec writes the name ("placeOrder"); every official SDK writes the
// tx number as text ("1301"), the only form known to work on the real exchange.
type ActionTypeForm int

const (
	// ActionTypeAuto is the number on a known network (mainnet, testnet) and the name elsewhere.
	ActionTypeAuto ActionTypeForm = iota
	// ActionTypeNumber is the tx number as text, as the official SDKs send it.
	ActionTypeNumber
	// ActionTypeName is the spec's name.
	ActionTypeName
)

// ParseActionTypeForm reads the --action-type flag and the config file's action_type: "" or
// "auto", "number", "name".
func ParseActionTypeForm(s string) (ActionTypeForm, error) {
	switch s {
	case "", "auto":
		return ActionTypeAuto, nil
	case "number":
		return ActionTypeNumber, nil
	case "name":
		return ActionTypeName, nil
	}
	return 0, fmt.Errorf("action type %s: want number (as the official SDKs send it), name (as the spec writes it) or auto", text.Quote(s))
}

// WithActionType chooses how action.type is written (ActionTypeAuto when not given).
func WithActionType(f ActionTypeForm) Option { return func(c *Client) { c.actionType = f } }

// typeText is action.type for info in form f (never ActionTypeAuto: New resolves it).
func (f ActionTypeForm) typeText(info ActionInfo) string {
	if f == ActionTypeNumber {
		return strconv.Itoa(int(info.TxType))
	}
	return info.Name
}
