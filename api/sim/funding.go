package sim

import "time"

// Funding is paid at each funding time exactly (every hour on the hour by default), for the
// positions held then, whatever the phase of the market step: the step that crosses a funding
// time pays it before it moves the markets, and an action that arrives after a funding time
// that no step has reached yet first runs the steps due and pays it. Both date it at the hour.

// fundingTime is the latest funding time at or before t.
func (s *Sim) fundingTime(t time.Time) time.Time {
	return time.UnixMilli(bucket(t.UnixMilli(), s.cfg.funding)).UTC()
}

// fundingPassed reports whether a funding time after the simulator's start, at or before t, is
// still unpaid.
func (s *Sim) fundingPassed(t time.Time) bool {
	h := s.fundingTime(t)
	return h.After(s.eng.fundedAt) && h.After(s.start)
}

// runDue runs the market steps due by now, each after the funding of a funding time it
// reached, then pays the funding of one now has passed that no step has reached. Under s.mu.
func (s *Sim) runDue(now time.Time) {
	if now.Sub(s.last) > maxCatchUp {
		s.last = now.Add(-maxCatchUp)
	}
	step := s.cfg.step
	for !s.last.Add(step).After(now) {
		s.last = s.last.Add(step)
		h := s.fundingTime(s.last)
		if !h.Equal(s.last) || !s.fundingPassed(h) {
			s.payFundingDue(s.last) // a step past the hour pays it before it moves the markets
			s.eng.step(s.last, step, nil)
			continue
		}
		// A step at the hour itself pays it with the marks it sets, before it liquidates.
		s.eng.step(s.last, step, func() { s.eng.payFunding(h) })
	}
	s.payFundingDue(now)
}

// payFundingDue pays the funding of the latest funding time at or before t, dated at it, unless
// it is paid already or came before the start; then liquidates whom it left under maintenance.
func (s *Sim) payFundingDue(t time.Time) {
	if !s.fundingPassed(t) {
		return
	}
	h, e := s.fundingTime(t), s.eng
	e.at = h
	defer func() { e.at = time.Time{} }()
	e.curTx = e.txHash("funding", uint64(h.UnixMilli()), 0)
	e.payFunding(h)
	e.liquidations()
	e.tidyBrackets()
}
