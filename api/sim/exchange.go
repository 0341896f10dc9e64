package sim

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/tradedesk/tradedesk/api"
)

// txReply is the transaction response. Error is left out of cancelByOid's answer, which carries
// success instead, as the spec shows.
type txReply struct {
	TxHash  string  `json:"tx_hash"`
	TxType  uint16  `json:"tx_type"`
	Error   *string `json:"error,omitempty"`
	Success *bool   `json:"success,omitempty"`
	Data    any     `json:"data"`
	Address string  `json:"address"`
}

// signedError is the failure of an authenticated action: the error, and the account it was
// attributed to.
type signedError struct {
	Error   string `json:"error"`
	Address string `json:"address"`
}

// exchange authenticates and applies one signed action.
func (s *Sim) exchange(body []byte) (int, any) {
	if err := checkStrict(body, s.cfg.clock.Now()); err != nil {
		return fail(err)
	}
	req, err := api.DecodeSignedRequest(body, s.cfg.source)
	if err != nil {
		var re *api.RequestError
		if errors.As(err, &re) && re.Field == "signature" {
			return http.StatusUnauthorized, errorBody{err.Error()}
		}
		return fail(err)
	}
	if err := s.checkRequest(req); err != nil {
		return fail(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.saveState() // before the answer: an action answered is an action kept
	e := s.eng
	if now := e.now(); s.fundingPassed(now) {
		s.runDue(now) // funding first, for the positions held at the hour
	}
	a, ag, err := e.authenticate(req.Signer)
	if err != nil {
		return fail(err)
	}
	a.dirty = true // its leverage, brokers and agents change by its own actions only
	if ag != nil && !api.AgentMay(req.TxType) {
		return fail(agentRefused(req.ActionName))
	}
	if err := e.useNonce(a, ag, req.Nonce); err != nil {
		return http.StatusUnauthorized, signedError{err.Error(), a.addr}
	}
	s.maxNonce = max(s.maxNonce, req.Nonce)
	rep := txReply{TxHash: e.txHash(a.addr, req.Nonce, req.TxType), TxType: req.TxType, Address: a.addr}
	e.curTx = rep.TxHash
	data, err := e.apply(a, req, &rep, s.cfg.source)
	e.tidyBrackets() // an action may fill an entry, close a position or cancel an entry
	if err != nil {
		status, _ := fail(err)
		return status, signedError{err.Error(), a.addr}
	}
	rep.Data = data
	if rep.Success == nil {
		empty := ""
		rep.Error = &empty
	}
	return http.StatusOK, rep
}

// useNonce takes nonce for account a, or its agent ag (nil: the account signed): refused when
// it is not after the simulator's floor (its start, or the last nonce accepted before a restart)
// or the signer's nonce window refuses it.
func (e *engine) useNonce(a *account, ag *agentRec, nonce uint64) error {
	if nonce <= e.nonceFloor {
		return fmt.Errorf("nonce %d is not after %d (this simulator's start, or the last nonce it "+
			"accepted before a restart): a request signed before a restart is not acted on again; sign it anew with the current time",
			nonce, e.nonceFloor)
	}
	nonces := &a.nonces
	if ag != nil {
		nonces = &ag.nonces
	}
	return nonces.use(nonce, e.now())
}

// checkRequest applies the envelope rules that need no state: matching nonces, expiry, batch size.
func (s *Sim) checkRequest(req *api.SignedRequest) error {
	if req.Nonce != req.DataNonce {
		return badRequest("nonce %d differs from action.data.nonce %d: they must be equal", req.Nonce, req.DataNonce)
	}
	now := uint64(s.cfg.clock.Now().UnixMilli())
	if req.ExpiresAfter != 0 && req.ExpiresAfter < now {
		return badRequest("request expired: expiresAfter %d is before now (%d); sign it again with a later expiresAfter", req.ExpiresAfter, now)
	}
	n := 0
	switch d := req.Data.(type) {
	case *api.PlaceOrderData:
		n = len(d.Orders)
	case *api.CancelByOidData:
		n = len(d.Cancels)
	case *api.CancelByCloidData:
		n = len(d.Cancels)
	default:
		return nil
	}
	if n == 0 {
		return badRequest("%s carries no orders or cancels", req.ActionName)
	}
	if n > api.MaxBatch {
		return badRequest("%s carries %d orders or cancels: send at most %d in one request", req.ActionName, n, api.MaxBatch)
	}
	return nil
}

// apply runs an authenticated action and returns the response's data.
func (e *engine) apply(a *account, req *api.SignedRequest, rep *txReply, source string) (any, error) {
	switch d := req.Data.(type) {
	case *api.PlaceOrderData:
		return e.applyPlace(a, d)
	case *api.CancelByOidData:
		return cancelReply(e.cancelByOid(a, d.Cancels), rep)
	case *api.CancelByCloidData:
		return cancelReply(e.cancelByCloid(a, d.Cancels), rep)
	case *api.CancelByInstrumentData:
		n, err := e.cancelByInstrument(a, d.InstrumentID)
		if err != nil {
			return nil, err
		}
		return countReply(n), nil
	case *api.CancelAllData:
		return countReply(e.cancelAccount(a, 0)), nil
	case *api.TransferData:
		return struct{}{}, e.transfer(a, req.TxType == api.TxDerivativeTransfer, d.CollateralID, d.Amount, d.Destination)
	case *api.InternalTransferData:
		return struct{}{}, e.internalTransfer(a, d.CollateralID, d.Amount, d.ToDerivativesAccount)
	case *api.WithdrawData:
		err := e.withdraw(a, req.TxType == api.TxDerivativeWithdraw, d.CollateralID, d.Amount, int64(d.ChainID))
		return map[string]string{"nonce": strconv.FormatUint(d.Nonce, 10)}, err
	}
	return e.applyControl(a, req, source)
}

// orderStatus is one placed order's answer: its id, or why it was rejected.
type orderStatus struct {
	Oid     api.OrderID `json:"oid,omitempty"`
	State   string      `json:"state,omitempty"`
	TotalSz string      `json:"totalSz,omitempty"`
	AvgPx   string      `json:"avgPx,omitempty"`
	Error   string      `json:"error,omitempty"`
}

// applyPlace places each order. One order answers {status: {oid}}; several answer an array with
// one element per order. The request fails as a whole only when every order was rejected.
func (e *engine) applyPlace(a *account, d *api.PlaceOrderData) (any, error) {
	sts := make([]orderStatus, len(d.Orders))
	var firstErr error
	ok := 0
	roles := e.planBrackets(a, d.Orders)
	placed := make([]*order, len(d.Orders))
	for i := range d.Orders {
		err := roles[i].err
		var o *order
		switch {
		case err != nil:
		case roles[i].entry >= 0 && placed[roles[i].entry] == nil:
			err = fmt.Errorf("its bracket's entry (order %d) was rejected", roles[i].entry+1)
		default:
			o, err = e.placeJoined(a, &d.Orders[i], func(o *order) { e.joinBracket(o, roles[i], placed) })
		}
		placed[i] = o
		if err != nil {
			if len(d.Orders) > 1 {
				err = fmt.Errorf("order %d: %w", i+1, err)
			}
			sts[i].Error = err.Error()
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		ok++
		sts[i] = e.status(o)
	}
	if ok == 0 {
		return nil, firstErr
	}
	// A bracket's legs answer with their state once the request's brackets are tidied: a leg the
	// exchange cancelled the moment its entry filled says so in this answer, not only in history.
	e.tidyBrackets()
	for i, o := range placed {
		if o != nil && roles[i].entry >= 0 {
			sts[i].State = o.state
		}
	}
	if len(sts) == 1 {
		return map[string]any{"status": sts[0]}, nil
	}
	return map[string]any{"status": sts}, nil
}

// status summarises an order just placed: its state and what filled at once.
func (e *engine) status(o *order) orderStatus {
	st := orderStatus{Oid: o.oid, State: o.state}
	if filled := o.size - o.rest; filled > 0 {
		st.TotalSz = o.mkt.qty(filled).String()
		st.AvgPx = o.avgPrice().String()
	}
	return st
}

type cancelStatus struct {
	Success *struct {
		Success string `json:"success"`
	} `json:"success,omitempty"`
	Error string `json:"error,omitempty"`
}

// cancelReply builds cancelByOid's and cancelByCloid's answer; it fails only when no cancel worked.
func cancelReply(errs []error, rep *txReply) (any, error) {
	sts := make([]cancelStatus, len(errs))
	ok := 0
	var first error
	for i, err := range errs {
		if err != nil {
			sts[i].Error = err.Error()
			if first == nil {
				first = err
			}
			continue
		}
		ok++
		sts[i].Success = &struct {
			Success string `json:"success"`
		}{"cancelled"}
	}
	if ok == 0 {
		return nil, first
	}
	all := ok == len(errs)
	rep.Success = &all
	return map[string]any{"status": sts}, nil
}

func countReply(n int) any {
	return map[string]any{"success": fmt.Sprintf("cancelled %d orders", n), "orders_cancelled": n}
}
