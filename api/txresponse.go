package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
)

// OrderStatus is the exchange's answer about one placed order.
type OrderStatus struct {
	Oid       OrderID    // 0 when the order got no id (rejected)
	Resting   bool       // the order rests on the book
	Filled    bool       // the order filled on arrival
	TotalSize OptDecimal // filled size, when the answer says
	AvgPrice  OptDecimal // average fill price, when the answer says
	Error     string     // why this order was rejected, "" otherwise
	// State is the order's state when the answer names it (the simulator's "open", "filled",
	// "cancelled"); "" when it does not.
	State string
}

// CancelStatus is the exchange's answer about one cancel.
type CancelStatus struct {
	OK    bool
	Error string
}

// errNoData is returned when a response carries no data to read.
var errNoData = errors.New("transaction response has no data")

func (r TxResponse) dataObject() (map[string]json.RawMessage, error) {
	raw := bytes.TrimSpace(r.Data)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errNoData
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("transaction response data is not an object: %v", err)
	}
	return m, nil
}

// statusElems returns data.status (or data.statuses) as a list: one object becomes one element.
func (r TxResponse) statusElems() ([]json.RawMessage, error) {
	m, err := r.dataObject()
	if err != nil {
		return nil, err
	}
	raw, ok := m["status"]
	if !ok {
		raw, ok = m["statuses"]
	}
	raw = bytes.TrimSpace(raw)
	if !ok || len(raw) == 0 || string(raw) == "null" {
		return nil, errors.New("transaction response data has no status")
	}
	if raw[0] != '[' {
		return []json.RawMessage{raw}, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("transaction response status: %v", err)
	}
	return list, nil
}

// OrderStatuses reads placeOrder's data.status: one {oid} (the spec), {oid,state,totalSz,avgPx}
// (the simulator), or an array of those, {resting:{oid}}, {filled:{oid?,total_size,average_price}}
// (or totalSz/avgPx), {error:"..."} or {error:{error:"..."}}, in the order the orders were sent.
// An element of any other shape is an error: the caller does not know what became of the order.
func (r TxResponse) OrderStatuses() ([]OrderStatus, error) {
	elems, err := r.statusElems()
	if err != nil {
		return nil, err
	}
	out := make([]OrderStatus, 0, len(elems))
	for i, e := range elems {
		st, err := parseOrderStatus(e)
		if err != nil {
			return nil, fmt.Errorf("order status %d: %v", i+1, err)
		}
		out = append(out, st)
	}
	return out, nil
}

type oidFields struct {
	Oid       *OrderID   `json:"oid"`
	State     string     `json:"state"`
	TotalSz   OptDecimal `json:"totalSz"`
	AvgPx     OptDecimal `json:"avgPx"`
	TotalSize OptDecimal `json:"total_size"`
	AvgPrice  OptDecimal `json:"average_price"`
}

// fill is the filled size and average price, whichever spelling the answer used.
func (f *oidFields) fill() (size, avg OptDecimal) {
	size, avg = f.TotalSz, f.AvgPx
	if !size.Valid {
		size = f.TotalSize
	}
	if !avg.Valid {
		avg = f.AvgPrice
	}
	return size, avg
}

type orderStatusShape struct {
	oidFields
	Resting *oidFields      `json:"resting"`
	Filled  *oidFields      `json:"filled"`
	Error   json.RawMessage `json:"error"`
}

func parseOrderStatus(raw json.RawMessage) (OrderStatus, error) {
	var st OrderStatus
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		st.Error = text.Clean(truncate(s, 300))
		switch strings.ToLower(strings.TrimSpace(st.Error)) {
		case "": // found by FuzzOrderStatuses
			return st, errors.New("empty order status")
		case "ok", "success", "accepted", "filled", "resting":
			// Success words without an id: not a rejection, and not known success either.
			return OrderStatus{}, fmt.Errorf("order status %q names no order", st.Error)
		}
		return st, nil
	}
	var sh orderStatusShape
	if err := json.Unmarshal(raw, &sh); err != nil {
		return st, err
	}
	st.Error = errorText(sh.Error)
	inner := &sh.oidFields
	switch {
	case sh.Resting != nil:
		st.Resting, inner = true, sh.Resting
	case sh.Filled != nil:
		st.Filled, inner = true, sh.Filled
	}
	if inner.Oid != nil {
		st.Oid = *inner.Oid
	}
	st.TotalSize, st.AvgPrice = inner.fill()
	st.State = text.Clean(truncate(inner.State, 20))
	switch st.State {
	case "open":
		st.Resting = true
	case "filled":
		st.Filled = true
	}
	if st.TotalSize.Valid && st.TotalSize.Decimal.IsNegative() || st.AvgPrice.Valid && st.AvgPrice.Decimal.IsNegative() {
		return st, fmt.Errorf("negative fill in %s", truncate(string(raw), 80))
	}
	// {filled:{total_size, average_price}} carries no oid in a public bot's reading: the fill
	// itself says what happened.
	known := st.Oid != 0 || st.Error != "" || (st.Filled && st.TotalSize.Valid && st.TotalSize.Decimal.IsPositive())
	if !known {
		return st, fmt.Errorf("no oid and no error in %s", truncate(string(raw), 80))
	}
	return st, nil
}

