package headless

import (
	"context"
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
)

func runTrail(ctx context.Context, r *runner) error {
	o := r.o
	if strings.TrimSpace(o.instrument) == "" {
		return errNoInstrument
	}
	if strings.TrimSpace(o.algo.distance) == "" {
		return usagef("--distance is required: a price (500), a percent (1.5%%) or ticks (40t)")
	}
	every, err := durationFlag("every", o.algo.every, "5s")
	if err != nil {
		return err
	}
	p := algo.TrailParams{Instrument: o.instrument, Distance: o.algo.distance, Every: every}
	return runAlgo(ctx, r, "trail", p, algo.NewTrail, trailExit, func(id string) string {
		return fmt.Sprintf("trail %s on %s, %s behind the best mark; Ctrl+C stops following (the stop stays)", id, text.Clean(p.Instrument), text.Clean(p.Distance))
	})
}

// trailExit is a trail's exit: one that ended without an error did its work (the stop stays),
// whatever it filled; an error exits as any algorithm's does.
func trailExit(p algo.Progress, err error) error {
	if err != nil {
		return algoExit(p, err)
	}
	return nil
}
