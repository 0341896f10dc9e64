package api

import (
	"encoding/binary"
	"fmt"
)

// MessagePack encoding of action data, exactly as the exchange rebuilds it before hashing:
// maps in the fixed key order of protocol.md (nonce last), the smallest integer forms, the str
// family for strings, c2/c3 for booleans, fixarray/array16 for arrays. Everything appends into a
// caller-owned slice, so signing one action allocates nothing here once the slice has capacity.

func appendMapHeader(b []byte, n int) []byte {
	switch {
	case n < 16:
		return append(b, 0x80|byte(n))
	case n <= 0xffff:
		return append(b, 0xde, byte(n>>8), byte(n))
	default:
		return binary.BigEndian.AppendUint32(append(b, 0xdf), uint32(n))
	}
}

func appendArrayHeader(b []byte, n int) []byte {
	switch {
	case n < 16:
		return append(b, 0x90|byte(n))
	case n <= 0xffff:
		return append(b, 0xdc, byte(n>>8), byte(n))
	default:
		return binary.BigEndian.AppendUint32(append(b, 0xdd), uint32(n))
	}
}

func appendStr(b []byte, s string) []byte {
	n := len(s)
	switch {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n <= 0xff:
		b = append(b, 0xd9, byte(n))
	case n <= 0xffff:
		b = append(b, 0xda, byte(n>>8), byte(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, 0xdb), uint32(n))
	}
	return append(b, s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 0xc3)
	}
	return append(b, 0xc2)
}

func appendUint(b []byte, v uint64) []byte {
	switch {
	case v < 0x80:
		return append(b, byte(v))
	case v <= 0xff:
		return append(b, 0xcc, byte(v))
	case v <= 0xffff:
		return append(b, 0xcd, byte(v>>8), byte(v))
	case v <= 0xffffffff:
		return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(v))
	default:
		return binary.BigEndian.AppendUint64(append(b, 0xcf), v)
	}
}

func appendInt(b []byte, v int64) []byte {
	if v >= 0 {
		return appendUint(b, uint64(v))
	}
	switch {
	case v >= -32:
		return append(b, byte(v))
	case v >= -128:
		return append(b, 0xd0, byte(v))
	case v >= -32768:
		return append(b, 0xd1, byte(v>>8), byte(v))
	case v >= -2147483648:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(v))
	default:
		return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(v))
	}
}

// appendExpiryNonce writes the trailing expiresAfter (omitted when 0, meaning none) and nonce.
func appendExpiryNonce(b []byte, expiresAfter, nonce uint64) []byte {
	if expiresAfter != 0 {
		b = appendStr(b, "expiresAfter")
		b = appendUint(b, expiresAfter)
	}
	b = appendStr(b, "nonce")
	return appendUint(b, nonce)
}

func expiryKeys(expiresAfter uint64) int {
	if expiresAfter != 0 {
		return 2
	}
	return 1
}

// AppendMsgpack appends the order's MessagePack map (13 keys in signing order).
func (o *OrderWire) AppendMsgpack(b []byte) []byte {
	b = append(b, 0x8d)
	b = appendStr(b, "instrumentId")
	b = appendInt(b, int64(o.InstrumentID))
	b = appendStr(b, "side")
	b = appendStr(b, o.Side)
	b = appendStr(b, "positionSide")
	b = appendStr(b, o.PositionSide)
	b = appendStr(b, "price")
	b = appendStr(b, o.Price)
	b = appendStr(b, "size")
	b = appendStr(b, o.Size)
	b = appendStr(b, "tif")
	b = appendStr(b, o.Tif)
	b = appendStr(b, "ro")
	b = appendBool(b, o.ReduceOnly)
	b = appendStr(b, "po")
	b = appendBool(b, o.PostOnly)
	b = appendStr(b, "cloid")
	b = appendStr(b, o.Cloid)
	b = appendStr(b, "triggerPx")
	b = appendStr(b, o.TriggerPx)
	b = appendStr(b, "isMarket")
	b = appendBool(b, o.IsMarket)
	b = appendStr(b, "tpsl")
	b = appendStr(b, o.Tpsl)
	b = appendStr(b, "grouping")
	return appendStr(b, o.Grouping)
}

