package sim

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// The shapes the official SDKs declare for the /info methods beyond the spec's table
// (@hotstuff-labs/ts-sdk 0.0.1-beta.13's dist/methods/info/*.d.ts; the Python SDK's dataclasses
// agree). The spec's own methods keep the spec's schemas (spec_test.go), which the SDKs share.
var (
	fundingSchema = obj{"user": "addr", "instrument_id": "int", "settlement_currency": "int", "funding_payment": "dec",
		"funding_rate": "dec", "mark_price": "dec", "size": "dec", "timestamp": "iso"}
	transferSchema = obj{"from": "addr", "to": "addr", "collateral_id": "int", "amount": "dec", "tx_hash": "hex",
		"type":      "enum:deposit|spot_withdraw|derivative_withdraw|spot_balance_transfer|derivative_balance_transfer|internal_balance_transfer|vault_deposit|vault_withdraw|insurance_seizure|insurance_cover",
		"timestamp": "iso",
		// the simulator's additions: the collateral's symbol, the fee paid, a withdrawal's chain,
		// an internal move's direction, a seizure's proceeds and price
		"collateral": "str", "fee": "dec", "chain_id": "opt:int",
		"direction": "opt:enum:spot_to_derivatives|derivatives_to_spot", "proceeds": "opt:dec", "price": "opt:dec"}
	historySchema = obj{"address": "addr", "total_pnl": "dec", "total_volume": "num", "account_value": "dec", "created_at": "iso"}
	feesSchema    = obj{"account": "addr", "spot_volume_14d": "dec", "spot_volume_30d": "dec", "stable_spot_volume_14d": "dec",
		"stable_spot_volume_30d": "dec", "perp_volume_14d": "dec", "perp_volume_30d": "dec", "option_volume_14d": "dec",
		"option_volume_30d": "dec", "total_volume_threshold": "int", "perp_maker_fee_rate": "num", "perp_taker_fee_rate": "num",
		"spot_maker_fee_rate": "num", "spot_taker_fee_rate": "num", "stable_spot_maker_fee_rate": "num",
		"stable_spot_taker_fee_rate": "num", "option_maker_fee_rate": "num", "option_taker_fee_rate": "num"}
	agentSchema = obj{"user": "addr", "agent_address": "addr", "agent_name": "str", "created_at_block_timestamp": "ms",
		"valid_until_timestamp": "ms"}
	volSplit       = obj{"maker_volume": "num", "taker_volume": "num"}
	referralSchema = obj{"address": "addr", "referrer": "str", "referrer_code": "str", "refer_timestamp": "int",
		"codes": "any", "referred_users": dict{obj{"code": "str", "joined_at": "int", "referred_volume": "num",
			"perp_volume": volSplit, "spot_volume": volSplit, "stable_spot_volume": volSplit,
			"referred_perp_rewards": "num", "referred_spot_rewards": "num"}},
		"to_claim_perp_rewards": "num", "to_claim_spot_rewards": "num", "claimed_perp_rewards": "num",
		"claimed_spot_rewards": "num", "total_referred_volume": "num", "rolling_referred_volume": "num",
		"referral_tier": obj{"total_referred_volume": "num", "fee_discount_rate": "num", "referrer_commission": "num"},
		"updated_at":    "int"}
	rewardSchema      = obj{"account": "addr", "collateral_id": "int", "source": "str", "is_spot": "bool", "amount": "dec", "claim_amount": "dec", "created_at": "int"}
	accountInfoSchema = obj{"account": obj{"address": "addr", "role": "int", "margin_mode": "enum:cross|isolated",
		"multi_asset_mode": "bool", "hedge_mode": "bool", "referrer": "str", "referral_codes": "any",
		"referral_timestamp": "int", "created_at_block_timestamp": "ms"},
		"rewards": arr{rewardSchema}, "history": arr{rewardSchema}}
	// bbo: the SDKs declare the five fields; the simulator adds the book's timestamp.
	bboSchema = obj{"symbol": "str", "best_bid_price": "dec", "best_ask_price": "dec", "best_bid_size": "dec",
		"best_ask_size": "dec", "timestamp": "ms"}
	oracleSchema = obj{"symbol": "str", "index_price": "dec", "ext_mark_price": "dec", "updated_at": "ms"}
	tradeSchema  = obj{"instrument_id": "int", "instrument": "str", "trade_id": "int", "tx_hash": "hex", "side": "enum:b|s",
		"price": "dec", "size": "dec", "maker": "addr", "taker": "addr", "timestamp": "iso"}
)

