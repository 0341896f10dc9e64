package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ActionInfo describes one /exchange action type.
type ActionInfo struct {
	Name      string // the spec's name, sent as action.type
	TxType    uint16 // the EIP-712 txType and the response's tx_type
	HasExpiry bool   // whether data carries expiresAfter
	newData   func() ActionData
}

// NewData returns a fresh, empty pointer to the action's data struct (e.g. *PlaceOrderData).
func (a ActionInfo) NewData() ActionData { return a.newData() }

var actionTable = []ActionInfo{
	{ActionPlaceOrder, TxPlaceOrder, true, func() ActionData { return new(PlaceOrderData) }},
	{ActionCancelByOid, TxCancelByOid, true, func() ActionData { return new(CancelByOidData) }},
	{ActionCancelByCloid, TxCancelByCloid, true, func() ActionData { return new(CancelByCloidData) }},
	{ActionCancelByInstrument, TxCancelByInstrument, true, func() ActionData { return new(CancelByInstrumentData) }},
	{ActionCancelAll, TxCancelAll, true, func() ActionData { return new(CancelAllData) }},
	{ActionSpotTransfer, TxSpotTransfer, false, func() ActionData { return new(TransferData) }},
	{ActionDerivativeTransfer, TxDerivativeTransfer, false, func() ActionData { return new(TransferData) }},
	{ActionInternalTransfer, TxInternalTransfer, false, func() ActionData { return new(InternalTransferData) }},
	{ActionSpotWithdraw, TxSpotWithdraw, false, func() ActionData { return new(WithdrawData) }},
	{ActionDerivativeWithdraw, TxDerivativeWithdraw, false, func() ActionData { return new(WithdrawData) }},
	{ActionAddAgent, TxAddAgent, false, func() ActionData { return new(AddAgentData) }},
	{ActionRevokeAgent, TxRevokeAgent, false, func() ActionData { return new(RevokeAgentData) }},
	{ActionUpdateLeverage, TxUpdateLeverage, false, func() ActionData { return new(UpdateLeverageData) }},
	{ActionApproveBrokerFee, TxApproveBrokerFee, false, func() ActionData { return new(ApproveBrokerFeeData) }},
	{ActionDepositToVault, TxDepositToVault, false, func() ActionData { return new(DepositToVaultData) }},
	{ActionRedeemFromVault, TxRedeemFromVault, false, func() ActionData { return new(RedeemFromVaultData) }},
}

// Actions lists every /exchange action the package knows.
func Actions() []ActionInfo { return append([]ActionInfo(nil), actionTable...) }

// LookupAction finds an action by the spec's name ("placeOrder"), by its tx type number written
// as text ("1301", as the official SDKs send it), or by the SDKs' account-prefixed names of the
// collateral actions ("accountSpotWithdrawRequest").
func LookupAction(typ string) (ActionInfo, bool) {
	if n, err := strconv.ParseUint(typ, 10, 16); err == nil {
		return LookupTxType(uint16(n))
	}
	name := typ
	if rest, ok := strings.CutPrefix(typ, "account"); ok && rest != "" {
		name = strings.ToLower(rest[:1]) + rest[1:]
	}
	for _, a := range actionTable {
		if a.Name == name {
			return a, true
		}
	}
	return ActionInfo{}, false
}

// LookupTxType finds an action by its tx type number.
func LookupTxType(tx uint16) (ActionInfo, bool) {
	for _, a := range actionTable {
		if a.TxType == tx {
			return a, true
		}
	}
	return ActionInfo{}, false
}

// SignedRequest is a decoded and verified /exchange request body.
type SignedRequest struct {
	ActionName   string     // the spec's name of the action, whatever form action.type had
	TxType       uint16     // the action's tx type
	Data         ActionData // pointer to the typed data struct, e.g. *PlaceOrderData
	Nonce        uint64     // the top-level nonce
	DataNonce    uint64     // action.data.nonce
	ExpiresAfter uint64     // action.data.expiresAfter, 0 when absent
	Signature    string     // as sent
	Digest       [32]byte   // the EIP-712 digest that was signed
	Signer       string     // EIP-55 address recovered from the signature
}

// RequestError is the error DecodeSignedRequest returns: Field names the part of the body at
// fault ("body", "action.type", "action.data", "signature", "nonce").
type RequestError struct {
	Field string
	Msg   string
}

// Error implements error.
func (e *RequestError) Error() string { return "bad /exchange request: " + e.Field + ": " + e.Msg }

