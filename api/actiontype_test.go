package api_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestActionTypeForm: on a known network the request names its action by number, as the official
// SDKs do (the only form known to work on the real exchange); on a custom URL by the spec's name;
// the option overrides either way. The simulator accepts every form.
func TestActionTypeForm(t *testing.T) {
	e := newSim(t)
	for _, c := range []struct {
		name string
		opts []api.Option
		want string
	}{
		{"custom URL", nil, "cancelAll"},
		{"known network", []api.Option{api.WithNetwork(api.Mainnet)}, "1311"},
		{"network, name asked", []api.Option{api.WithNetwork(api.Mainnet), api.WithActionType(api.ActionTypeName)}, "cancelAll"},
		{"custom URL, number asked", []api.Option{api.WithActionType(api.ActionTypeNumber)}, "1311"},
	} {
		c := c
		e.clock.Add(time.Millisecond) // each client is a new nonce source on the one key
		t.Run(c.name, func(t *testing.T) {
			cl, tr := e.client(t, c.opts...)
			if _, err := cl.CancelAll(context.Background()); err != nil {
				t.Fatalf("the simulator refused the %s form: %v", c.want, err)
			}
			if got := sentActionType(t, tr); got != c.want {
				t.Errorf("action.type %q, want %q", got, c.want)
			}
		})
	}
}

func sentActionType(t *testing.T, tr *captureTransport) string {
	t.Helper()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for _, b := range tr.bodies {
		var env struct {
			Action struct {
				Type string `json:"type"`
			} `json:"action"`
		}
		if json.Unmarshal(b, &env) == nil && env.Action.Type != "" {
			return env.Action.Type
		}
	}
	t.Fatal("no /exchange request was sent")
	return ""
}

func TestParseActionTypeForm(t *testing.T) {
	for in, want := range map[string]api.ActionTypeForm{"": api.ActionTypeAuto, "auto": api.ActionTypeAuto,
		"number": api.ActionTypeNumber, "name": api.ActionTypeName} {
		if got, err := api.ParseActionTypeForm(in); err != nil || got != want {
			t.Errorf("%q: %v, %v", in, got, err)
		}
	}
	if _, err := api.ParseActionTypeForm("1301"); err == nil || !strings.Contains(err.Error(), "want number") {
		t.Errorf("a bad form was taken or said nothing useful: %v", err)
	}
	if _, err := api.ResolveEndpoint(api.Endpoint{Network: "testnet", ActionType: "names"}); err == nil {
		t.Error("ResolveEndpoint took a bad action type")
	}
	r, err := api.ResolveEndpoint(api.Endpoint{Network: "testnet"})
	if err != nil || r.ActionType != api.ActionTypeAuto || r.Network == nil {
		t.Errorf("testnet resolved to %+v, %v", r, err)
	}
}
