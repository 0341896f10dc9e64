package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
)

// startAlgo starts an algorithm handed over on the socket (a console's or a command's --guard):
// its parameters are the journal's own for its kind; it is committed to the journal and runs
// here. A scale places its rungs and is done.
func (g *guardProc) startAlgo(kind string, raw json.RawMessage) (string, error) {
	ctx, cancel := context.WithTimeout(g.algoCtx, time.Minute)
	defer cancel()
	var (
		rn    algo.Runner
		first algo.Progress
		until time.Time
		err   error
	)
	switch kind {
	case "chase":
		rn, first, until, err = decodeAndNew(ctx, g.deps, kind, raw, algo.NewChase, func(id string, p algo.ChaseParams) (algo.Progress, time.Time) {
			return algo.Started(id, kind, p.Instrument, p.Side, p.Size), p.Until
		})
	case "twap":
		rn, first, until, err = decodeAndNew(ctx, g.deps, kind, raw, algo.NewTWAP, func(id string, p algo.TWAPParams) (algo.Progress, time.Time) {
			return algo.Started(id, kind, p.Instrument, p.Side, p.Size), g.r.env.Now().Add(p.Duration)
		})
	case "trail":
		rn, first, until, err = decodeAndNew(ctx, g.deps, kind, raw, algo.NewTrail, func(id string, p algo.TrailParams) (algo.Progress, time.Time) {
			return algo.Started(id, kind, p.Instrument, "", decimal.Zero), time.Time{}
		})
	case "scale":
		return g.startScale(ctx, raw)
	default:
		return "", fmt.Errorf("kind %q: give chase, twap, trail or scale", text.Clean(kind))
	}
	if err != nil {
		return "", err
	}
	g.mu.Lock()
	g.untils[rn.ID()] = until
	g.mu.Unlock()
	g.report(first)
	g.log.Info("algorithm started on the socket", "algo", rn.ID(), "kind", kind)
	g.runAlgo(rn)
	return rn.ID(), nil
}

// decodeAndNew makes an algorithm of kind from its journal parameters raw: newAlgo makes it,
// shown gives its first progress (algo.Started, by its id and parameters as handed) and when it
// ends (zero: open).
func decodeAndNew[P any, A algo.Runner](ctx context.Context, d *algo.Deps, kind string, raw json.RawMessage,
	newAlgo func(context.Context, *algo.Deps, string, P) (A, error), shown func(string, P) (algo.Progress, time.Time)) (algo.Runner, algo.Progress, time.Time, error) {
	var p P
	if err := decodeParams(kind, raw, &p); err != nil {
		return nil, algo.Progress{}, time.Time{}, err
	}
	a, err := newAlgo(ctx, d, "", p)
	if err != nil {
		return nil, algo.Progress{}, time.Time{}, err
	}
	first, until := shown(a.ID(), p)
	return a, first, until, nil
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
