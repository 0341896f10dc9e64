package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// TestDecodeBothSDKGenerations: the shapes the two SDK generations disagree on decode the same.
func TestDecodeBothSDKGenerations(t *testing.T) {
	var snake, camel Page[Fill]
	if err := json.Unmarshal([]byte(`{"data":[{"trade_id":1}],"page":1,"limit":1,"total_count":3,"total_pages":3,"has_next":true,"has_prev":false}`), &snake); err != nil {
		t.Fatal(err)
	}
	// guards the camelCase envelope read as "no next page" (AllPages stopped after page 1)
	if err := json.Unmarshal([]byte(`{"data":[{"trade_id":1}],"page":1,"limit":1,"total_count":3,"totalPages":3,"hasNext":true,"hasPrev":false}`), &camel); err != nil {
		t.Fatal(err)
	}
	if camel.TotalPages != 3 || !camel.HasNext || camel.TotalCount != 3 {
		t.Errorf("camelCase envelope: %+v", camel)
	}
	if snake.TotalPages != camel.TotalPages || snake.HasNext != camel.HasNext {
		t.Errorf("snake %+v and camel %+v differ", snake, camel)
	}
	var obj, list []Collateral
	if err := json.Unmarshal([]byte(`[{"id":1,"coll_risk":{"weight_tiers":[{"amount":1000,"weight":0.9}],"max_margin_cap":5,"stale_price_guard_weight":0.5,"enabled":true},
		"bridge_by_chain":[{"bridge_chain_type":1,"bridge_chain_id":42161,"token_address":"0xT","bridge_contract_address":"0xB","enabled":true}]}]`), &obj); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`[{"id":1,"coll_risk":[{"weight_tiers":[{"amount":1000,"weight":0.9}],"max_margin_cap":5,"stale_price_guard_weight":0.5}],
		"bridge_by_chain":[{"bridgeChainType":1,"bridgeChainId":42161,"tokenAddress":"0xT","bridgeContractAddress":"0xB","enabled":true}]}]`), &list); err != nil {
		t.Fatal(err)
	}
	o, l := obj[0], list[0]
	if len(l.CollRisk.WeightTiers) != 1 || !l.CollRisk.WeightTiers[0].Weight.Equal(o.CollRisk.WeightTiers[0].Weight) ||
		!l.CollRisk.MaxMarginCap.Equal(o.CollRisk.MaxMarginCap) || !l.CollRisk.StalePriceGuardWeight.Equal(o.CollRisk.StalePriceGuardWeight) {
		t.Errorf("coll_risk as an array %+v, as an object %+v", l.CollRisk, o.CollRisk)
	}
	if l.BridgeByChain[0] != o.BridgeByChain[0] {
		t.Errorf("bridge camelCase %+v, snake_case %+v", l.BridgeByChain[0], o.BridgeByChain[0])
	}
	var none []Collateral
	if err := json.Unmarshal([]byte(`[{"id":2,"coll_risk":[]},{"id":3,"coll_risk":null}]`), &none); err != nil || len(none) != 2 {
		t.Errorf("empty coll_risk: %v", err)
	}
	if err := json.Unmarshal([]byte(`[{"id":2,"coll_risk":7}]`), &none); err == nil {
		t.Error("coll_risk 7 accepted")
	}
	for _, raw := range []string{`{"instrument_name":"BTC-PERP","bids":[],"asks":[],"timestamp":1769688000000,"sequence_number":12}`,
		`{"symbol":"BTC-PERP","bids":[],"asks":[],"timestamp":1769688000000,"sequence_number":"12"}`} {
		var b OrderBook
		if err := json.Unmarshal([]byte(raw), &b); err != nil || b.Symbol != "BTC-PERP" || b.Sequence != 12 {
			t.Errorf("%s: %+v %v", raw, b, err)
		}
	}
}

// TestInstrumentLeverageNoSetting: {} and null mean "no setting", not a decode error; an object
// of other fields is still an error.
func TestInstrumentLeverageNoSetting(t *testing.T) {
	answer := ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(answer))
	}))
	defer srv.Close()
	c := New(srv.URL, WithRetry(RetryPolicy{Attempts: 1}))
	user := "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	for _, a := range []string{`{}`, ` null `, `{ }`} {
		answer = a
		got, err := c.InstrumentLeverage(context.Background(), user, "BTC-PERP")
		if err != nil || !got.Leverage.IsZero() {
			t.Errorf("%q: %+v %v, want no setting", a, got, err)
		}
	}
	answer = `{"address":"` + user + `","instrument_id":1,"instrument":"BTC-PERP","margin_type":"cross","leverage":"7","updated_at":1769688000}`
	if got, err := c.InstrumentLeverage(context.Background(), user, "BTC-PERP"); err != nil || got.Leverage.String() != "7" {
		t.Errorf("a setting: %+v %v", got, err)
	}
	answer = `{"other":1}`
	if _, err := c.InstrumentLeverage(context.Background(), user, "BTC-PERP"); err == nil {
		t.Error("an answer with none of the record's fields decoded")
	}
}

// TestAllPagesCamelCaseEnvelope: AllPages reads every page of an envelope in the npm SDK's
// camelCase (totalPages, hasNext); it used to stop after page 1, taking hasNext for false.
func TestAllPagesCamelCaseEnvelope(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Params struct{ Page int } `json:"params"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		p := req.Params.Page
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":[{"trade_id":` + strconv.Itoa(p) + `}],"page":` + strconv.Itoa(p) +
			`,"limit":1,"total_count":3,"totalPages":3,"hasNext":` + strconv.FormatBool(p < 3) + `,"hasPrev":` + strconv.FormatBool(p > 1) + `}`))
	}))
	defer srv.Close()
	c := New(srv.URL, WithRetry(RetryPolicy{Attempts: 1}))
	user := "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	all, err := AllPages(context.Background(), func(ctx context.Context, p PageParams) (Page[Fill], error) {
		return c.Fills(ctx, user, p)
	}, 1, nil)
	if err != nil || len(all) != 3 || all[2].TradeID != 3 {
		t.Fatalf("%d fills %+v %v, want the 3 of 3 pages", len(all), all, err)
	}
}
