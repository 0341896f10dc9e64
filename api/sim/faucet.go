package sim

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// faucetReply is the faucet's answer: the account's balances after the credit.
type faucetReply struct {
	User        string        `json:"user"`
	Funded      string        `json:"funded"`
	Spot        []balanceLine `json:"spot"`
	Derivatives []balanceLine `json:"derivatives"`
}

type balanceLine struct {
	CollateralID api.CollateralID `json:"collateral_id"`
	Symbol       string           `json:"symbol"`
	Balance      string           `json:"balance"`
}

// faucet answers POST /faucet {"user":"0x..."}: it opens and funds an account with the demo
// balance, once per address, and only for a caller on this machine (the simulator's money is
// for local bots and tests; a faucet on a reachable port would let anyone open accounts).
func (s *Sim) faucet(w http.ResponseWriter, r *http.Request) {
	if status, msg := faucetRefusal(r); status != 0 {
		writeJSON(w, status, errorBody{msg})
		return
	}
	var req struct {
		User string `json:"user"`
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
	if err := json.Unmarshal(body, &req); err != nil || req.User == "" {
		writeJSON(w, http.StatusBadRequest, errorBody{`send {"user":"0x..."}: the address to fund`})
		return
	}
	addr, err := canonical(req.User)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody{"user: " + err.Error()})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.saveState()
	status, out := s.eng.faucet(addr, s.cfg.demo)
	writeJSON(w, status, out)
}

// faucetRefusal checks the faucet's method, content type and caller.
func faucetRefusal(r *http.Request) (int, string) {
	if r.Method != http.MethodPost {
		return http.StatusMethodNotAllowed, "use POST /faucet with a JSON body"
	}
	if !isJSON(r.Header.Get("Content-Type")) {
		return http.StatusUnsupportedMediaType, "send the body with Content-Type: application/json"
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return http.StatusForbidden, "the faucet answers only callers on this machine (loopback); fund accounts with --fund instead"
	}
	return 0, ""
}

func (e *engine) faucet(addr string, amount decimal.Decimal) (int, any) {
	e.ctl.init()
	if e.ctl.fauced[addr] {
		return http.StatusConflict, errorBody{fmt.Sprintf("the faucet funded %s already: it funds each address once", addr)}
	}
	a, err := e.fund(addr, amount)
	if err != nil {
		return fail(err)
	}
	e.ctl.fauced[addr] = true
	e.dirt.faucet = append(e.dirt.faucet, addr)
	return http.StatusOK, faucetReply{User: addr, Funded: amount.String(), Spot: e.lines(a.spot), Derivatives: e.lines(a.deriv)}
}

func (e *engine) lines(m map[api.CollateralID]decimal.Decimal) []balanceLine {
	out := []balanceLine{}
	for _, c := range e.colls {
		if v, ok := m[c.rec.ID]; ok {
			out = append(out, balanceLine{CollateralID: c.rec.ID, Symbol: c.rec.Symbol, Balance: v.String()})
		}
	}
	return out
}
