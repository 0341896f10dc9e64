package api

import "encoding/json"

// Action type names (as the spec writes them) and their tx_type numbers.
const (
	ActionPlaceOrder         = "placeOrder"
	ActionCancelByOid        = "cancelByOid"
	ActionCancelByCloid      = "cancelByCloid"
	ActionCancelByInstrument = "cancelByInstrument"
	ActionCancelAll          = "cancelAll"
	ActionSpotTransfer       = "spotBalanceTransferRequest"
	ActionDerivativeTransfer = "derivativeBalanceTransferRequest"
	ActionInternalTransfer   = "internalBalanceTransferRequest"
	ActionSpotWithdraw       = "spotWithdrawRequest"
	ActionDerivativeWithdraw = "derivativeWithdrawRequest"
)

// TxType numbers of the actions.
const (
	TxPlaceOrder         uint16 = 1301
	TxCancelByOid        uint16 = 1302
	TxCancelByCloid      uint16 = 1312
	TxCancelByInstrument uint16 = 1313
	TxCancelAll          uint16 = 1311
	TxSpotTransfer       uint16 = 1051
	TxDerivativeTransfer uint16 = 1052
	TxInternalTransfer   uint16 = 1053
	TxSpotWithdraw       uint16 = 1002
	TxDerivativeWithdraw uint16 = 1003
)

// MaxBatch is the most orders or cancels one request may carry.
const MaxBatch = 100

// OrderWire is one order exactly as it is signed and sent: every decimal is the string the
// trader's intent was formatted to, so the signed bytes and the JSON body carry the same text.
// Field order is the signing key order.
type OrderWire struct {
	InstrumentID InstrumentID `json:"instrumentId"`
	Side         string       `json:"side"`
	PositionSide string       `json:"positionSide"`
	Price        string       `json:"price"`
	Size         string       `json:"size"`
	Tif          string       `json:"tif"`
	ReduceOnly   bool         `json:"ro"`
	PostOnly     bool         `json:"po"`
	Cloid        string       `json:"cloid"`
	TriggerPx    string       `json:"triggerPx"`
	IsMarket     bool         `json:"isMarket"`
	Tpsl         string       `json:"tpsl"`
	Grouping     string       `json:"grouping"`
}

// PlaceOrderData is placeOrder's action.data.
type PlaceOrderData struct {
	Orders       []OrderWire `json:"orders"`
	ExpiresAfter uint64      `json:"expiresAfter,omitempty"`
	Nonce        uint64      `json:"nonce"`
}

// CancelOid names one order to cancel by exchange id.
type CancelOid struct {
	Oid          OrderID      `json:"oid"`
	InstrumentID InstrumentID `json:"instrumentId"`
}

// CancelByOidData is cancelByOid's action.data.
type CancelByOidData struct {
	Cancels      []CancelOid `json:"cancels"`
	ExpiresAfter uint64      `json:"expiresAfter,omitempty"`
	Nonce        uint64      `json:"nonce"`
}

// CancelCloid names one order to cancel by client order id.
type CancelCloid struct {
	Cloid        string       `json:"cloid"`
	InstrumentID InstrumentID `json:"instrumentId"`
}

// CancelByCloidData is cancelByCloid's action.data.
type CancelByCloidData struct {
	Cancels      []CancelCloid `json:"cancels"`
	ExpiresAfter uint64        `json:"expiresAfter,omitempty"`
	Nonce        uint64        `json:"nonce"`
}

// CancelByInstrumentData is cancelByInstrument's action.data.
type CancelByInstrumentData struct {
	InstrumentID InstrumentID `json:"instrumentId"`
	ExpiresAfter uint64       `json:"expiresAfter,omitempty"`
	Nonce        uint64       `json:"nonce"`
}

// CancelAllData is cancelAll's action.data.
type CancelAllData struct {
	ExpiresAfter uint64 `json:"expiresAfter,omitempty"`
	Nonce        uint64 `json:"nonce"`
}

// TransferData is the action.data of the spot and derivative transfers to another account.
type TransferData struct {
	CollateralID CollateralID `json:"collateralId"`
	Amount       string       `json:"amount"`
	Destination  string       `json:"destination"`
	Nonce        uint64       `json:"nonce"`
}

// InternalTransferData is the action.data of a move between the account's spot and derivative sides.
type InternalTransferData struct {
	CollateralID         CollateralID `json:"collateralId"`
	Amount               string       `json:"amount"`
	ToDerivativesAccount bool         `json:"toDerivativesAccount"`
	Nonce                uint64       `json:"nonce"`
}

// WithdrawData is the action.data of the spot and derivative withdrawals.
type WithdrawData struct {
	CollateralID CollateralID `json:"collateralId"`
	Amount       string       `json:"amount"`
	ChainID      Int          `json:"chainId"`
	Nonce        uint64       `json:"nonce"`
}

// TxResponse is the transaction response of every /exchange action. Data is kept raw because its
// shape depends on the action; the typed helpers below read it.
type TxResponse struct {
	TxHash  string          `json:"tx_hash"`
	TxType  Int             `json:"tx_type"`
	Error   string          `json:"error"`
	Success *bool           `json:"success,omitempty"`
	Data    json.RawMessage `json:"data"`
	Address string          `json:"address"`
}