// errorText reads an order's error: "..." or {error:"..."}; "" when there is none.
func errorText(raw json.RawMessage) string {
	var inner struct {
		Error json.RawMessage `json:"error"`
	}
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' && json.Unmarshal(t, &inner) == nil && len(inner.Error) > 0 {
		raw = inner.Error
	}
	return rawText(raw, "")
}

// OrderIDs lists the ids the exchange gave the placed orders, skipping rejected ones. Use
// OrderStatuses to see the rejections.
func (r TxResponse) OrderIDs() ([]OrderID, error) {
	sts, err := r.OrderStatuses()
	if err != nil {
		return nil, err
	}
	ids := make([]OrderID, 0, len(sts))
	for _, s := range sts {
		if s.Oid != 0 {
			ids = append(ids, s.Oid)
		}
	}
	return ids, nil
}

// CancelStatuses reads cancelByOid's or cancelByCloid's data.status: one element per cancel,
// each {success:{success:"..."}}, {success:"..."}, "success" or {error:"..."}.
func (r TxResponse) CancelStatuses() ([]CancelStatus, error) {
	elems, err := r.statusElems()
	if err != nil {
		return nil, err
	}
	out := make([]CancelStatus, 0, len(elems))
	for _, e := range elems {
		out = append(out, parseCancelStatus(e))
	}
	return out, nil
}

func parseCancelStatus(raw json.RawMessage) CancelStatus {
	raw = bytes.TrimSpace(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "success" || s == "ok" || s == "cancelled" || s == "canceled" {
			return CancelStatus{OK: true}
		}
		return CancelStatus{Error: text.Clean(truncate(s, 300))}
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return CancelStatus{Error: "unreadable cancel status " + text.Clean(truncate(string(raw), 80))}
	}
	if e := rawText(m["error"], ""); e != "" {
		return CancelStatus{Error: e}
	}
	if v, ok := m["success"]; ok && string(bytes.TrimSpace(v)) != "false" && string(bytes.TrimSpace(v)) != "null" {
		return CancelStatus{OK: true}
	}
	return CancelStatus{Error: "cancel status without success: " + text.Clean(truncate(string(raw), 80))}
}

// CancelCount is how many orders a cancel cancelled: data.orders_cancelled (cancelByInstrument,
// cancelAll), else the number of successful elements of data.status (cancelByOid, cancelByCloid).
func (r TxResponse) CancelCount() (int, error) {
	m, err := r.dataObject()
	if err != nil {
		return 0, err
	}
	if raw, ok := m["orders_cancelled"]; ok {
		var n Int
		if err := json.Unmarshal(raw, &n); err != nil {
			return 0, fmt.Errorf("orders_cancelled: %v", err)
		}
		return int(n), nil
	}
	sts, err := r.CancelStatuses()
	if err != nil {
		return 0, errors.New("transaction response data has neither orders_cancelled nor status")
	}
	n := 0
	for _, s := range sts {
		if s.OK {
			n++
		}
	}
	return n, nil
}

// WithdrawalNonce reads a withdrawal's data.nonce (sent as a string or a number).
func (r TxResponse) WithdrawalNonce() (uint64, error) {
	m, err := r.dataObject()
	if err != nil {
		return 0, err
	}
	raw, ok := m["nonce"]
	if !ok {
		return 0, errors.New("transaction response data has no nonce")
	}
	n, err := strconv.ParseUint(string(bytes.Trim(bytes.TrimSpace(raw), `"`)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("withdrawal nonce %s is not a non-negative integer", truncate(string(raw), 40))
	}
	return n, nil
}

// UnmarshalJSON implements json.Unmarshaler, tolerantly where servers vary: tx_type as a number
// or a numeric string, error as a string or null (another value is kept as its JSON text),
// success as a boolean, "true"/"false" or 1/0. A value of another type is an error naming the
// field.
func (r *TxResponse) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	var aux struct {
		TxHash  json.RawMessage `json:"tx_hash"`
		TxType  Int             `json:"tx_type"`
		Error   json.RawMessage `json:"error"`
		Success json.RawMessage `json:"success"`
		Data    json.RawMessage `json:"data"`
		Address json.RawMessage `json:"address"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return fmt.Errorf("transaction response: %v", err)
	}
	out := TxResponse{TxType: aux.TxType, Error: rawText(aux.Error, ""), Data: aux.Data}
	var err error
	if out.TxHash, err = jsonString(aux.TxHash, "tx_hash"); err != nil {
		return err
	}
	if out.Address, err = jsonString(aux.Address, "address"); err != nil {
		return err
	}
	if out.Success, err = flexBool(aux.Success); err != nil {
		return err
	}
	*r = out
	return nil
}

// jsonString reads a JSON string field; null or absent is "".
func jsonString(raw json.RawMessage, field string) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("transaction response %s %s: want a string", field, truncate(string(raw), 40))
	}
	return s, nil
}

// flexBool reads success: a boolean, "true"/"false" or 1/0; null or absent is nil.
func flexBool(raw json.RawMessage) (*bool, error) {
	raw = bytes.TrimSpace(raw)
	var v bool
	switch string(raw) {
	case "", "null":
		return nil, nil
	case "true", `"true"`, "1", `"1"`:
		v = true
	case "false", `"false"`, "0", `"0"`:
	default:
		return nil, fmt.Errorf("transaction response success %s: want a boolean", truncate(string(raw), 40))
	}
	return &v, nil
}
