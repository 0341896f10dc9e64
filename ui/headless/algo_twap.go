package headless

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
)

// twapParams reads the TWAP's flags.
func (r *runner) twapParams() (algo.TWAPParams, error) {
	o := r.o
	var p algo.TWAPParams
	if strings.TrimSpace(o.instrument) == "" {
		return p, usagef("--instrument is required (a name like BTC-PERP or an id)")
	}
	side, err := sideFlag(o.side)
	if err != nil {
		return p, err
	}
	size, err := sizeFlag(o.size)
	if err != nil {
		return p, err
	}
	dur, err := time.ParseDuration(strings.TrimSpace(o.algo.duration))
	if err != nil || dur <= 0 {
		return p, usagef("--duration %q: give a positive duration such as 30m", o.algo.duration)
	}
	var every time.Duration
	if e := strings.TrimSpace(o.algo.every); e != "" {
		if every, err = time.ParseDuration(e); err != nil || every <= 0 {
			return p, usagef("--every %q: give a positive duration such as 2m", e)
		}
	}
	slices, err := algo.SlicesOf(dur, o.algo.slices, every)
	if err != nil {
		return p, usagef("--slices/--every: %v", err)
	}
	p = algo.TWAPParams{Instrument: o.instrument, Side: side, Size: size, Duration: dur, Slices: slices, Randomize: o.algo.randomize}
	if b := strings.TrimSpace(o.algo.band); b != "" {
		lo, hi, ok := strings.Cut(b, "-")
		l, err1 := decimal.NewFromString(strings.TrimSpace(lo))
		h, err2 := decimal.NewFromString(strings.TrimSpace(hi))
		if !ok || err1 != nil || err2 != nil || !l.IsPositive() || h.LessThan(l) {
			return p, usagef("--band %q: give the low and high price, e.g. 3380-3450", b)
		}
		p.BandLo, p.BandHi = l, h
	}
	return p, nil
}

func runTWAP(ctx context.Context, r *runner) error {
	p, err := r.twapParams()
	if err != nil {
		return err
	}
	if r.o.algo.guard {
		return r.handToGuard(ctx, "twap", p)
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
	t, err := algo.NewTWAP(ctx, d, "", p)
	if err != nil {
		return err
	}
	fmt.Fprintf(r.env.Stderr, "twap %s: %s %s %s over %s in %d slices; Ctrl+C stops it\n", t.ID(), p.Side, p.Size, text.Clean(p.Instrument), p.Duration, p.Slices)
	out, err := t.Run(ctx)
	if perr := r.printProgress(out, true); perr != nil {
		return perr
	}
	return algoExit(out, err)
}
