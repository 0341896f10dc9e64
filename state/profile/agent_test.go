package profile

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
)

// TestCheckAgentOnTheSimulator: an agent the exchange does not list is refused with what to do;
// a registered one gives its expiry, and a warning when less than a day is left.
func TestCheckAgentOnTheSimulator(t *testing.T) {
	s := sim.New(sim.WithSeed(3))
	owner, err := api.NewRandomSigner()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(owner.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	account := api.New(srv.URL, api.WithSigner(owner))
	ctx := context.Background()
	long, _ := api.NewRandomSigner()
	short, _ := api.NewRandomSigner()
	_, _, err = CheckAgent(ctx, account, owner.Address(), long.Address(), time.Now())
	if err == nil || !strings.Contains(err.Error(), "is not registered for "+owner.Address()) || !strings.Contains(err.Error(), "tradedesk agent add") {
		t.Fatalf("an unregistered agent: %v", err)
	}
	until := time.Now().Add(48 * time.Hour)
	if _, err := account.AddAgent(ctx, long, "long", until); err != nil {
		t.Fatal(err)
	}
	if _, err := account.AddAgent(ctx, short, "short", time.Now().Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	c, lookupErr, err := CheckAgent(ctx, account, owner.Address(), long.Address(), time.Now())
	if err != nil || lookupErr != nil || c.Until.UnixMilli() != until.UnixMilli() || c.Warning != "" {
		t.Fatalf("a registered agent: %+v, %v, %v", c, lookupErr, err)
	}
	c, _, err = CheckAgent(ctx, account, owner.Address(), short.Address(), time.Now())
	if err != nil || !strings.Contains(c.Warning, "expires in 2h") && !strings.Contains(c.Warning, "expires in 3h") {
		t.Fatalf("an agent with 3 h left: %+v, %v", c, err)
	}
}
