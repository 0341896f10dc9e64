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
	side, size, err := r.orderFlags()
	if err != nil {
		return p, err
	}
	dur, err := time.ParseDuration(strings.TrimSpace(o.algo.duration))
	if err != nil || dur <= 0 {
		return p, usagef("--duration %q: give a positive duration such as 30m", o.algo.duration)
	}
	every, err := durationFlag("every", o.algo.every, "2m")
	if err != nil {
		return p, err
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
	return runAlgo(ctx, r, "twap", p, algo.NewTWAP, algoExit, func(id string) string {
		return fmt.Sprintf("twap %s: %s %s %s over %s in %d slices; Ctrl+C stops it", id, p.Side, p.Size, text.Clean(p.Instrument), p.Duration, p.Slices)
	})
}
