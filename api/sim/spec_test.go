package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// The spec's JSON types, written once from spec/exchange-api.md and checked against live answers
// independently of the golden files. A field's schema is a type code (below), an obj (a nested
// object), an arr (an array of objects) or a dict (an object of any keys to objects).
//
// Type codes: int (an integer number), num (any number), str, dec (a string holding a decimal),
// decOrEmpty, bool, iso (ISO 8601 UTC with milliseconds), sec (Unix seconds), ms (Unix
// milliseconds), addr (0x and 40 hex digits), hex (0x and hex digits), any.
type (
	obj  map[string]any
	arr  struct{ of obj }
	dict struct{ of obj }
)

var (
	orderSchema = obj{"order_id": "int", "user": "addr", "instrument_id": "int", "instrument": "str", "side": "str",
		"position_side": "str", "limit_price": "dec", "size": "dec", "unfilled": "dec", "state": "str", "cloid": "str",
		"tif": "str", "post_only": "bool", "reduce_only": "bool", "trigger_px": "decOrEmpty", "is_market": "bool",
		"tpsl": "str", "grouping": "str", "timestamp": "iso"}
	fillSchema = obj{"instrument_id": "int", "instrument": "str", "account": "addr", "order_id": "int", "cloid": "str",
		"trade_id": "int", "side": "str", "position_side": "str", "direction": "str", "price": "dec", "size": "dec",
		"closed_pnl": "dec", "start_size": "dec", "start_price": "dec", "fee": "dec", "broker_fee": "dec",
		"fee_token_id": "int", "crossed": "bool", "tx_hash": "hex", "fill_type": "int", "notional_value": "dec",
		"block_timestamp": "iso", "open_direction": "opt:enum:openLong|openShort"}
	positionSchema = obj{"user": "addr", "instrument_id": "int", "instrument": "str", "position_side": "str",
		"size": "dec", "entry_price": "dec", "position_value": "dec", "margin_mode": "str", "leverage": "dec",
		"margin": "dec", "updated_at": "sec"} // margin: the SDKs declare it (the spec's table has not)
	leverageSchema = obj{"address": "addr", "instrument_id": "int", "instrument": "str", "margin_type": "str",
		"leverage": "dec", "updated_at": "sec"}
	balanceSchema = obj{"balance": "num", "withdrawable_balance": "num"}
	legSchema     = obj{"instrument_id": "int", "instrument_name": "str", "side": "enum:BOTH|LONG|SHORT", "size": "num",
		"entry_price": "num", "leverage": obj{"type": "str", "value": "num"}, "position_value": "num"}
	summarySchema = obj{"address": "addr", "margin_mode": "str", "multi_asset_mode": "bool", "hedge_mode": "bool",
		"spot_collateral": dict{balanceSchema}, "collateral": dict{balanceSchema},
		"vault_balances":    dict{obj{"withdrawable_shares": "num", "total_shares": "num", "amount": "num"}},
		"staked_collateral": "num",
		"perp_positions": dict{obj{"position_type": "str", "legs": arr{legSchema}, "liquidation_price": "num",
			"mm": "num", "im": "num", "upnl": "num"}},
		"initial_margin_utilization": "num", "maintenance_margin_utilization": "num", "upnl": "num",
		"total_account_equity": "num", "margin_balance": "num", "initial_margin": "num", "maintenance_margin": "num",
		"total_volume": "num", "total_pnl": "num", "available_balance": "num", "transfer_margin_req": "num",
		"max_drawdown": "num", "spot_account_equity": "num", "derivative_account_equity": "num", "spot_volume": "num"}
	brokerSchema = obj{"account": "addr", "broker": "addr", "max_fee_rate": "dec", "updated_at": "sec"}
	perpSchema   = obj{"id": "int", "name": "str", "price_index": "str", "lot_size": "num", "tick_size": "num",
		"settlement_currency": "int", "only_isolated": "bool", "max_leverage": "num", "delisted": "bool",
		"min_notional_usd": "num", "listed_at_block_timestamp": "ms",
		"margin_tiers": arr{obj{"notional_usd_threshold": "dec", "max_leverage": "num", "mmr": "num", "mmd": "num"}}}
	spotSchema = obj{"id": "int", "name": "str", "price_index": "str", "lot_size": "num", "tick_size": "num",
		"base_asset": "int", "quote_asset": "int", "stable_pair": "bool", "min_size_in_quote_asset": "num",
		"listed_at_block_timestamp": "ms"}
	collateralSchema = obj{"id": "int", "symbol": "str", "name": "str", "decimals": "int", "default_coll_weight": "num",
		"price_index": "str", "type": "int", "transfer_notional_fee": "num", "withdrawal_fee": "num", "added_at_block": "int",
		"bridge_by_chain": arr{obj{"bridge_chain_type": "int", "bridge_chain_id": "int", "token_address": "str",
			"bridge_contract_address": "str", "enabled": "bool"}},
		"coll_risk": obj{"weight_tiers": arr{obj{"amount": "num", "weight": "num"}}, "max_margin_cap": "num",
			"stale_price_guard_weight": "num", "enabled": "bool"}}
	tickerSchema = obj{"type": "str", "symbol": "str", "mark_price": "dec", "mid_price": "dec", "index_price": "dec",
		"best_bid_price": "dec", "best_ask_price": "dec", "best_bid_size": "dec", "best_ask_size": "dec",
		"funding_rate": "dec", "open_interest": "dec", "volume_24h": "dec", "change_24h": "dec",
		"max_trading_price": "dec", "min_trading_price": "dec", "last_price": "dec", "last_updated": "ms"}
	midSchema    = obj{"symbol": "str", "mid_price": "dec"}
	candleSchema = obj{"time": "ms", "open": "num", "high": "num", "low": "num", "close": "num", "volume": "num"}
	// orderbook is not in the spec's table: its shape is the SDKs'.
	bookSchema = obj{"instrument_name": "str", "bids": arr{obj{"price": "dec", "size": "dec"}},
		"asks": arr{obj{"price": "dec", "size": "dec"}}, "timestamp": "ms", "sequence_number": "int"}
)