// sdkCall is one /info method as the SDKs call it: the spec's (and the Python SDK's) snake_case
// name and params, the npm TypeScript SDK's method name and params, the declared answer, and
// whether an empty answer is the truth (the simulator has no vaults or referrals).
type sdkCall struct {
	snake, camel string
	py, ts       string // params, with %[1]s for the user and %[2]s for another address
	schema       any
	emptyOK      bool
}

// sdkSession makes a session with an open order, a fill, a position, funding, each kind of
// transfer and an agent, and returns the env and the account (alice, short) and a counterparty
// (bob, long).
func sdkSession(t *testing.T) (*env, string, string) {
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	e.agentClient(t, alice, "alice-bot", 24*time.Hour)
	place(t, alice, limit(1, api.SideSell, "97300", "0.5"))
	place(t, bob, limit(1, api.SideBuy, "97400", "0.2"))
	place(t, alice, limit(2, api.SideSell, "3500", "1"))
	if _, err := alice.SpotTransfer(ctx(), 1, "10", bob.Address()); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.DerivativeTransfer(ctx(), 1, "10", bob.Address()); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.InternalTransfer(ctx(), 1, "5", true); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.SpotWithdraw(ctx(), 1, "20", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.DerivativeWithdraw(ctx(), 1, "20", 1); err != nil {
		t.Fatal(err)
	}
	e.sim.Advance(25 * time.Minute) // the clock starts at 12:40: funding is paid at 13:00
	return e, alice.Address(), bob.Address()
}

// TestSDKInfoMethods drives every /info method by both its names, with the params each SDK
// sends (the Python SDK's unset optionals as null), and checks each answer field by field
// against the shape the SDKs declare; an answer that is empty where the session holds data
// proves nothing and fails.
func TestSDKInfoMethods(t *testing.T) {
	t.Parallel()
	e, a, b := sdkSession(t)
	from := e.clock.Now().Add(-2 * time.Hour).Unix()
	chartTS := fmt.Sprintf(`{"symbol":"1","chart_type":"ltp","resolution":"1","from":%d,"to":%d}`, from, from+7200)
	chartPy := fmt.Sprintf(`{"instrument_id":1,"chart_type":"mark","resolution":"60","from":%d,"to":%d}`, from, from+7200)
	calls := []sdkCall{
		{"account_summary", "accountSummary", `{"user":%[1]q}`, `{"user":%[1]q}`, summarySchema, false},
		{"positions", "positions", `{"user":%[1]q,"instrument":null}`, `{"user":%[1]q,"instrument":"BTC-PERP"}`, arr{positionSchema}, false},
		{"open_orders", "openOrders", `{"user":%[1]q,"page":null,"limit":null}`, `{"user":%[1]q,"page":1,"limit":10}`, paged(orderSchema), false},
		{"order_history", "orderHistory", `{"user":%[1]q,"instrument_id":"1","limit":null}`, `{"user":%[1]q,"instrumentId":"1","limit":50}`, paged(orderSchema), false},
		{"fills", "fills", `{"user":%[1]q,"instrument_id":null,"limit":null}`, `{"user":%[1]q,"instrumentId":"1","limit":50}`, paged(fillSchema), false},
		{"funding_history", "fundingHistory", `{"user":%[1]q}`, `{"user":%[1]q}`, paged(fundingSchema), false},
		{"transfer_history", "transferHistory", `{"user":%[1]q}`, `{"user":%[1]q,"limit":20}`, arr{transferSchema}, false},
		{"account_history", "accountHistory", `{"user":%[1]q}`, `{"user":%[1]q}`, arr{historySchema}, false},
		{"user_fees", "userFees", `{"user":%[1]q}`, `{"user":%[1]q}`, feesSchema, false},
		{"instrument_leverage", "instrumentLeverage", `{"user":%[1]q,"symbol":"BTC-PERP"}`, `{"user":%[1]q,"symbol":"BTC-PERP"}`, leverageSchema, false},
		{"brokers_check", "brokersCheck", `{"user":%[1]q,"broker":null,"limit":null,"page":null}`, `{"user":%[1]q}`, paged(brokerSchema), false},
		{"all_agents", "allAgents", `{"user":%[1]q}`, `{"user":%[1]q}`, arr{agentSchema}, false},
		{"referral_summary", "referralSummary", `{"user":%[1]q}`, `{"user":%[1]q}`, referralSchema, false},
		{"account_info", "accountInfo", `{"user":%[1]q,"collateralId":null,"includeHistory":null}`, `{"user":%[1]q,"collateralID":1,"includeHistory":true}`, accountInfoSchema, false},
		{"instruments", "instruments", `{"type":"all"}`, `{"type":"perps"}`, obj{"perps": arr{perpSchema}, "spot": arr{spotSchema}}, false},
		{"supported_collateral", "supportedCollateral", `{}`, `{}`, arr{collateralSchema}, false},
		{"ticker", "ticker", `{"symbol":"all"}`, `{"symbol":"BTC-PERP"}`, arr{tickerSchema}, false},
		{"mids", "mids", `{}`, `{}`, arr{midSchema}, false},
		{"bbo", "bbo", `{"symbol":"BTC-PERP"}`, `{"symbol":"ETH-PERP"}`, arr{bboSchema}, false},
		{"oracle", "oracle", `{"symbol":"BTC-PERP"}`, `{"symbol":"ETH-PERP"}`, oracleSchema, false},
		{"orderbook", "orderbook", `{"symbol":"BTC-PERP","depth":null}`, `{"symbol":"BTC-PERP","depth":10}`, bookSchema, false},
		{"trades", "trades", `{"symbol":"BTC-PERP","limit":null}`, `{"symbol":"BTC-PERP","limit":5}`, arr{tradeSchema}, false},
		{"chart", "chart", chartPy, chartTS, arr{candleSchema}, false},
		{"vaults", "vaults", `{}`, `{}`, arr{obj{}}, true},
		{"sub_vaults", "subVaults", `{}`, `{"vaultAddress":%[2]q}`, arr{obj{}}, true},
		{"vault_balance", "vaultBalance", `{"user":%[1]q}`, `{"vaultAddress":%[2]q,"user":%[1]q}`, arr{obj{}}, true},
	}
	for _, c := range calls {
		for _, v := range []struct{ method, params string }{{c.snake, c.py}, {c.camel, c.ts}} {
			params := v.params
			if strings.Contains(params, "%[") {
				params = fmt.Sprintf(params, a, b)
			}
			body := fmt.Sprintf(`{"method":%q,"params":%s}`, v.method, params)
			code, raw := e.postRaw(t, "/info", body)
			if code != 200 {
				t.Errorf("%s: %d %s", body, code, raw)
				continue
			}
			var got any
			if err := json.Unmarshal([]byte(raw), &got); err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			if !c.emptyOK && isEmpty(got) {
				t.Errorf("%s: an empty answer proves nothing: %s", body, raw)
			}
			for _, msg := range conform(v.method, got, c.schema) {
				t.Errorf("%s: %s", body, msg)
			}
		}
	}
}

// isEmpty reports an empty array, or a paged envelope with no data.
func isEmpty(v any) bool {
	if l, ok := v.([]any); ok {
		return len(l) == 0
	}
	if m, ok := v.(map[string]any); ok {
		if d, ok := m["data"].([]any); ok {
			return len(d) == 0
		}
	}
	return false
}

// TestSDKInfoFilters: the SDKs' filters act (instrumentId and instrument_id on order history and
// fills, instrument on positions, limit on transfers and trades, depth on the book), and the
// session's records carry what happened (each transfer kind, the funding payment, the trade's
// maker and taker, the account's fee rates and volumes).
func TestSDKInfoFilters(t *testing.T) {
	t.Parallel()
	e, a, b := sdkSession(t)
	get := func(method, params string, args ...any) string {
		t.Helper()
		body := fmt.Sprintf(`{"method":%q,"params":%s}`, method, fmt.Sprintf(params, args...))
		code, raw := e.postRaw(t, "/info", body)
		if code != 200 {
			t.Fatalf("%s: %d %s", body, code, raw)
		}
		return raw
	}
	for _, key := range []string{"instrumentId", "instrument_id"} {
		if raw := get("orderHistory", `{"user":%q,%q:"2"}`, a, key); !contains(raw, `"total_count":1`) || !contains(raw, `"instrument":"ETH-PERP"`) {
			t.Errorf("order history filtered by %s=2: %s", key, raw)
		}
		if raw := get("fills", `{"user":%q,%q:2}`, a, key); !contains(raw, `"total_count":0`) {
			t.Errorf("fills filtered by %s=2 (alice filled only on BTC-PERP): %s", key, raw)
		}
	}
	if raw := get("positions", `{"user":%q,"instrument":"ETH-PERP"}`, b); raw != "[]" {
		t.Errorf("positions on ETH-PERP (bob holds BTC-PERP only): %s", raw)
	}
	raw := get("transferHistory", `{"user":%q}`, a)
	for _, kind := range []string{xferDeposit, xferSpot, xferDeriv, xferInternal, xferSpotWithdraw, xferDerivWithdraw} {
		if !contains(raw, `"type":"`+kind+`"`) {
			t.Errorf("transfer history lacks a %s: %s", kind, raw)
		}
	}
	if !contains(raw, `"from":"`+a+`","to":"`+b+`","collateral_id":1,"amount":"10"`) {
		t.Errorf("transfer to bob not recorded from alice to bob: %s", raw)
	}
	if raw := get("transfer_history", `{"user":%q,"limit":2}`, a); strings.Count(raw, `"type"`) != 2 {
		t.Errorf("transfer history limit 2: %s", raw)
	}
	if raw := get("transfer_history", `{"user":%q}`, b); !contains(raw, `"type":"spot_balance_transfer"`) {
		t.Errorf("the receiver's history lacks the transfer: %s", raw)
	}
	if raw := get("fundingHistory", `{"user":%q}`, b); !contains(raw, `"funding_payment":"-0.243`) || !contains(raw, `"size":"0.2"`) {
		t.Errorf("bob's funding (long 0.2 pays): %s", raw)
	}
	if raw := get("trades", `{"symbol":"BTC-PERP","limit":1}`); !contains(raw, `"maker":"`+a+`","taker":"`+b+`"`) {
		t.Errorf("trade's maker and taker: %s", raw)
	}
	raw = get("userFees", `{"user":%q}`, b)
	if !contains(raw, `"perp_volume_14d":"19460"`) || !contains(raw, `"perp_taker_fee_rate":0.0004`) || !contains(raw, `"perp_maker_fee_rate":-0.0001`) {
		t.Errorf("bob's fees (0.2 × 97300 taken): %s", raw)
	}
	if raw := get("orderbook", `{"symbol":"ETH-PERP","depth":1}`); !contains(raw, `"instrument_name":"ETH-PERP"`) || !contains(raw, `"sequence_number":1`) {
		t.Errorf("ETH-PERP book (one order added): %s", raw)
	}
	raw = get("accountHistory", `{"user":%q}`, b)
	var pts []struct {
		AccountValue string `json:"account_value"`
	}
	if err := json.Unmarshal([]byte(raw), &pts); err != nil || len(pts) < 2 {
		t.Errorf("bob's account history (deposit, trade, now): %v %s", err, raw)
	}
}

// TestSDKInfoRefusals: bad params get a 4xx with a message naming the param, never a 500: wrong
// JSON types, unknown instruments and keys, negative limits, a param under both spellings.
func TestSDKInfoRefusals(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	u := e.client("alice").Address()
	cases := []struct{ body, want string }{
		{`{"method":"orderHistory","params":{"user":%q,"instrumentId":"BTC"}}`, `params.instrumentId: unknown instrument "BTC"`},
		{`{"method":"fills","params":{"user":%q,"instrument_id":true}}`, "fills params.instrument_id is a boolean: send the id as a JSON integer or a string"},
		{`{"method":"fills","params":{"user":%q,"instrumentId":"1","instrument_id":"1"}}`, "params has both instrumentId and instrument_id"},
		{`{"method":"openOrders","params":{"user":%q,"limit":-5}}`, "params.limit -5: want 1 to 1000"},
		{`{"method":"openOrders","params":{"user":%q,"limit":"10"}}`, "open_orders params.limit is a string: send a JSON integer"},
		{`{"method":"openOrders","params":{"user":%q,"page":1.5}}`, "open_orders params.page 1.5 is not an integer"},
		{`{"method":"transferHistory","params":{"user":%q,"limit":-1}}`, "params.limit -1: want 1 to 1000"},
		{`{"method":"accountHistory","params":{"user":%q,"limit":100000}}`, "params.limit 100000: want 1 to 1000"},
		{`{"method":"trades","params":{"symbol":"BTC-PERP","limit":-1}}`, "params.limit -1"},
		{`{"method":"orderbook","params":{"symbol":"BTC-PERP","depth":"10"}}`, "orderbook params.depth is a string"},
		{`{"method":"oracle","params":{"symbol":"NOPE-PERP"}}`, `unknown instrument "NOPE-PERP"`},
		{`{"method":"bbo","params":{"symbol":7}}`, "bbo params.symbol is a number: send a string"},
		{`{"method":"bbo","params":{}}`, "params.symbol is missing"},
		{`{"method":"userFees","params":{"user":%q,"USER":"x"}}`, `has the key "USER", which this method does not take`},
		{`{"method":"userFees","params":{"user":12}}`, "user_fees params.user is a number"},
		{`{"method":"userFees","params":[%q]}`, "user_fees params is an array: send an object"},
		{`{"method":"accountInfo","params":{"user":%q,"collateralID":99}}`, "params.collateralId 99"},
		{`{"method":"accountInfo","params":{"user":%q,"includeHistory":"yes"}}`, "account_info params.includeHistory is a string: send true or false"},
		{`{"method":"subVaults","params":{"vaultAddress":"0x12"}}`, "params.vaultAddress"},
		{`{"method":"positions","params":{"user":%q,"instrument":"NOPE"}}`, `params.instrument: unknown instrument "NOPE"`},
		{`{"method":"accountSummary","params":{}}`, "params.user is missing"},
		{`{"method":"account-summary","params":{}}`, `unknown method "account-summary": use one of account_summary (accountSummary), positions`},
		{`{"method":7,"params":{}}`, "body.method is missing or not a string"},
		{`{"method":"mids","params":{},"extra":1}`, `body has the key "extra"`},
	}
	for _, c := range cases {
		body := c.body
		if strings.Contains(body, "%q") {
			body = fmt.Sprintf(body, u)
		}
		code, raw := e.postRaw(t, "/info", body)
		var out struct{ Error string }
		_ = json.Unmarshal([]byte(raw), &out)
		if code < 400 || code >= 500 || !strings.Contains(out.Error, c.want) {
			t.Errorf("%s: %d %s, want 4xx with %q", body, code, raw, c.want)
		}
	}
}

// TestClientSDKMethods: the api client's methods beyond the spec read the simulator's answers.
func TestClientSDKMethods(t *testing.T) {
	t.Parallel()
	e, a, b := sdkSession(t)
	c := e.client("bob")
	fees, err := c.UserFees(ctx(), "")
	if err != nil || fees.Account != b || fees.PerpTaker.String() != "0.0004" || fees.PerpMaker.String() != "-0.0001" || fees.PerpVolume30d.String() != "19460" {
		t.Errorf("user fees %+v %v", fees, err)
	}
	fp, err := c.FundingHistory(ctx(), "", api.PageParams{})
	if err != nil || len(fp.Data) != 1 || !fp.Data[0].Payment.IsNegative() || fp.Data[0].Size.String() != "0.2" {
		t.Errorf("funding %+v %v", fp, err)
	}
	tr, err := c.TransferHistory(ctx(), a, 3)
	if err != nil || len(tr) != 3 || tr[0].Type != api.TransferDerivativeWithdraw {
		t.Errorf("transfers %+v %v", tr, err)
	}
	h, err := c.AccountHistory(ctx(), "", 0)
	if err != nil || len(h) < 2 || !h[len(h)-1].AccountValue.IsPositive() {
		t.Errorf("account history %+v %v", h, err)
	}
	o, err := c.Oracle(ctx(), "BTC-PERP")
	if err != nil || o.Symbol != "BTC-PERP" || !o.IndexPrice.IsPositive() || !o.ExtMarkPrice.IsPositive() {
		t.Errorf("oracle %+v %v", o, err)
	}
	bbo, err := c.BBO(ctx(), "BTC-PERP")
	if err != nil || bbo.Symbol != "BTC-PERP" || bbo.AskPrice.String() != "97300" {
		t.Errorf("bbo %+v %v", bbo, err)
	}
	ob, err := c.OrderBook(ctx(), "BTC-PERP", 5)
	if err != nil || ob.Symbol != "BTC-PERP" || ob.Sequence == 0 {
		t.Errorf("orderbook %+v %v", ob, err)
	}
}
