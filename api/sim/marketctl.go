package sim

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/shopspring/decimal"
)

// controlReq is the market control's request: move a market's index, and/or pause or resume its
// random walk.
type controlReq struct {
	Instrument string  `json:"instrument"`
	Index      *string `json:"index"`
	Pause      *bool   `json:"pause"`
}

// controlReply is the market as the control left it.
type controlReply struct {
	Instrument string `json:"instrument"`
	Index      string `json:"index"`
	Mark       string `json:"mark"`
	Paused     bool   `json:"paused"`
}

// marketControl answers POST /control {"instrument":"BTC-PERP","index":"98000"} (the makers
// requote around the new index, the mark follows, triggers fire) and {"instrument":...,
// "pause":true|false} (its random walk stops or goes on), only for a caller on this machine: tests
// and scripts move a market on purpose.
func (s *Sim) marketControl(w http.ResponseWriter, r *http.Request) {
	if status, msg := faucetRefusal(r); status != 0 {
		if status == http.StatusForbidden {
			msg = "POST /control answers only callers on this machine (loopback)"
		}
		writeJSON(w, status, errorBody{msg})
		return
	}
	var req controlReq
	body, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || req.Instrument == "" || req.Index == nil && req.Pause == nil {
		writeJSON(w, http.StatusBadRequest, errorBody{`send {"instrument":"BTC-PERP","index":"98000"} and/or {"instrument":"BTC-PERP","pause":true}`})
		return
	}
	if req.Index != nil {
		px, err := decimal.NewFromString(*req.Index)
		if err == nil {
			err = s.SetIndexPrice(req.Instrument, px)
		}
		if err != nil {
			writeJSON(w, http.StatusBadRequest, errorBody{"index: " + err.Error()})
			return
		}
	}
	defer s.publish(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.saveState()
	m, err := s.eng.marketByName(req.Instrument)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody{err.Error()})
		return
	}
	if req.Pause != nil {
		m.paused = *req.Pause
	}
	if req.Index != nil && !s.eng.quiet {
		s.eng.requote(m)
		s.eng.refresh(m, s.eng.now())
	}
	writeJSON(w, http.StatusOK, controlReply{Instrument: m.name, Index: m.tick.dec(m.index).String(), Mark: m.tick.dec(m.mark).String(), Paused: m.paused})
}
