package feed

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// TestStreamRecordsTakeThePollsKinds: each channel's records are named by the kind a poll of them
// would fill, and turned into that kind's upsert; a candle of an instrument the store does not
// know is dropped, not filed under an empty name.
func TestStreamRecordsTakeThePollsKinds(t *testing.T) {
	for ch, want := range map[string]state.Kind{api.ChanTicker: state.KindTickers, api.ChanBBO: state.KindTickers,
		api.ChanMids: state.KindMids, api.ChanOrderBook: state.KindBook, api.ChanTrades: state.KindTrades,
		api.ChanChart: state.KindChart, api.ChanOrders: state.KindOrders, api.ChanFills: state.KindFills,
		api.ChanPositions: state.KindPositions, api.ChanAccount: state.KindAccount} {
		if got := TopicKind(api.Topic{Channel: ch}); got != want {
			t.Errorf("%s: kind %v, want %v", ch, got, want)
		}
	}
	msg := StreamMessage(state.New(time.Now))
	at := time.Now()
	if m := msg(api.StreamEvent{Data: &api.Fill{OrderID: 7}}, at); m == nil || m.Kind() != state.KindFills {
		t.Errorf("a fill became %#v", m)
	}
	if m := msg(api.StreamEvent{Topic: api.Topic{Channel: api.ChanChart, InstrumentID: 99}, Data: &api.Candle{}}, at); m != nil {
		t.Errorf("a candle of an unknown instrument became %#v", m)
	}
	if len(StreamKinds(false)) != 4 || len(StreamKinds(true)) != 8 {
		t.Errorf("kinds: market %v, with an account %v", StreamKinds(false), StreamKinds(true))
	}
}
