package sim

import (
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// maxBrokerFee is the highest fee rate an account may approve a broker for (1%).
var maxBrokerFee = decimal.RequireFromString("0.01")

// Strict field kinds and keys of the account actions (protocol.md's table).
func init() {
	name := field{name: "agentName", kind: fString}
	agent := field{name: "agent", kind: fAgentAddress}
	forAcct := field{name: "forAccount", kind: fString}
	nonce := field{name: "nonce", kind: fInt}
	dataFields[api.TxAddAgent] = []field{name, agent, forAcct, {name: "signature", kind: fString},
		{name: "validUntil", kind: fInt}, nonce}
	dataFields[api.TxRevokeAgent] = []field{agent, forAcct, nonce}
	dataFields[api.TxUpdateLeverage] = []field{{name: "instrumentId", kind: fInt}, {name: "leverage", kind: fLeverage}, nonce}
	dataFields[api.TxApproveBrokerFee] = []field{{name: "broker", kind: fAgentAddress}, {name: "maxFeeRate", kind: fDecimal}, nonce}
}

// leverageValue checks leverage: a JSON integer or a string of digits (both SDK spellings).
func leverageValue(v *jnode, path string) error {
	if v.kind == 'n' {
		_, err := jsonInt(v, path)
		return err
	}
	if v.kind != 's' || v.text == "" || len(v.text) > 4 || strings.Trim(v.text, "0123456789") != "" {
		return badRequest("%s: send a whole number such as 10 (or the string \"10\")", path)
	}
	return nil
}

// plainAddress checks an agent or broker address: 0x and 40 hex digits, EIP-55 when mixed case,
// not zero.
func plainAddress(s, path string) error {
	a, err := api.ChecksumAddress(s)
	if err != nil {
		return badRequest("%s: %v", path, err)
	}
	if a == "0x0000000000000000000000000000000000000000" {
		return badRequest("%s is the zero address", path)
	}
	return nil
}

// applyControl runs the account actions, signed by the account's own key.
func (e *engine) applyControl(a *account, req *api.SignedRequest, source string) (any, error) {
	switch d := req.Data.(type) {
	case *api.AddAgentData:
		return e.addAgent(a, d, source)
	case *api.RevokeAgentData:
		return e.revokeAgent(a, d)
	case *api.UpdateLeverageData:
		return e.updateLeverage(a, d.InstrumentID, d.Leverage.N)
	case *api.ApproveBrokerFeeData:
		return e.approveBroker(a, d.Broker, d.MaxFeeRate)
	case *api.DepositToVaultData:
		return e.depositToVault(a, d)
	case *api.RedeemFromVaultData:
		return e.redeemFromVault(a, d)
	}
	return nil, badRequest("action %s is not supported", req.ActionName)
}

func forSelf(a *account, forAccount string) error {
	if forAccount == "" || api.SameAddress(forAccount, a.addr) {
		return nil
	}
	return badRequest("forAccount %q: the simulator has no sub-accounts; send \"\" for the signing account", trunc(forAccount, 60))
}

// addAgent registers an agent after checking its proof: the agent key signed {signer: account,
// nonce} as tx type 1201 with the action's nonce.
func (e *engine) addAgent(a *account, d *api.AddAgentData, source string) (any, error) {
	if err := forSelf(a, d.ForAccount); err != nil {
		return nil, err
	}
	agent, _ := canonical(d.Agent)
	name := strings.TrimSpace(d.AgentName)
	if name == "" || len(d.AgentName) > api.MaxAgentName {
		return nil, badRequest("agentName: send 1 to %d characters", api.MaxAgentName)
	}
	proof, err := api.RecoverActionSigner(source, api.TxAddAgent, &api.AgentProofData{Signer: a.addr, Nonce: d.Nonce}, d.Signature)
	if err != nil || proof != agent {
		return nil, badRequest("signature: the agent's proof does not recover to %s: the agent key must sign {signer: %s, nonce: %d} as tx type 1201", agent, a.addr, d.Nonce)
	}
	now := e.now()
	until := time.UnixMilli(int64(d.ValidUntil))
	if !until.After(now) || until.Sub(now) > maxAgentValidity {
		return nil, badRequest("validUntil %d: send a time after now (%d) and at most %d days ahead", d.ValidUntil, now.UnixMilli(), int(maxAgentValidity/(24*time.Hour)))
	}
	e.ctl.init()
	if e.accounts[agent] != nil {
		return nil, badRequest("agent %s is an account of its own: make a fresh key for the agent", agent)
	}
	if old := e.ctl.agents[agent]; old != nil && old.account != a.addr {
		return nil, badRequest("agent %s is registered by another account: make a fresh key", agent)
	}
	if e.ctl.agents[agent] == nil && len(e.agentsOf(a.addr)) >= maxAgentsPerAccount {
		return nil, badRequest("the account has %d agents already: revoke one first", maxAgentsPerAccount)
	}
	rec := &agentRec{addr: agent, account: a.addr, name: name, created: now, until: until, nonces: newNonceSet()}
	if old := e.ctl.agents[agent]; old != nil {
		rec.nonces = old.nonces // a renewed agent's old requests stay spent
	}
	e.ctl.agents[agent] = rec
	e.dirt.agents = true
	return map[string]any{"agent": agent, "valid_until": d.ValidUntil}, nil
}

func (e *engine) revokeAgent(a *account, d *api.RevokeAgentData) (any, error) {
	if err := forSelf(a, d.ForAccount); err != nil {
		return nil, err
	}
	agent, _ := canonical(d.Agent)
	e.ctl.init()
	if rec := e.ctl.agents[agent]; rec == nil || rec.account != a.addr {
		return nil, badRequest("agent %s is not registered for this account: see allAgents", agent)
	}
	delete(e.ctl.agents, agent)
	e.dirt.agents = true
	return map[string]any{"agent": agent, "revoked": true}, nil
}

// agentsOf lists an account's unexpired agents, oldest first.
func (e *engine) agentsOf(account string) []*agentRec {
	e.ctl.init()
	now := e.now()
	var out []*agentRec
	for addr, r := range e.ctl.agents {
		if !now.Before(r.until) {
			e.dirt.agents = true
			delete(e.ctl.agents, addr)
			continue
		}
		if r.account == account {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].created.Equal(out[j].created) {
			return out[i].created.Before(out[j].created)
		}
		return out[i].addr < out[j].addr
	})
	return out
}