// AppendMsgpack appends the signed MessagePack form of placeOrder's data.
func (d *PlaceOrderData) AppendMsgpack(b []byte) []byte {
	b = appendMapHeader(b, 1+expiryKeys(d.ExpiresAfter))
	b = appendStr(b, "orders")
	b = appendArrayHeader(b, len(d.Orders))
	for i := range d.Orders {
		b = d.Orders[i].AppendMsgpack(b)
	}
	return appendExpiryNonce(b, d.ExpiresAfter, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of cancelByOid's data.
func (d *CancelByOidData) AppendMsgpack(b []byte) []byte {
	b = appendMapHeader(b, 1+expiryKeys(d.ExpiresAfter))
	b = appendStr(b, "cancels")
	b = appendArrayHeader(b, len(d.Cancels))
	for _, c := range d.Cancels {
		b = append(b, 0x82)
		b = appendStr(b, "oid")
		b = appendUint(b, uint64(c.Oid))
		b = appendStr(b, "instrumentId")
		b = appendInt(b, int64(c.InstrumentID))
	}
	return appendExpiryNonce(b, d.ExpiresAfter, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of cancelByCloid's data.
func (d *CancelByCloidData) AppendMsgpack(b []byte) []byte {
	b = appendMapHeader(b, 1+expiryKeys(d.ExpiresAfter))
	b = appendStr(b, "cancels")
	b = appendArrayHeader(b, len(d.Cancels))
	for _, c := range d.Cancels {
		b = append(b, 0x82)
		b = appendStr(b, "cloid")
		b = appendStr(b, c.Cloid)
		b = appendStr(b, "instrumentId")
		b = appendInt(b, int64(c.InstrumentID))
	}
	return appendExpiryNonce(b, d.ExpiresAfter, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of cancelByInstrument's data.
func (d *CancelByInstrumentData) AppendMsgpack(b []byte) []byte {
	b = appendMapHeader(b, 1+expiryKeys(d.ExpiresAfter))
	b = appendStr(b, "instrumentId")
	b = appendInt(b, int64(d.InstrumentID))
	return appendExpiryNonce(b, d.ExpiresAfter, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of cancelAll's data.
func (d *CancelAllData) AppendMsgpack(b []byte) []byte {
	b = appendMapHeader(b, expiryKeys(d.ExpiresAfter))
	return appendExpiryNonce(b, d.ExpiresAfter, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of a spot or derivative transfer's data.
func (d *TransferData) AppendMsgpack(b []byte) []byte {
	b = append(b, 0x84)
	b = appendStr(b, "collateralId")
	b = appendInt(b, int64(d.CollateralID))
	b = appendStr(b, "amount")
	b = appendStr(b, d.Amount)
	b = appendStr(b, "destination")
	b = appendStr(b, d.Destination)
	return appendExpiryNonce(b, 0, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of an internal transfer's data.
func (d *InternalTransferData) AppendMsgpack(b []byte) []byte {
	b = append(b, 0x84)
	b = appendStr(b, "collateralId")
	b = appendInt(b, int64(d.CollateralID))
	b = appendStr(b, "amount")
	b = appendStr(b, d.Amount)
	b = appendStr(b, "toDerivativesAccount")
	b = appendBool(b, d.ToDerivativesAccount)
	return appendExpiryNonce(b, 0, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of a withdrawal's data.
func (d *WithdrawData) AppendMsgpack(b []byte) []byte {
	b = append(b, 0x84)
	b = appendStr(b, "collateralId")
	b = appendInt(b, int64(d.CollateralID))
	b = appendStr(b, "amount")
	b = appendStr(b, d.Amount)
	b = appendStr(b, "chainId")
	b = appendInt(b, int64(d.ChainID))
	return appendExpiryNonce(b, 0, d.Nonce)
}

// ActionData is implemented by every action.data type (PlaceOrderData, CancelByOidData, ...; always as a pointer):
// it appends the exact MessagePack bytes that are hashed for the signature.
type ActionData interface {
	// AppendMsgpack appends the data's MessagePack bytes to b.
	AppendMsgpack(b []byte) []byte
}

// AppendActionMsgpack appends the MessagePack form of an action's data. data must be one of the
// action data pointers (*PlaceOrderData, *CancelByOidData, ...); values are accepted too.
func AppendActionMsgpack(b []byte, data any) ([]byte, error) {
	if d := asActionData(data); d != nil {
		return d.AppendMsgpack(b), nil
	}
	return b, fmt.Errorf("cannot encode %T as action data: want one of the action data types of package api", data)
}

func asActionData(data any) ActionData {
	switch d := data.(type) {
	case *OrderWire, OrderWire:
		return nil
	case ActionData:
		return d
	case PlaceOrderData:
		return &d
	case CancelByOidData:
		return &d
	case CancelByCloidData:
		return &d
	case CancelByInstrumentData:
		return &d
	case CancelAllData:
		return &d
	case TransferData:
		return &d
	case InternalTransferData:
		return &d
	case WithdrawData:
		return &d
	}
	return nil
}
