package sim

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestAccountVectorsOverHTTP posts the official SDK's signed account actions, in an order that
// makes each meaningful, to one simulator that knows the vectors' account: both leverage
// spellings take effect, addAgent (with the agent's proof) registers the agent, whose signed order
// then rests on the account, revokeAgent removes it, approveBrokerFee shows in brokers_check, and
// the agent's order sent again after the revoke is refused with 401 invalid order signer.
func TestAccountVectorsOverHTTP(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/signing-vectors-account.json")
	if err != nil {
		t.Fatal(err)
	}
	var vf struct {
		Signer  string   `json:"signer_address"`
		Agent   string   `json:"agent_address"`
		Vectors []vector `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &vf); err != nil || len(vf.Vectors) != 7 {
		t.Fatalf("%d vectors (%v)", len(vf.Vectors), err)
	}
	body := map[string]string{}
	for _, v := range vf.Vectors {
		body[v.Name] = v.RequestBody
	}
	e := quietEnv(t)
	e.fund(vf.Signer)
	post := func(name string, wantStatus int) string {
		t.Helper()
		code, out := e.postRaw(t, "/exchange", body[name])
		if code != wantStatus {
			t.Fatalf("%s: %d %s, want %d", name, code, out, wantStatus)
		}
		return out
	}
	for _, name := range []string{"updatePerpInstrumentLeverage_number", "updatePerpInstrumentLeverage_string_python_sdk", "addAgent"} {
		if out := post(name, http.StatusOK); !strings.Contains(out, `"address":"`+vf.Signer+`"`) {
			t.Fatalf("%s not attributed to the account: %s", name, out)
		}
	}
	c := api.New(e.srv.URL)
	for sym, want := range map[string]string{"BTC-PERP": "10", "ETH-PERP": "5"} {
		lv, err := c.InstrumentLeverage(ctx(), vf.Signer, sym)
		if err != nil || lv.Leverage.String() != want {
			t.Errorf("%s leverage %s (%v), want %s", sym, lv.Leverage, err, want)
		}
	}
	if agents, _ := c.Agents(ctx(), vf.Signer); len(agents) != 1 || agents[0].Address != vf.Agent || agents[0].Name != "tradedesk-desk" {
		t.Fatalf("allAgents after addAgent: %+v", agents)
	}
	if out := post("placeOrder_signed_by_agent", http.StatusOK); !strings.Contains(out, `"address":"`+vf.Signer+`"`) {
		t.Fatalf("the agent's order is not the account's: %s", out)
	}
	if oo, _ := c.OpenOrders(ctx(), vf.Signer, api.PageParams{}); len(oo.Data) != 1 || oo.Data[0].Cloid != "7b7a3f0e-0c39-4f5e-9a43-1f0d2f3c9e11" {
		t.Fatalf("open orders %+v", oo.Data)
	}
	post("revokeAgent", http.StatusOK)
	post("approveBrokerFee", http.StatusOK)
	pg, _ := c.BrokersCheck(ctx(), vf.Signer, "0x9908658A316D743159F001026F1ef08aa8F0b55B", api.PageParams{})
	if len(pg.Data) != 1 || pg.Data[0].MaxFeeRate.String() != "0.001" {
		t.Fatalf("brokers_check %+v", pg.Data)
	}
	if out := post("placeOrder_signed_by_agent", http.StatusUnauthorized); out != `{"error":"invalid order signer"}` {
		t.Fatalf("revoked agent: %s", out)
	}
}
