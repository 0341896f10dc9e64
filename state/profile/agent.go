package profile

import (
	"context"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// AgentLister is the one call an agent check needs (api.Exchange has it).
type AgentLister interface {
	Agents(ctx context.Context, user string) ([]api.Agent, error)
}

// AgentCheck is what the exchange says of an agent key at the start, for the console and the
// headless commands alike.
type AgentCheck struct {
	// Until is when the agent expires (zero: the exchange could not say).
	Until time.Time
	// Warning is set when the agent expires within state.AgentWarnAhead ("" otherwise).
	Warning string
}

// CheckAgent looks agent up among account's agents. An agent the exchange does not list
// (expired, revoked, never registered) is an error saying what to do, and nothing is signed with
// it; an exchange that cannot say leaves the expiry unknown, with no error (lookupErr says why).
func CheckAgent(ctx context.Context, l AgentLister, account, agent string, now time.Time) (c AgentCheck, lookupErr, err error) {
	agents, lookupErr := l.Agents(ctx, account)
	if lookupErr != nil {
		return c, lookupErr, nil
	}
	a, ok := api.FindAgent(agents, agent)
	if !ok {
		return c, nil, fmt.Errorf("agent %s is not registered for %s (expired, revoked or never added); nothing was signed: register one with `tradedesk agent add`", agent, account)
	}
	c.Until = a.ValidUntil.Time
	if c.Until.Sub(now) < state.AgentWarnAhead {
		c.Warning = fmt.Sprintf("agent %s expires in %s; register a new one with `tradedesk agent add`", agent, state.AgentLeft(c.Until, now))
	}
	return c, nil, nil
}
