package sim

import (
	"fmt"
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// errInvalidSigner is the real exchange's one published refusal (protocol.md, "Unknown
// signers"): a signature that recovers to neither a known account nor an unexpired agent of one.
const errInvalidSigner = "invalid order signer"

// Limits of the agent wallets an account may register.
const (
	maxAgentsPerAccount = 10
	maxAgentValidity    = api.MaxAgentValidity
)

// agentRec is one registered agent wallet: its key acts for account until until.
type agentRec struct {
	addr    string
	account string
	name    string
	created time.Time
	until   time.Time
	nonces  nonceSet // the exchange counts nonces per signing key
}

// control is the simulator's record of agents and faucet use.
type control struct {
	agents map[string]*agentRec // by agent address
	fauced map[string]bool      // addresses the faucet funded
}

func (c *control) init() {
	if c.agents == nil {
		c.agents = map[string]*agentRec{}
		c.fauced = map[string]bool{}
	}
}

// known returns the user account of a canonical address, or nil when the simulator has not
// opened it (funded, or credited by a transfer). Internal accounts are never known to requests.
func (e *engine) known(addr string) *account {
	a := e.accounts[addr]
	if a == nil || a.internal {
		return nil
	}
	a.seen = e.now()
	return a
}

// authenticate finds whom a signed request acts for: the signer's own account, or the account
// of the unexpired agent that signed it (ag non-nil). Anyone else is refused.
func (e *engine) authenticate(signer string) (a *account, ag *agentRec, err error) {
	if a := e.known(signer); a != nil {
		return a, nil, nil
	}
	e.ctl.init()
	ag = e.ctl.agents[signer]
	if ag == nil {
		return nil, nil, errUnknownSigner
	}
	if !e.now().Before(ag.until) {
		e.dirt.agents = true
		delete(e.ctl.agents, signer)
		return nil, nil, errUnknownSigner
	}
	if a = e.known(ag.account); a == nil {
		return nil, nil, errUnknownSigner
	}
	return a, ag, nil
}

var errUnknownSigner = &httpError{status: http.StatusUnauthorized, msg: errInvalidSigner}

// agentRefused is the answer to an agent signing what only the account's key may.
func agentRefused(name string) *httpError {
	return &httpError{status: http.StatusForbidden, msg: fmt.Sprintf(
		"%s signed by an agent wallet: agents may only place and cancel orders; sign withdrawals, transfers, leverage, broker approvals and agent changes with the account's own key", name)}
}

// fund opens an account (when new) and credits amount USDC to its spot and its derivatives
// balance each, as deposits (the ledger counts them).
func (e *engine) fund(addr string, amount decimal.Decimal) (*account, error) {
	e.ctl.init()
	if e.ctl.agents[addr] != nil {
		return nil, badRequest("%s is registered as an agent wallet: an agent has no balance of its own", addr)
	}
	if a := e.accounts[addr]; a != nil && a.internal {
		return nil, badRequest("%s is one of the exchange's own accounts", addr)
	}
	a, err := e.openAccount(addr)
	if err != nil {
		return nil, err
	}
	if amount.IsPositive() {
		a.spot[collUSDC] = a.spot[collUSDC].Add(amount)
		a.deriv[collUSDC] = a.deriv[collUSDC].Add(amount)
		e.ledger.deposit(collUSDC, amount)
		e.ledger.deposit(collUSDC, amount)
		e.noteDeposit(a, collUSDC, amount)
		e.noteDeposit(a, collUSDC, amount)
		if a.peak.LessThan(amount) {
			a.peak = amount
		}
	}
	return a, nil
}

// Fund opens the account of user (when new) and credits amount USDC to its spot and its
// derivatives balance each; a zero amount only opens it. The simulator acts only for accounts
// opened this way (or by the faucet, or credited by a transfer); `tradedesk sim --fund` and the
// embedded demo call it.
func (s *Sim) Fund(user string, amount decimal.Decimal) error {
	if amount.IsNegative() {
		return fmt.Errorf("fund %s: the amount is negative", trunc(user, 60))
	}
	addr, err := canonical(user)
	if err != nil {
		return err
	}
	if _, _, err := s.eng.amount(collUSDC, amount.String()); err != nil && amount.IsPositive() {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.saveState()
	_, err = s.eng.fund(addr, amount)
	return err
}

// DemoBalance is the USDC the faucet gives (WithDemoBalance).
func (s *Sim) DemoBalance() decimal.Decimal { return s.cfg.demo }