func reqErr(field, format string, args ...any) *RequestError {
	return &RequestError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

type rawEnvelope struct {
	Action *struct {
		Type json.RawMessage `json:"type"`
		Data json.RawMessage `json:"data"`
	} `json:"action"`
	Signature *string          `json:"signature"`
	Nonce     *json.RawMessage `json:"nonce"`
}

// DecodeSignedRequest parses a raw /exchange body, rebuilds the signed MessagePack of its data,
// and recovers the signer for the given source ("Mainnet" or "Testnet"). action.type may be the
// spec's name or the tx type number (as a string or a number). It does not check nonce windows,
// nonce reuse or expiry: that is the server's business. Errors are *RequestError.
func DecodeSignedRequest(body []byte, source string) (*SignedRequest, error) {
	var env rawEnvelope
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, reqErr("body", "not a JSON object: %v", err)
	}
	if env.Action == nil {
		return nil, reqErr("action", "missing")
	}
	info, err := decodeActionType(env.Action.Type)
	if err != nil {
		return nil, err
	}
	data, err := decodeActionData(info, env.Action.Data)
	if err != nil {
		return nil, err
	}
	r := &SignedRequest{ActionName: info.Name, TxType: info.TxType, Data: data}
	r.DataNonce, r.ExpiresAfter = nonceAndExpiry(data)
	if env.Nonce == nil {
		return nil, reqErr("nonce", "missing (want the same Unix-millisecond nonce as action.data.nonce)")
	}
	if r.Nonce, err = strconv.ParseUint(string(bytes.Trim(*env.Nonce, `"`)), 10, 64); err != nil {
		return nil, reqErr("nonce", "%.40s is not a non-negative integer", *env.Nonce)
	}
	if env.Signature == nil || *env.Signature == "" {
		return nil, reqErr("signature", "missing")
	}
	r.Signature = *env.Signature
	sig, err := DecodeSignature(r.Signature)
	if err != nil {
		return nil, reqErr("signature", "%v", err)
	}
	r.Digest = ActionDigest(source, info.TxType, data)
	if r.Signer, err = RecoverAddress(r.Digest, sig[:]); err != nil {
		return nil, reqErr("signature", "%v", err)
	}
	return r, nil
}

func decodeActionType(raw json.RawMessage) (ActionInfo, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return ActionInfo{}, reqErr("action.type", "missing")
	}
	typ := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &typ); err != nil {
			return ActionInfo{}, reqErr("action.type", "not a string")
		}
	}
	info, ok := LookupAction(typ)
	if !ok {
		return ActionInfo{}, reqErr("action.type", "unknown action %q (want a name such as placeOrder or a tx type such as \"1301\")", truncate(typ, 40))
	}
	return info, nil
}

func decodeActionData(info ActionInfo, raw json.RawMessage) (ActionData, error) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, reqErr("action.data", "missing or not an object")
	}
	data := info.NewData()
	if err := json.Unmarshal(raw, data); err != nil {
		return nil, reqErr("action.data", "%s: %v", info.Name, err)
	}
	var keys struct {
		Nonce        json.RawMessage `json:"nonce"`
		ExpiresAfter json.RawMessage `json:"expiresAfter"`
	}
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, reqErr("action.data", "%v", err)
	}
	if keys.Nonce == nil {
		return nil, reqErr("action.data", "nonce is missing")
	}
	if keys.ExpiresAfter != nil && !info.HasExpiry {
		return nil, reqErr("action.data", "%s takes no expiresAfter", info.Name)
	}
	return data, nil
}

func nonceAndExpiry(d ActionData) (nonce, expires uint64) {
	switch d := d.(type) {
	case *PlaceOrderData:
		return d.Nonce, d.ExpiresAfter
	case *CancelByOidData:
		return d.Nonce, d.ExpiresAfter
	case *CancelByCloidData:
		return d.Nonce, d.ExpiresAfter
	case *CancelByInstrumentData:
		return d.Nonce, d.ExpiresAfter
	case *CancelAllData:
		return d.Nonce, d.ExpiresAfter
	case *TransferData:
		return d.Nonce, 0
	case *InternalTransferData:
		return d.Nonce, 0
	case *WithdrawData:
		return d.Nonce, 0
	case *AddAgentData:
		return d.Nonce, 0
	case *RevokeAgentData:
		return d.Nonce, 0
	case *UpdateLeverageData:
		return d.Nonce, 0
	case *ApproveBrokerFeeData:
		return d.Nonce, 0
	case *DepositToVaultData:
		return d.Nonce, 0
	case *RedeemFromVaultData:
		return d.Nonce, 0
	case *AgentProofData:
		return d.Nonce, 0
	}
	return 0, 0
}

// IsRequestError reports whether err came from DecodeSignedRequest's checks.
func IsRequestError(err error) bool {
	var re *RequestError
	return errors.As(err, &re)
}
