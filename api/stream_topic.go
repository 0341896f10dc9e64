package api

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
)

// Topic is one stream subscription: a channel and its params.
type Topic struct {
	Channel string
	// Symbol is the instrument name (ticker, mids, bbo: also "all") of market channels.
	Symbol string
	// User is the account of the account channels (orders, fills, position, account_summary).
	User string
	// InstrumentID, ChartType and Resolution select a chart series.
	InstrumentID InstrumentID
	ChartType    string
	Resolution   string
}

// key identifies the topic among a connection's subscriptions.
func (t Topic) key() string {
	switch t.Channel {
	case ChanChart:
		return t.Channel + ":" + strconv.FormatInt(int64(t.InstrumentID), 10) + ":" + t.ChartType + ":" + t.Resolution
	case ChanOrders, ChanFills, ChanPositions, ChanAccount:
		return t.Channel + ":" + strings.ToLower(t.User)
	}
	return t.Channel + ":" + t.Symbol
}

// String describes the topic for messages.
func (t Topic) String() string { return t.key() }

// check reports what is wrong with a topic before it is sent.
func (t Topic) check() error {
	switch t.Channel {
	case ChanTicker, ChanMids, ChanBBO, ChanOrderBook, ChanTrades:
		if t.Symbol == "" {
			return fmt.Errorf("stream %s: no symbol", t.Channel)
		}
	case ChanChart:
		if t.InstrumentID <= 0 || !slices.Contains(ChartTypes, t.ChartType) || !slices.Contains(Resolutions, t.Resolution) {
			return fmt.Errorf("stream chart: want an instrument id, chart type (%s) and resolution (%s)",
				strings.Join(ChartTypes, ", "), strings.Join(Resolutions, ", "))
		}
	case ChanOrders, ChanFills, ChanPositions, ChanAccount:
		if _, err := ChecksumAddress(t.User); err != nil {
			return fmt.Errorf("stream %s: user: %v", t.Channel, err)
		}
	default:
		return fmt.Errorf("stream channel %s: unknown", text.Quote(t.Channel))
	}
	return nil
}

// params is the subscribe request's params in the newer SDK generation's form: the channel's
// params beside channel.
func (t Topic) params() map[string]any {
	p := map[string]any{"channel": t.Channel}
	switch t.Channel {
	case ChanChart:
		p["instrument_id"], p["chart_type"], p["resolution"] = int64(t.InstrumentID), t.ChartType, t.Resolution
	case ChanOrders, ChanFills, ChanPositions, ChanAccount:
		p["user"] = t.User
	default:
		p["symbol"] = t.Symbol
	}
	return p
}

// StreamURL derives the WebSocket URL from an API base URL: the same host with path /ws/, wss://
// for https:// and ws:// for http://.
func StreamURL(base string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("stream URL from %s: want an absolute http or https URL", text.Quote(base))
	}
	switch u.Scheme {
	case "https", "wss":
		u.Scheme = "wss"
	case "http", "ws":
		u.Scheme = "ws"
	default:
		return "", fmt.Errorf("stream URL from %s: want http or https", text.Quote(base))
	}
	u.Path, u.RawPath, u.RawQuery, u.Fragment, u.User = "/ws/", "", "", "", nil
	return u.String(), nil
}
