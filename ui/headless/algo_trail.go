package headless

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
)

func runTrail(ctx context.Context, r *runner) error {
	o := r.o
	if strings.TrimSpace(o.instrument) == "" {
		return usagef("--instrument is required (a name like BTC-PERP or an id)")
	}
	if strings.TrimSpace(o.algo.distance) == "" {
		return usagef("--distance is required: a price (500), a percent (1.5%%) or ticks (40t)")
	}
	p := algo.TrailParams{Instrument: o.instrument, Distance: o.algo.distance}
	if e := strings.TrimSpace(o.algo.every); e != "" {
		d, err := time.ParseDuration(e)
		if err != nil || d <= 0 {
			return usagef("--every %q: give a positive duration such as 5s", e)
		}
		p.Every = d
	}
	if o.algo.guard {
		return r.handToGuard(ctx, "trail", p)
	}
	d, done, err := r.algoDeps(ctx, func(p algo.Progress) {
		if p.Live() {
			_ = r.printProgress(p, false)
		}
	})
	if err != nil {
		return err
	}
	defer done()
	if err := r.leftRunning(ctx, d); err != nil {
		return err
	}
	t, err := algo.NewTrail(ctx, d, "", p)
	if err != nil {
		return err
	}
	fmt.Fprintf(r.env.Stderr, "trail %s on %s, %s behind the best mark; Ctrl+C stops following (the stop stays)\n", t.ID(), text.Clean(p.Instrument), text.Clean(p.Distance))
	out, err := t.Run(ctx)
	if perr := r.printProgress(out, true); perr != nil {
		return perr
	}
	if err != nil {
		return algoExit(out, err)
	}
	return nil
}