// updateLeverage sets the account's leverage on a perpetual: within the instrument's maximum and
// the tier its position and open orders reach, and only if the account keeps enough margin for
// what it holds and has on the book.
func (e *engine) updateLeverage(a *account, id api.InstrumentID, n uint64) (any, error) {
	m, err := e.market(id)
	if err != nil {
		return nil, err
	}
	if m.spot {
		return nil, badRequest("%s is a spot pair: it has no leverage", m.name)
	}
	lev := decimal.NewFromInt(int64(min(n, 1<<20)))
	if n < 1 || lev.GreaterThan(m.maxLev) {
		return nil, badRequest("leverage %d for %s: want a whole number from 1 to %s", n, m.name, m.maxLev)
	}
	var size int64
	p := a.pos[m.id]
	if p != nil {
		size = p.size
		if p.isolated {
			return nil, badRequest("the %s position is isolated: close it before changing its leverage", m.name)
		}
	}
	pend := a.pending(m.id)
	exposure := m.notional(m.mark, worst(size, pend.buy, pend.sell))
	if t := m.tierFor(exposure); lev.GreaterThan(t.maxLev) {
		return nil, badRequest("your %s position and orders come to %s USD, where the most leverage allowed is %sx: choose %sx or less",
			m.name, exposure.StringFixed(0), t.maxLev, t.maxLev)
	}
	old := a.lev[m.id]
	set := *a.leverage(m)
	set.lev, set.updated = lev, e.now()
	a.lev[m.id] = &set
	var oldPos decimal.Decimal
	if p != nil {
		oldPos, p.lev = p.lev, lev
	}
	if r := e.risk(a); r.available().IsNegative() {
		a.lev[m.id] = old
		if old == nil {
			delete(a.lev, m.id)
		}
		if p != nil {
			p.lev = oldPos
		}
		return nil, badRequest("leverage %dx on %s would leave the account under margin: it would need %s USDC more; choose a higher leverage, reduce the position or add collateral",
			n, m.name, r.available().Neg().StringFixed(2))
	}
	return map[string]any{"instrument_id": m.id, "leverage": lev.String()}, nil
}

// approveBroker records or (rate "0") withdraws a broker's fee approval.
func (e *engine) approveBroker(a *account, broker, rate string) (any, error) {
	b, _ := canonical(broker)
	fee, err := decimal.NewFromString(rate)
	if err != nil {
		return nil, badRequest("maxFeeRate %q is not a decimal", trunc(rate, 30))
	}
	if fee.GreaterThan(maxBrokerFee) {
		return nil, badRequest("maxFeeRate %s is above the %s (1%%) a broker may be approved for", fee, maxBrokerFee)
	}
	i := -1
	for j, x := range a.brokers {
		if x.broker == b {
			i = j
		}
	}
	if fee.IsZero() {
		if i < 0 {
			return nil, badRequest("broker %s has no approval to revoke", b)
		}
		a.brokers = append(a.brokers[:i], a.brokers[i+1:]...)
		return map[string]any{"broker": b, "revoked": true}, nil
	}
	rec := brokerRec{broker: b, maxFee: fee, updated: e.now()}
	if i < 0 {
		a.brokers = append(a.brokers, rec)
	} else {
		a.brokers[i] = rec
	}
	return map[string]any{"broker": b, "max_fee_rate": fee.String()}, nil
}

// agentRecord is one allAgents record, as the official TypeScript SDK declares it.
type agentRecord struct {
	User       string `json:"user"`
	Agent      string `json:"agent_address"`
	Name       string `json:"agent_name"`
	Created    int64  `json:"created_at_block_timestamp"`
	ValidUntil int64  `json:"valid_until_timestamp"`
}

// infoAgents answers allAgents {user}: the account's unexpired agents.
func (s *Sim) infoAgents(p *infoParams) (any, error) {
	if p.User == "" {
		return nil, badRequest("params.user is missing: send the account's 0x address")
	}
	addr, err := canonical(p.User)
	if err != nil {
		return nil, badRequest("params.user: %v", err)
	}
	out := []agentRecord{}
	for _, r := range s.eng.agentsOf(addr) {
		out = append(out, agentRecord{User: addr, Agent: r.addr, Name: r.name, Created: r.created.UnixMilli(), ValidUntil: r.until.UnixMilli()})
	}
	return out, nil
}
