// Package reportcard is the execution report card of one order (Enter on it in the Order history
// view) or one algorithm (Enter on it in the Algos view): its average fill against the arrival
// mid, the preview and, for an algorithm, its interval's market VWAP and participation; its fees
// and maker share; its time to fill; the latency of its route from the keystroke to the screen.
// It is read from the exchange's fills (paged, deduplicated) and the journal's arrival and
// route, by state/report, as `tradedesk report` reads it.
package reportcard

import (
	"context"
	"errors"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/record"
	"github.com/tradedesk/tradedesk/state/report"
	"github.com/tradedesk/tradedesk/ui/common"
)

// OpenMsg asks the root to open the report card of an order (Order) or of an algorithm (Algo,
// its id; Kind names it).
type OpenMsg struct {
	Order *api.OrderRecord
	Algo  string
	Kind  string
}

// OpenOrder asks for the card of order o.
func OpenOrder(o api.OrderRecord) tea.Cmd { return func() tea.Msg { return OpenMsg{Order: &o} } }

// OpenAlgo asks for the card of algorithm id of kind.
func OpenAlgo(id, kind string) tea.Cmd {
	return func() tea.Msg { return OpenMsg{Algo: id, Kind: kind} }
}

// Source is where cards are read from: the exchange's fills and tape, the journal's arrivals,
// routes and algorithms (nil: none, the card says so), the store's instruments for the ticks.
type Source struct {
	Ex      api.Exchange
	Journal Journal
	Store   *state.Store
	Now     func() time.Time
}

// Journal is what a card reads from the journal (arrivals, routes, algorithms, kept markets):
// *journal.Journal is one. A nil pointer in it is not nil: leave Source.Journal nil for none.
type Journal interface {
	report.Markets
	Arrivals(ctx context.Context) (map[string]record.Arrival, error)
	Routes(ctx context.Context) (map[string]record.Route, error)
}

// LoadedMsg is a card read (Err: why it could not be).
type LoadedMsg struct {
	Card report.Card
	Err  error
	seq  uint64
}

// loadBound bounds one card's reads.
const loadBound = 30 * time.Second

// skew is how far before an order's or algorithm's start its fills are read from: the
// exchange's clock and the console's may differ.
const skew = time.Minute

// ErrNoFills says the order or algorithm has no fill (yet).
var ErrNoFills = errors.New("no fills yet: a card is made from fills")

// Load reads the card msg asks for.
func Load(ctx context.Context, src Source, msg OpenMsg) (report.Card, error) {
	user := src.Ex.Address()
	if user == "" {
		return report.Card{}, errors.New(common.NoAccount(""))
	}
	var arrivals map[string]record.Arrival
	var routes map[string]record.Route
	if src.Journal != nil {
		arrivals, _ = src.Journal.Arrivals(ctx) // without them the card says what it cannot measure
		routes, _ = src.Journal.Routes(ctx)
	}
	ticks := func(name string) (decimal.Decimal, bool) {
		in, ok := src.Store.Instrument(name)
		return in.TickSize, ok
	}
	if msg.Order != nil {
		return loadOrder(ctx, src, *msg.Order, arrivals, routes, ticks)
	}
	return loadAlgo(ctx, src, msg.Algo, arrivals, ticks)
}

func loadOrder(ctx context.Context, src Source, o api.OrderRecord, arrivals map[string]record.Arrival,
	routes map[string]record.Route, ticks report.Ticks) (report.Card, error) {
	var since time.Time
	if !o.Timestamp.IsZero() {
		since = o.Timestamp.Add(-skew)
	}
	fills, err := report.Fills(ctx, src.Ex, src.Ex.Address(), since)
	if err != nil {
		return report.Card{}, err
	}
	var mine []api.Fill
	for _, f := range fills {
		if f.OrderID == o.OrderID {
			mine = append(mine, f)
		}
	}
	cards := report.Orders(mine, arrivals, ticks)
	if len(cards) == 0 {
		return report.Card{Instrument: o.Instrument, OrderID: o.OrderID, Cloid: o.Cloid, Side: o.Side, Arrival: arrivals[o.Cloid]}, ErrNoFills
	}
	c := cards[0]
	c.SetRoute(routes[c.Cloid])
	return c, nil
}

func loadAlgo(ctx context.Context, src Source, id string, arrivals map[string]record.Arrival, ticks report.Ticks) (report.Card, error) {
	if src.Journal == nil {
		return report.Card{}, errors.New("no journal: an algorithm's card reads its children from it")
	}
	a, ok, err := src.Journal.GetAlgo(ctx, id)
	switch {
	case err != nil:
		return report.Card{}, err
	case !ok:
		return report.Card{}, errors.New("the journal does not hold this algorithm")
	}
	fills, err := report.Fills(ctx, src.Ex, src.Ex.Address(), a.Created.Add(-skew))
	if err != nil {
		return report.Card{}, err
	}
	c, ok := report.Algo(id, fills, arrivals, ticks)
	if !ok {
		return report.Card{Cloid: id}, ErrNoFills
	}
	tick, _ := ticks(c.Instrument)
	report.MeasureAlgo(ctx, src.Ex, src.Journal, a, &c, src.Now(), tick)
	return c, nil
}

// load is Load as a command, tagged with the view's request.
func load(src Source, msg OpenMsg, seq uint64) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), loadBound)
		defer cancel()
		c, err := Load(ctx, src, msg)
		return LoadedMsg{Card: c, Err: err, seq: seq}
	}
}

// Key is the key that opens a card on the selected row (the pick key, Enter), described so.
func Key(k *common.KeyMap) key.Binding {
	return key.NewBinding(key.WithKeys(k.Pick.Keys()...), key.WithHelp(k.Pick.Help().Key, "report card"))
}
