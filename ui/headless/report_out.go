package headless

import (
	"encoding/csv"
	"io"
	"strconv"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/report"
)

var hundred = decimal.NewFromInt(100)

// slipText is a slippage in basis points and ticks ("1.2 bp 3.0t"), or "-" when its reference
// was not recorded (an order not sent from here, or one that did not walk the book).
func slipText(s report.Slip) string {
	if !s.Known {
		return "-"
	}
	return state.FormatSigned(s.Bp, 1) + " bp " + state.FormatSigned(s.Ticks, 1) + "t"
}

func sinceSend(d time.Duration, sent time.Time) string {
	if sent.IsZero() {
		return "-"
	}
	return d.Round(time.Millisecond).String()
}

// marketText is an algorithm's slippage against its interval's market VWAP and its
// participation ("-" for an order, or when no market trade was read in its interval; the
// participation "?" when the tape did not reach back to its start).
func marketText(m *report.Market) (vs, part string) {
	if m == nil {
		return "-", "-"
	}
	part = "?"
	if m.Covered {
		part = m.Participation.Mul(hundred).StringFixed(1) + "%"
	}
	return slipText(m.VsVWAP), part
}

// latencyText is an order's keystroke-to-screen time ("-" when the console did not record it).
func latencyText(l *report.RouteTimes) string {
	if l == nil {
		return "-"
	}
	return l.Whole.Round(100 * time.Microsecond).String()
}

func reportTable(st *state.Store, rows []reportRow) *table {
	t := newTable("LAST FILL", "KIND", "INSTRUMENT", "OID>", "SIDE", "SIZE>", "AVG>", "VS ARRIVAL>", "VS PREVIEW>", "SLIP USD>", "FEE>", "MAKER>", "FIRST>", "LAST>",
		"VS VWAP>", "PART.>", "LATENCY>")
	for _, r := range rows {
		c := r.Card
		oid := ""
		if c.OrderID != 0 {
			oid = strconv.FormatUint(uint64(c.OrderID), 10)
		}
		usdSlip := "-"
		vs, part := marketText(c.Market)
		if c.VsArrival.Known {
			usdSlip = signed(c.VsArrival.USD)
		}
		t.add(state.TimeText(c.Last, state.TimeFull), r.Kind, c.Instrument, oid, state.SideText(c.Side), sizeText(st, c.Instrument, c.Size),
			priceText(st, c.Instrument, c.AvgPrice), slipText(c.VsArrival), slipText(c.VsPreview), usdSlip, state.FormatUSDFee(c.Fee),
			c.MakerShare.Mul(hundred).StringFixed(0)+"%", sinceSend(c.ToFirst, c.Arrival.At), sinceSend(c.ToLast, c.Arrival.At),
			vs, part, latencyText(c.Latency))
	}
	return t
}

// reportColumns are the CSV's header, in the order reportRecord writes them.
var reportColumns = []string{"kind", "instrument", "oid", "cloid", "side", "fills", "size", "avg_price", "notional", "fee", "maker_share",
	"first_fill", "last_fill", "arrival_mid", "arrival_mark", "preview_avg", "slip_arrival_bp", "slip_arrival_ticks", "slip_arrival_usd",
	"slip_preview_bp", "slip_preview_ticks", "slip_preview_usd", "to_first_fill_ms", "to_last_fill_ms",
	"market_vwap", "market_volume", "market_covered", "participation", "slip_vwap_bp", "slip_vwap_ticks", "slip_vwap_usd",
	"latency_sign_ms", "latency_answer_ms", "latency_stream_ms", "latency_screen_ms", "latency_ms"}

func optDec(known bool, d decimal.Decimal) string {
	if !known {
		return ""
	}
	return d.String()
}