// paged is the paged envelope around records.
func paged(of obj) obj {
	return obj{"data": arr{of}, "page": "int", "limit": "int", "total_count": "int", "total_pages": "int",
		"has_next": "bool", "has_prev": "bool"}
}

// txSchema is the transaction response with the given data; cancelByOid has success, not error.
func txSchema(data any, cancelByOid bool) obj {
	o := obj{"tx_hash": "hex", "tx_type": "int", "data": data, "address": "addr"}
	if cancelByOid {
		o["success"] = "bool"
	} else {
		o["error"] = "str"
	}
	return o
}

var (
	isoRe  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`)
	addrRe = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	hexRe  = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
)

// conform lists every way v differs from the schema: missing or extra fields and wrong types.
func conform(path string, v any, schema any) []string {
	switch s := schema.(type) {
	case obj:
		m, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %T, want an object", path, v)}
		}
		var errs []string
		for k, sub := range s {
			x, ok := m[k]
			if code, _ := sub.(string); !ok && strings.HasPrefix(code, "opt:") {
				continue
			}
			if !ok {
				errs = append(errs, path+"."+k+": missing")
				continue
			}
			errs = append(errs, conform(path+"."+k, x, sub)...)
		}
		for k := range m {
			if _, ok := s[k]; !ok {
				errs = append(errs, path+"."+k+": not in the spec")
			}
		}
		return errs
	case arr:
		a, ok := v.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %T, want an array", path, v)}
		}
		var errs []string
		for i, x := range a {
			errs = append(errs, conform(fmt.Sprintf("%s[%d]", path, i), x, s.of)...)
		}
		return errs
	case dict:
		m, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %T, want an object", path, v)}
		}
		var errs []string
		for k, x := range m {
			errs = append(errs, conform(path+"["+k+"]", x, s.of)...)
		}
		return errs
	case string:
		if err := checkScalar(v, s); err != "" {
			return []string{fmt.Sprintf("%s: %v: %s", path, v, err)}
		}
	}
	return nil
}

func checkScalar(v any, code string) string {
	str, isStr := v.(string)
	f, isNum := v.(float64)
	if code, ok := strings.CutPrefix(code, "opt:"); ok {
		if v == nil {
			return ""
		}
		return checkScalar(v, code)
	}
	if vals, ok := strings.CutPrefix(code, "enum:"); ok {
		if !isStr || !slices.Contains(strings.Split(vals, "|"), str) {
			return "want one of " + vals
		}
		return ""
	}
	switch code {
	case "any":
	case "str":
		if !isStr {
			return "want a string"
		}
	case "dec", "decOrEmpty":
		if !isStr {
			return "want a decimal string"
		}
		if code == "decOrEmpty" && str == "" {
			return ""
		}
		if _, err := decimal.NewFromString(str); err != nil {
			return "want a decimal string"
		}
	case "bool":
		if _, ok := v.(bool); !ok {
			return "want a boolean"
		}
	case "num":
		if !isNum {
			return "want a number"
		}
	case "int":
		if !isNum || f != math.Trunc(f) {
			return "want an integer"
		}
	case "sec":
		if !isNum || f != math.Trunc(f) || f < 1e9 || f > 1e10 {
			return "want Unix seconds"
		}
	case "ms":
		if !isNum || f != math.Trunc(f) || f < 1e12 || f > 1e13 {
			return "want Unix milliseconds"
		}
	case "iso":
		if !isStr || !isoRe.MatchString(str) {
			return "want ISO 8601 UTC with milliseconds"
		}
	case "addr":
		if !isStr || !addrRe.MatchString(str) {
			return "want a 0x address"
		}
	case "hex":
		if !isStr || !hexRe.MatchString(str) {
			return "want 0x hex"
		}
	default:
		return "unknown schema code " + code
	}
	return ""
}

// TestSpecShapes: every /info answer and every /exchange answer, taken from a session that
// has open, filled, cancelled and trigger orders, positions and transfers, has exactly the
// spec's fields with the spec's JSON types.
func TestSpecShapes(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	a, b := alice.Address(), bob.Address()
	var errs []string
	check := func(name string, raw string, schema any) {
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatalf("%s: %v: %s", name, err, raw)
		}
		errs = append(errs, conform(name, v, schema)...)
	}
	exchange := func(name string, c *api.Client, action string, data api.ActionData, schema obj) {
		body := signedBy(t, c, action, data)
		code, raw := e.postRaw(t, "/exchange", string(body))
		if code != 200 {
			t.Fatalf("%s: %d %s", name, code, raw)
		}
		check(name, raw, schema)
	}
	now := e.nowMs()
	nonce := now + 500000 // clear of the clients' own clock nonces (expiresAfter must come after it)
	next := func() uint64 { nonce++; return nonce }
	sell := limit(1, api.SideSell, "97300", "0.5")
	sell.Cloid = "spec-1"
	exchange("placeOrder", alice, "placeOrder", &api.PlaceOrderData{Orders: []api.OrderWire{sell}, ExpiresAfter: now + 600000, Nonce: next()},
		txSchema(obj{"status": obj{"oid": "int", "state": "str"}}, false))
	exchange("placeOrder filled", bob, "placeOrder", &api.PlaceOrderData{Orders: []api.OrderWire{limit(1, api.SideBuy, "97400", "0.2")},
		ExpiresAfter: now + 600000, Nonce: next()},
		txSchema(obj{"status": obj{"oid": "int", "state": "str", "totalSz": "dec", "avgPx": "dec"}}, false))
	stop := limit(1, api.SideSell, "90000", "0.2")
	stop.TriggerPx, stop.Tpsl, stop.ReduceOnly = "90000", api.TpslStopLoss, true
	place(t, bob, stop)
	oid := oid(t, place(t, alice, limit(1, api.SideSell, "98000", "0.1")))
	exchange("cancelByOid", alice, "cancelByOid", &api.CancelByOidData{Cancels: []api.CancelOid{{Oid: oid, InstrumentID: 1}},
		ExpiresAfter: now + 600000, Nonce: next()}, txSchema(obj{"status": arr{obj{"success": obj{"success": "str"}}}}, true))
	place(t, alice, limit(2, api.SideSell, "3400", "1"))
	exchange("cancelByInstrument", alice, "cancelByInstrument", &api.CancelByInstrumentData{InstrumentID: 2, ExpiresAfter: now + 600000, Nonce: next()},
		txSchema(obj{"success": "str", "orders_cancelled": "int"}, false))
	exchange("cancelAll", bob, "cancelAll", &api.CancelAllData{ExpiresAfter: now + 600000, Nonce: next()},
		txSchema(obj{"success": "str", "orders_cancelled": "int"}, false))
	place(t, bob, stop)
	for _, act := range []string{"spotBalanceTransferRequest", "derivativeBalanceTransferRequest"} {
		exchange(act, alice, act, &api.TransferData{CollateralID: 1, Amount: "10", Destination: b, Nonce: next()}, txSchema(obj{}, false))
	}
	exchange("internalBalanceTransferRequest", alice, "internalBalanceTransferRequest",
		&api.InternalTransferData{CollateralID: 1, Amount: "5", ToDerivativesAccount: true, Nonce: next()}, txSchema(obj{}, false))
	for _, act := range []string{"spotWithdrawRequest", "derivativeWithdrawRequest"} {
		exchange(act, alice, act, &api.WithdrawData{CollateralID: 1, Amount: "20", ChainID: 1, Nonce: next()}, txSchema(obj{"nonce": "str"}, false))
	}
	e.clock.Add(90 * time.Second)
	from := e.clock.Now().Add(-3 * time.Hour).Unix()
	queries := []struct {
		name, params string
		schema       any
	}{
		{"account_summary", fmt.Sprintf(`{"user":%q}`, b), summarySchema},
		{"brokers_check", fmt.Sprintf(`{"user":%q}`, a), paged(brokerSchema)},
		{"instruments", `{"type":"all"}`, obj{"perps": arr{perpSchema}, "spot": arr{spotSchema}}},
		{"chart", fmt.Sprintf(`{"symbol":"1","chart_type":"ltp","resolution":"1","from":%d,"to":%d}`, from, from+4*3600), arr{candleSchema}},
		{"fills", fmt.Sprintf(`{"user":%q}`, b), paged(fillSchema)},
		{"order_history", fmt.Sprintf(`{"user":%q}`, b), paged(orderSchema)},
		{"open_orders", fmt.Sprintf(`{"user":%q}`, b), paged(orderSchema)},
		{"instrument_leverage", fmt.Sprintf(`{"user":%q,"symbol":"BTC-PERP"}`, b), leverageSchema},
		{"supported_collateral", `{"symbol":"all"}`, arr{collateralSchema}},
		{"positions", fmt.Sprintf(`{"user":%q}`, b), arr{positionSchema}},
		{"ticker", `{"symbol":"all"}`, arr{tickerSchema}},
		{"mids", `{"symbol":"all"}`, arr{midSchema}},
		{"orderbook", `{"symbol":"BTC-PERP"}`, bookSchema},
	}
	for _, q := range queries {
		code, raw := e.postRaw(t, "/info", fmt.Sprintf(`{"method":%q,"params":%s}`, q.name, q.params))
		if code != 200 {
			t.Fatalf("%s: %d %s", q.name, code, raw)
		}
		if !strings.Contains(raw, ":") || raw == "[]" {
			t.Errorf("%s: an empty answer proves nothing: %s", q.name, raw)
		}
		check(q.name, raw, q.schema)
	}
	sort.Strings(errs)
	for _, s := range errs {
		t.Error(s)
	}
}

// signedBy signs data with the client's own key (the test accounts are named, so look it up).
func signedBy(t *testing.T, c *api.Client, action string, data api.ActionData) []byte {
	t.Helper()
	for _, name := range []string{"alice", "bob", "carol"} {
		if signer(t, name).Address() == c.Address() {
			return signed(t, name, action, data)
		}
	}
	t.Fatalf("no test key for %s", c.Address())
	return nil
}
