package feed

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
)

// The stream's side of the feed (issue #10): which kinds it carries, the kind of a topic's
// records, and the one mapping of a streamed record to the same state message a poll's records
// would make, so no pane knows which transport fed it.

// StreamKinds are the kinds the stream carries: market data always, the account's when there is
// one.
func StreamKinds(hasAccount bool) []state.Kind {
	ks := []state.Kind{state.KindTickers, state.KindMids, state.KindBook, state.KindTrades}
	if hasAccount {
		ks = append(ks, AccountKinds()...)
	}
	return ks
}

// AccountKinds are the account's kinds the stream carries: their records come only on a change,
// so a quiet account is current while the stream is up (Source.Quiet).
func AccountKinds() []state.Kind {
	return []state.Kind{state.KindAccount, state.KindPositions, state.KindOrders, state.KindFills}
}

// TopicKind is the kind of a stream topic's records.
func TopicKind(t api.Topic) state.Kind {
	switch t.Channel {
	case api.ChanTicker, api.ChanBBO:
		return state.KindTickers
	case api.ChanMids:
		return state.KindMids
	case api.ChanOrderBook:
		return state.KindBook
	case api.ChanTrades:
		return state.KindTrades
	case api.ChanChart:
		return state.KindChart
	case api.ChanOrders:
		return state.KindOrders
	case api.ChanFills:
		return state.KindFills
	case api.ChanPositions:
		return state.KindPositions
	}
	return state.KindAccount
}

// Subscribe subscribes topics in the background (a refusal shows as the stream's status) and
// hands each subscription to keep; then runs done. Topics subscribed while the stream is up
// bring a message for Feed.Update (see subscribedMsg).
func Subscribe(st *api.Stream, topics []api.Topic, done func(), keep ...chan *api.Subscription) Cmd {
	return func() Message {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for _, t := range topics {
			if s, err := st.Subscribe(ctx, t); err == nil && len(keep) > 0 {
				keep[0] <- s
			}
		}
		if done != nil {
			done()
		}
		if !st.Status().Up {
			return nil // subscribed before the connection's Up, which reconciles every kind
		}
		return subscribedMsg{topics: topics}
	}
}

// subscribedMsg says topics were subscribed on a connection that may already have said Up: the
// reconcile that Up started may have read the exchange before they were subscribed (a stream
// created before the console subscribes its account comes up with no topics on a loaded machine).
type subscribedMsg struct{ topics []api.Topic }

func (subscribedMsg) isFeedMsg() {}

// subscribed polls once the quiet kinds (an account's: records only on a change) of topics
// subscribed while the source is up: a fill made between the Up's reconcile and the subscription
// is streamed to no one, and would be missing until the next reconcile (ReconcileEvery in the
// console, two minutes). Market data needs none: its topics send all the time.
func (f *Feed) subscribed(msg subscribedMsg) Cmd {
	if f.src == nil || !f.src.up {
		return nil // the Up still to come reconciles every kind, after the subscription
	}
	var kinds []state.Kind
	for _, t := range msg.topics {
		if k := TopicKind(t); f.src.kinds[k] && slices.Contains(f.src.src.Quiet, k) && !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	return f.Refresh(kinds...)
}

// DrainSubs takes the subscriptions a channel holds (nil: none).
func DrainSubs(ch chan *api.Subscription) []*api.Subscription {
	var out []*api.Subscription
	if ch == nil {
		return nil
	}
	for s := range ch {
		out = append(out, s)
	}
	return out
}

// StreamMessage is Source.Message for store: it turns one streamed record into its kind's upsert (the same messages a poll's
// records would make: the store orders the two by the local clock).
func StreamMessage(store *state.Store) func(ev api.StreamEvent, at time.Time) state.Msg {
	return func(ev api.StreamEvent, at time.Time) state.Msg { return streamMessage(store, ev, at) }
}

func streamMessage(store *state.Store, ev api.StreamEvent, at time.Time) state.Msg {
	switch d := ev.Data.(type) {
	case *api.BBO:
		return state.BBOUpdateMsg{At: at, BBO: *d}
	case *api.Candle:
		in, ok := store.InstrumentByID(ev.Topic.InstrumentID)
		if !ok {
			return nil
		}
		key := state.ChartKey{Symbol: in.Name, ChartType: ev.Topic.ChartType, Resolution: ev.Topic.Resolution}
		return state.CandleUpdateMsg{At: at, Key: key, Candle: *d}
	case *api.Ticker:
		return state.TickerUpdateMsg{At: at, Ticker: *d}
	case []api.Mid:
		return state.MidsUpdateMsg{At: at, Mids: d}
	case *api.AccountSummary:
		return state.AccountUpdateMsg{At: at, Summary: *d}
	case []api.Position:
		return state.PositionsUpdateMsg{At: at, Positions: d}
	case *api.OrderRecord:
		return state.OrderUpdateMsg{At: at, Record: *d}
	case *api.Fill:
		return state.FillMsg{At: at, Fill: *d}
	case *api.BookUpdate:
		return state.BookUpdateMsg{At: at, Symbol: d.Instrument, Snapshot: d.Snapshot, Seq: d.Sequence, Time: d.Time.Time,
			Bids: d.Bids, Asks: d.Asks}
	case *api.Trade:
		return state.TradeMsg{At: at, Symbol: d.Instrument, Trade: *d}
	}
	return nil
}

// UnknownInstrument is Source.Drop for store: a streamed ticker or book of an instrument the
// instrument list does not hold (by its exact name) is left out. A server's made-up names would
// otherwise add tickers and books without bound. Before the list has loaded nothing is judged
// (the polls that follow the stream's start bring every kind again).
func UnknownInstrument(store *state.Store) func(api.StreamEvent) string {
	return func(ev api.StreamEvent) string {
		var sym, what string
		switch d := ev.Data.(type) {
		case *api.Ticker:
			sym, what = d.Symbol, "ticker"
		case *api.BookUpdate:
			sym, what = d.Instrument, "book"
		default:
			return ""
		}
		if loaded, listed := store.Lists(sym); !loaded || listed {
			return ""
		}
		return fmt.Sprintf("a %s of %s, which the instrument list does not hold", what, text.Quote(sym))
	}
}
