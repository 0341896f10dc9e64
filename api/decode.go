package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// Time is a timestamp that decodes from an ISO 8601 string, or from Unix seconds or milliseconds
// sent as a number or a numeric string (values above 10^11 are milliseconds). It encodes as Unix
// milliseconds.
type Time struct{ time.Time }

// UnmarshalJSON implements json.Unmarshaler.
func (t *Time) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(b, `"`))
	if s == "" || s == "null" || s == "0" {
		*t = Time{}
		return nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		*t = Time{unixAuto(n)}
		return nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && math.Abs(f) < 1e17 {
		*t = Time{unixAuto(int64(f))} // 1769690400000.0 or 1.7696904e9
		return nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if v, err := time.Parse(layout, s); err == nil {
			*t = Time{v.UTC()}
			return nil
		}
	}
	return fmt.Errorf("bad timestamp %q: want ISO 8601 or Unix seconds or milliseconds", truncate(s, 40))
}

// MarshalJSON implements json.Marshaler (Unix milliseconds, 0 for the zero time).
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("0"), nil
	}
	return strconv.AppendInt(nil, t.UnixMilli(), 10), nil
}

func unixAuto(n int64) time.Time {
	if n > 1e11 || n < -1e11 {
		return time.UnixMilli(n).UTC()
	}
	return time.Unix(n, 0).UTC()
}

// OptDecimal is a decimal that may be absent: null and "" decode as not Valid.
type OptDecimal struct {
	Decimal decimal.Decimal
	Valid   bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (o *OptDecimal) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(b, `"`))
	if s == "" || s == "null" {
		*o = OptDecimal{}
		return nil
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return fmt.Errorf("bad decimal %q", truncate(s, 40))
	}
	*o = OptDecimal{Decimal: d, Valid: true}
	return nil
}

// MarshalJSON implements json.Marshaler ("" when not Valid).
func (o OptDecimal) MarshalJSON() ([]byte, error) {
	if !o.Valid {
		return []byte(`""`), nil
	}
	return json.Marshal(o.Decimal.String())
}

func parseIntToken(b []byte, what string) (int64, error) {
	s := string(bytes.Trim(b, `"`))
	if s == "null" || s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if f, ferr := strconv.ParseFloat(s, 64); ferr == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f), nil // a whole number written as 100.0 or 1e3
		}
		return 0, fmt.Errorf("bad %s %q: want an integer", what, truncate(s, 40))
	}
	return n, nil
}

func parseUintToken(b []byte, what string) (uint64, error) {
	s := string(bytes.Trim(b, `"`))
	if s == "null" || s == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad %s %q: want a non-negative integer", what, truncate(s, 40))
	}
	return n, nil
}

// UnmarshalJSON implements json.Unmarshaler (number or numeric string).
func (v *InstrumentID) UnmarshalJSON(b []byte) error {
	n, err := parseIntToken(b, "instrument id")
	*v = InstrumentID(n)
	return err
}

// UnmarshalJSON implements json.Unmarshaler (number or numeric string).
func (v *CollateralID) UnmarshalJSON(b []byte) error {
	n, err := parseIntToken(b, "collateral id")
	*v = CollateralID(n)
	return err
}

// UnmarshalJSON implements json.Unmarshaler (number or numeric string).
func (v *Int) UnmarshalJSON(b []byte) error {
	n, err := parseIntToken(b, "integer")
	*v = Int(n)
	return err
}

// UnmarshalJSON implements json.Unmarshaler (number or numeric string).
func (v *OrderID) UnmarshalJSON(b []byte) error {
	n, err := parseUintToken(b, "order id")
	*v = OrderID(n)
	return err
}

