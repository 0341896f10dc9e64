package api

import (
	"context"
	"errors"
	"strings"
	"time"
)

// Control is the account-control side of the exchange: agent wallets, leverage and broker fee
// approvals. Every action in it needs the account's own key: an agent key is refused before
// anything is signed.
type Control interface {
	// AddAgent registers agent's key to act for the account until validUntil.
	AddAgent(ctx context.Context, agent *Signer, name string, validUntil time.Time) (TxResponse, error)
	// RevokeAgent removes an agent wallet from the account.
	RevokeAgent(ctx context.Context, agent string) (TxResponse, error)
	// Agents lists the agent wallets a user registered.
	Agents(ctx context.Context, user string) ([]Agent, error)
	// UpdateLeverage sets the account's leverage on a perpetual.
	UpdateLeverage(ctx context.Context, id InstrumentID, leverage int) (TxResponse, error)
	// ApproveBrokerFee lets broker charge up to maxFeeRate; "0" withdraws the approval.
	ApproveBrokerFee(ctx context.Context, broker, maxFeeRate string) (TxResponse, error)
	// IsAgent reports whether the client signs with an agent key.
	IsAgent() bool
}

var _ Control = (*Client)(nil)

// MaxAgentValidity is the longest an agent is registered for in one addAgent.
const MaxAgentValidity = 180 * 24 * time.Hour

// MaxAgentName is the longest agent name, in bytes.
const MaxAgentName = 64

// ErrNeedsAccountKey is the message of every action an agent key may not sign.
const ErrNeedsAccountKey = "nothing was signed: this needs the account's own key (an agent key only places and cancels orders)"

// agentRefusal refuses, before signing, an action an agent may not sign.
func (c *Client) agentRefusal(info ActionInfo) error {
	if c.signer == nil || !c.signer.IsAgent() || AgentMay(info.TxType) {
		return nil
	}
	return invalid("exchange "+info.Name, "%s", ErrNeedsAccountKey)
}

// AddAgent registers agent (a key of its own, never the account's) to place and cancel orders
// for the account until validUntil. The agent key signs the proof {signer: account, nonce}; the
// account's key signs the action. name is shown by allAgents.
func (c *Client) AddAgent(ctx context.Context, agent *Signer, name string, validUntil time.Time) (TxResponse, error) {
	info := mustAction(ActionAddAgent)
	op := "exchange " + info.Name
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if err := c.agentRefusal(info); err != nil {
		return TxResponse{}, err
	}
	if agent == nil || agent.IsAgent() || SameAddress(agent.Address(), c.Address()) {
		return TxResponse{}, invalid(op, "the agent must be a fresh key of its own, not the account's")
	}
	if err := checkAgentName(name); err != nil {
		return TxResponse{}, invalid(op, "%v", err)
	}
	now := c.clock()
	if !validUntil.After(now) || validUntil.Sub(now) > MaxAgentValidity {
		return TxResponse{}, invalid(op, "valid until %s: want a time after now and at most %d days ahead",
			validUntil.UTC().Format(time.RFC3339), int(MaxAgentValidity/(24*time.Hour)))
	}
	n, _ := c.nonce()
	proof, err := agent.SignAction(c.source, TxAddAgent, &AgentProofData{Signer: c.Address(), Nonce: n})
	if err != nil {
		return TxResponse{}, invalid(op, "%v", err)
	}
	d := &AddAgentData{AgentName: name, Agent: agent.Address(), Signature: proof, ValidUntil: uint64(validUntil.UnixMilli()), Nonce: n}
	return c.send(ctx, info, d)
}

func checkAgentName(name string) error {
	if strings.TrimSpace(name) == "" || len(name) > MaxAgentName {
		return errBadAgentName
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return errBadAgentName
		}
	}
	return nil
}

var errBadAgentName = errors.New("agent name: want 1 to 64 printable characters, such as desk-bot")

// RevokeAgent removes an agent wallet: its next signed request is refused as an unknown signer.
func (c *Client) RevokeAgent(ctx context.Context, agent string) (TxResponse, error) {
	info := mustAction(ActionRevokeAgent)
	op := "exchange " + info.Name
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if err := c.agentRefusal(info); err != nil {
		return TxResponse{}, err
	}
	a, err := ChecksumAddress(agent)
	if err != nil {
		return TxResponse{}, invalid(op, "agent: %v", err)
	}
	n, _ := c.nonce()
	return c.send(ctx, info, &RevokeAgentData{Agent: a, Nonce: n})
}

// UpdateLeverage sets the account's leverage on one perpetual (a whole number from 1). The
// leverage travels as a JSON number, as the TypeScript SDK sends it.
func (c *Client) UpdateLeverage(ctx context.Context, id InstrumentID, leverage int) (TxResponse, error) {
	info := mustAction(ActionUpdateLeverage)
	op := "exchange " + info.Name
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if err := c.agentRefusal(info); err != nil {
		return TxResponse{}, err
	}
	if id < 0 {
		return TxResponse{}, invalid(op, "instrument id %d is negative", id)
	}
	if leverage < 1 || leverage > 1000 {
		return TxResponse{}, invalid(op, "leverage %d: want a whole number from 1 to the instrument's maximum", leverage)
	}
	n, _ := c.nonce()
	return c.send(ctx, info, &UpdateLeverageData{InstrumentID: id, Leverage: LeverageValue{N: uint64(leverage)}, Nonce: n})
}

// ApproveBrokerFee lets broker charge the account fees up to maxFeeRate (a plain decimal such as
// "0.001"); "0" withdraws the approval.
func (c *Client) ApproveBrokerFee(ctx context.Context, broker, maxFeeRate string) (TxResponse, error) {
	info := mustAction(ActionApproveBrokerFee)
	op := "exchange " + info.Name
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if err := c.agentRefusal(info); err != nil {
		return TxResponse{}, err
	}
	b, err := ChecksumAddress(broker)
	if err != nil {
		return TxResponse{}, invalid(op, "broker: %v", err)
	}
	if maxFeeRate != "0" {
		if err := positiveDecimal(maxFeeRate); err != nil {
			return TxResponse{}, invalid(op, "max fee rate: %v (or 0 to revoke)", err)
		}
	}
	n, _ := c.nonce()
	return c.send(ctx, info, &ApproveBrokerFeeData{Broker: b, MaxFeeRate: maxFeeRate, Nonce: n})
}

type agentList []Agent

func (l *agentList) UnmarshalJSON(b []byte) error {
	a, err := decodeAgents(b)
	*l = a
	return err
}

// Agents lists the agent wallets user registered (allAgents), expired ones included.
func (c *Client) Agents(ctx context.Context, user string) ([]Agent, error) {
	u, err := c.user(MethodAllAgents, user)
	if err != nil {
		return nil, err
	}
	var out agentList
	return out, c.info(ctx, MethodAllAgents, userParams{u}, &out)
}

// FindAgent returns the agent record of address among agents (ok false when absent).
func FindAgent(agents []Agent, address string) (Agent, bool) {
	for _, a := range agents {
		if SameAddress(a.Address, address) {
			return a, true
		}
	}
	return Agent{}, false
}