func reportRecord(r reportRow) []string {
	c := r.Card
	a, p, sent := c.VsArrival, c.VsPreview, !c.Arrival.At.IsZero()
	ms := func(d time.Duration) string { return optDec(sent, decimal.NewFromInt(d.Milliseconds())) }
	rec := []string{r.Kind, c.Instrument, strconv.FormatUint(uint64(c.OrderID), 10), c.Cloid, c.Side, strconv.Itoa(c.Fills),
		c.Size.String(), c.AvgPrice.String(), c.Notional.String(), c.Fee.String(), c.MakerShare.String(),
		c.First.UTC().Format(time.RFC3339Nano), c.Last.UTC().Format(time.RFC3339Nano),
		optDec(a.Known, c.Arrival.Mid), optDec(c.Arrival.Mark.IsPositive(), c.Arrival.Mark), optDec(p.Known, c.Arrival.Expected),
		optDec(a.Known, a.Bp), optDec(a.Known, a.Ticks), optDec(a.Known, a.USD),
		optDec(p.Known, p.Bp), optDec(p.Known, p.Ticks), optDec(p.Known, p.USD), ms(c.ToFirst), ms(c.ToLast)}
	return append(append(rec, marketRecord(c.Market)...), latencyRecord(c.Latency)...)
}

// marketRecord is an algorithm's market columns (empty for an order).
func marketRecord(m *report.Market) []string {
	if m == nil {
		return make([]string, 7)
	}
	v := m.VsVWAP
	return []string{m.VWAP.String(), m.Volume.String(), strconv.FormatBool(m.Covered), optDec(m.Covered, m.Participation),
		optDec(v.Known, v.Bp), optDec(v.Known, v.Ticks), optDec(v.Known, v.USD)}
}

// latencyRecord is an order's latency legs and whole in milliseconds, to the microsecond.
func latencyRecord(l *report.RouteTimes) []string {
	out := make([]string, report.Legs+1)
	if l == nil {
		return out
	}
	ms := func(d time.Duration) string { return decimal.NewFromInt(d.Microseconds()).Shift(-3).String() }
	for i, d := range l.Legs {
		out[i] = ms(d)
	}
	out[report.Legs] = ms(l.Whole)
	return out
}

// writeReportCSV writes the cards as CSV: exact decimals, empty where not known. Names and
// client ids pass the sanitiser.
func writeReportCSV(w io.Writer, rows []reportRow) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(reportColumns); err != nil {
		return err
	}
	for _, r := range rows {
		rec := reportRecord(r)
		for i := range rec {
			rec[i] = text.Clean(rec[i])
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func tripsTable(st *state.Store, trips []report.Trip, now time.Time) *table {
	t := newTable("OPENED", "INSTRUMENT", "SIDE", "STATE", "DURATION>", "FILLS>", "MAX SIZE>", "AVG IN>", "AVG OUT>", "REALISED>", "FEES>", "FUNDING>", "NET>")
	for _, tr := range trips {
		side, state_ := "short", "closed"
		if tr.Long {
			side = "long"
		}
		if tr.Open {
			state_ = "open"
		}
		if tr.Before {
			state_ += ", opened earlier"
		}
		out := "-"
		if tr.SizeOut.IsPositive() {
			out = priceText(st, tr.Instrument, tr.AvgOut)
		}
		t.add(state.TimeText(tr.Opened, state.TimeFull), tr.Instrument, side, state_, tr.Duration(now).Round(time.Second).String(),
			strconv.Itoa(tr.Fills), sizeText(st, tr.Instrument, tr.MaxSize), priceText(st, tr.Instrument, tr.AvgIn), out,
			signed(tr.Realised), usd(tr.Fees), signed(tr.Funding), signed(tr.Net()))
	}
	return t
}

func dailyTable(days []report.Day) *table {
	t := newTable("DAY (UTC)", "FILLS>", "REALISED>", "FEES>", "FUNDING>", "NET>")
	var sum report.Day
	for _, d := range days {
		t.add(d.Date, strconv.Itoa(d.Fills), signed(d.Realised), usd(d.Fees), signed(d.Funding), signed(d.Net))
		sum.Fills += d.Fills
		sum.Realised, sum.Fees = sum.Realised.Add(d.Realised), sum.Fees.Add(d.Fees)
		sum.Funding, sum.Net = sum.Funding.Add(d.Funding), sum.Net.Add(d.Net)
	}
	t.add("total", strconv.Itoa(sum.Fills), signed(sum.Realised), usd(sum.Fees), signed(sum.Funding), signed(sum.Net))
	return t
}

// costText is ", " and the cost phrase, or "" without one.
func costText(cost string) string {
	if cost == "" {
		return ""
	}
	return ", " + cost
}