// UnmarshalJSON implements json.Unmarshaler (number or numeric string).
func (v *TradeID) UnmarshalJSON(b []byte) error {
	n, err := parseUintToken(b, "trade id")
	*v = TradeID(n)
	return err
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// UnmarshalJSON implements json.Unmarshaler. It accepts the paged envelope with its numbers as
// numbers or numeric strings, its keys in snake_case (the spec) or camelCase (totalPages,
// hasNext: the npm SDK's fills), and also a bare array of records (read as a single page).
func (p *Page[T]) UnmarshalJSON(b []byte) error { return p.decode(b, nil) }

// decode is UnmarshalJSON with drop for the bad rows of the data (nil: a bad row fails the page;
// see rows).
func (p *Page[T]) decode(b []byte, drop dropFunc) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '[' {
		var d []T
		if err := decodeRows(b, &d, drop); err != nil {
			return err
		}
		*p = Page[T]{Data: d, Page: 1, Limit: len(d), TotalCount: len(d), TotalPages: 1}
		return nil
	}
	var aux struct {
		Data        json.RawMessage `json:"data"`
		Page        Int             `json:"page"`
		Limit       Int             `json:"limit"`
		TotalCount  Int             `json:"total_count"`
		TotalPages  Int             `json:"total_pages"`
		HasNext     bool            `json:"has_next"`
		HasPrev     bool            `json:"has_prev"`
		TotalCountC *Int            `json:"totalCount"`
		TotalPagesC *Int            `json:"totalPages"`
		HasNextC    *bool           `json:"hasNext"`
		HasPrevC    *bool           `json:"hasPrev"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	var d []T
	if len(aux.Data) > 0 {
		if err := decodeRows(aux.Data, &d, drop); err != nil {
			return err
		}
	}
	*p = Page[T]{Data: d, Page: int(aux.Page), Limit: int(aux.Limit), TotalCount: int(aux.TotalCount),
		TotalPages: int(aux.TotalPages), HasNext: aux.HasNext, HasPrev: aux.HasPrev}
	if aux.TotalCountC != nil {
		p.TotalCount = int(*aux.TotalCountC)
	}
	if aux.TotalPagesC != nil {
		p.TotalPages = int(*aux.TotalPagesC)
	}
	if aux.HasNextC != nil {
		p.HasNext = *aux.HasNextC
	}
	if aux.HasPrevC != nil {
		p.HasPrev = *aux.HasPrevC
	}
	return nil
}

// UnmarshalJSON implements json.Unmarshaler: a level is {"price":..,"size":..} or [price, size].
func (l *BookLevel) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var pair []decimal.Decimal
		if err := json.Unmarshal(b, &pair); err != nil {
			return fmt.Errorf("book level: %v", err)
		}
		if len(pair) < 2 {
			return fmt.Errorf("book level %s: want [price, size]", truncate(string(b), 40))
		}
		*l = BookLevel{Price: pair[0], Size: pair[1]}
		return nil
	}
	type plain BookLevel
	var v plain
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*l = BookLevel(v)
	return nil
}

// UnmarshalJSON implements json.Unmarshaler: the instrument as instrument_name or symbol, the
// sequence number as a number or a numeric string.
func (o *OrderBook) UnmarshalJSON(b []byte) error {
	var aux struct {
		Name     string      `json:"instrument_name"`
		Symbol   string      `json:"symbol"`
		Bids     []BookLevel `json:"bids"`
		Asks     []BookLevel `json:"asks"`
		Time     Time        `json:"timestamp"`
		Sequence TradeID     `json:"sequence_number"` // a non-negative integer, as text or number
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	if aux.Name == "" {
		aux.Name = aux.Symbol
	}
	*o = OrderBook{Symbol: aux.Name, Bids: aux.Bids, Asks: aux.Asks, Time: aux.Time, Sequence: uint64(aux.Sequence)}
	return nil
}

// UnmarshalJSON implements json.Unmarshaler: coll_risk is an object in the spec and the Python
// SDK, an array of such objects in the TypeScript SDKs; from an array the first element is read
// (each declares one risk schedule per collateral), and an empty array or null is none.
func (r *CollateralRisk) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(b, &list); err != nil {
			return fmt.Errorf("coll_risk: %v", err)
		}
		if len(list) == 0 {
			*r = CollateralRisk{}
			return nil
		}
		b = list[0]
	}
	if string(b) == "null" {
		*r = CollateralRisk{}
		return nil
	}
	if len(b) == 0 || b[0] != '{' {
		return fmt.Errorf("coll_risk %s: want an object or an array of objects", truncate(string(b), 40))
	}
	type plain CollateralRisk
	var v struct {
		plain
		WeightTiersC           []WeightTier     `json:"weightTiers"`
		MaxMarginCapC          *decimal.Decimal `json:"maxMarginCap"`
		StalePriceGuardWeightC *decimal.Decimal `json:"stalePriceGuardWeight"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = CollateralRisk(v.plain)
	if v.WeightTiersC != nil {
		r.WeightTiers = v.WeightTiersC
	}
	if v.MaxMarginCapC != nil {
		r.MaxMarginCap = *v.MaxMarginCapC
	}
	if v.StalePriceGuardWeightC != nil {
		r.StalePriceGuardWeight = *v.StalePriceGuardWeightC
	}
	return nil
}

// UnmarshalJSON implements json.Unmarshaler: the keys in snake_case (the spec, the newer SDK
// source) or camelCase (bridgeChainType...: the npm SDK's declaration).
func (br *Bridge) UnmarshalJSON(b []byte) error {
	type plain Bridge
	var v struct {
		plain
		ChainTypeC *Int    `json:"bridgeChainType"`
		ChainIDC   *Int    `json:"bridgeChainId"`
		TokenC     *string `json:"tokenAddress"`
		ContractC  *string `json:"bridgeContractAddress"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*br = Bridge(v.plain)
	if v.ChainTypeC != nil {
		br.BridgeChainType = *v.ChainTypeC
	}
	if v.ChainIDC != nil {
		br.BridgeChainID = *v.ChainIDC
	}
	if v.TokenC != nil {
		br.TokenAddress = *v.TokenC
	}
	if v.ContractC != nil {
		br.BridgeContractAddress = *v.ContractC
	}
	return nil
}
