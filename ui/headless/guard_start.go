package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
)

// startAlgo starts an algorithm handed over on the socket (a console's or a command's --guard):
// its parameters are the journal's own for its kind; it is committed to the journal and runs
// here. A scale places its rungs and is done.
func (g *guardProc) startAlgo(kind string, raw json.RawMessage) (string, error) {
	ctx, cancel := context.WithTimeout(g.algoCtx, time.Minute)
	defer cancel()
	var rn algo.Runner
	var first algo.Progress
	var until time.Time
	switch kind {
	case "chase":
		var p algo.ChaseParams
		if err := decodeParams(kind, raw, &p); err != nil {
			return "", err
		}
		c, err := algo.NewChase(ctx, g.deps, "", p)
		if err != nil {
			return "", err
		}
		rn, until = c, p.Until
		first = algo.Progress{ID: c.ID(), Kind: kind, Instrument: p.Instrument, Side: p.Side, Target: p.Size, State: journal.AlgoRunning}
	case "twap":
		var p algo.TWAPParams
		if err := decodeParams(kind, raw, &p); err != nil {
			return "", err
		}
		t, err := algo.NewTWAP(ctx, g.deps, "", p)
		if err != nil {
			return "", err
		}
		rn, until = t, g.r.env.Now().Add(p.Duration)
		first = algo.Progress{ID: t.ID(), Kind: kind, Instrument: p.Instrument, Side: p.Side, Target: p.Size, State: journal.AlgoRunning}
	case "trail":
		var p algo.TrailParams
		if err := decodeParams(kind, raw, &p); err != nil {
			return "", err
		}
		t, err := algo.NewTrail(ctx, g.deps, "", p)
		if err != nil {
			return "", err
		}
		rn = t
		first = algo.Progress{ID: t.ID(), Kind: kind, Instrument: p.Instrument, State: journal.AlgoRunning}
	case "scale":
		return g.startScale(ctx, raw)
	default:
		return "", fmt.Errorf("kind %q: give chase, twap, trail or scale", text.Clean(kind))
	}
	g.mu.Lock()
	g.untils[rn.ID()] = until
	g.mu.Unlock()
	g.report(first)
	g.log.Info("algorithm started on the socket", "algo", rn.ID(), "kind", kind)
	g.runAlgo(rn)
	return rn.ID(), nil
}

func decodeParams(kind string, raw json.RawMessage, p any) error {
	if err := json.Unmarshal(raw, p); err != nil {
		return fmt.Errorf("the %s's parameters: %v", kind, err)
	}
	return nil
}

// startScale plans a scale's rungs from the book and places them as one request.
func (g *guardProc) startScale(ctx context.Context, raw json.RawMessage) (string, error) {
	var p algo.ScaleParams
	if err := decodeParams("scale", raw, &p); err != nil {
		return "", err
	}
	st, err := g.deps.Market.Store(ctx, p.Instrument)
	if err != nil {
		return "", err
	}
	inst, ok := st.FindInstrument(p.Instrument)
	if !ok {
		return "", fmt.Errorf("no instrument %s", text.Quote(p.Instrument))
	}
	p.Instrument = inst.Name
	bid, ask := bestBidAsk(ctx, g.deps.Market, inst.Name)
	rungs, _, err := algo.PlanScale(inst, p, bid, ask)
	if err != nil {
		return "", err
	}
	res, err := algo.PlaceScale(ctx, g.deps, "", p, rungs)
	if res.ID != "" {
		g.report(algo.Progress{ID: res.ID, Kind: "scale", Instrument: inst.Name, Side: p.Side, Target: p.Size, Children: len(rungs),
			State: algo.StateDone, Detail: res.Batch.Reason})
	}
	return res.ID, err
}
