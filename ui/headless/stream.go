package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

func streamFlags(fs *flagSet, o *opts) {
	fs.IntVar(&o.par.count, "count", 0, "stop after `N` records (0: run until interrupted)")
}

func init() {
	register(&command{name: "stream", groups: gRead, flags: streamFlags, run: runStream, args: true,
		usage:   "orders|fills|book SYM|trades SYM [--count N] [--json]",
		summary: "Follow the exchange's stream: one line a record (--json: NDJSON), reconnecting when the connection drops (said on stderr)."})
}

// streamTopic is the stream subscription the arguments name.
func (r *runner) streamTopic(ctx context.Context) (api.Topic, error) {
	if len(r.args) == 0 {
		return api.Topic{}, usagef("stream needs what to follow: orders, fills, book SYM or trades SYM")
	}
	what := strings.ToLower(r.args[0])
	switch what {
	case "orders", "fills":
		if len(r.args) != 1 {
			return api.Topic{}, usagef("stream %s takes no instrument (it follows the account)", what)
		}
		user, err := r.account()
		if err != nil {
			return api.Topic{}, err
		}
		ch := api.ChanOrders
		if what == "fills" {
			ch = api.ChanFills
		}
		return api.Topic{Channel: ch, User: user}, nil
	case "book", "trades":
		if len(r.args) != 2 {
			return api.Topic{}, usagef("stream %s needs one instrument: stream %s BTC-PERP", what, what)
		}
		st, err := r.market(ctx)
		if err != nil {
			return api.Topic{}, err
		}
		in, ok := st.FindInstrument(r.args[1])
		if !ok {
			return api.Topic{}, fmt.Errorf("unknown instrument %s; `tradedesk instruments` lists them", text.Quote(r.args[1]))
		}
		ch := api.ChanOrderBook
		if what == "trades" {
			ch = api.ChanTrades
		}
		return api.Topic{Channel: ch, Symbol: in.Name}, nil
	}
	return api.Topic{}, usagef("stream %s: want orders, fills, book SYM or trades SYM", text.Quote(r.args[0]))
}

// streamRecord is one NDJSON line: the channel, its symbol or account, and the record.
type streamRecord struct {
	Channel string `json:"channel"`
	Symbol  string `json:"symbol,omitempty"`
	User    string `json:"user,omitempty"`
	Data    any    `json:"data"`
}

func runStream(ctx context.Context, r *runner) error {
	t, err := r.streamTopic(ctx)
	if err != nil {
		return err
	}
	if r.o.par.count < 0 {
		return usagef("--count %d: give 0 (no end) or a number of records", r.o.par.count)
	}
	c, ok := r.client.(*api.Client)
	if !ok {
		return errors.New("stream: this exchange has no stream")
	}
	u, err := api.StreamURL(c.BaseURL())
	if err != nil {
		return err
	}
	s := api.NewStream(u)
	defer s.Close()
	sub, err := s.Subscribe(ctx, t)
	if err != nil {
		return fmt.Errorf("stream %s: %w", t, err)
	}
	r.jsonDone = r.o.json
	return r.follow(ctx, s, sub, t)
}

// follow writes the records as they come, and the connection's ups and downs on stderr.
func (r *runner) follow(ctx context.Context, s *api.Stream, sub *api.Subscription, t api.Topic) error {
	enc := json.NewEncoder(r.env.Stdout)
	n, shown := 0, uint64(0)
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-sub.Err():
			return fmt.Errorf("stream %s: %w", t, err)
		case <-s.Inbox().Ready():
		}
		b := s.Inbox().Drain()
		if b.StatusChanged {
			var lines []string
			lines, shown = statusLines(b.Status, shown)
			for _, l := range lines {
				fmt.Fprintln(r.env.Stderr, l)
			}
		}
		if b.Dropped > 0 {
			fmt.Fprintf(r.env.Stderr, "%d records left out: %s\n", b.Dropped, text.Clean(b.DropReason))
		}
		for _, ev := range b.Events {
			rec := streamRecord{Channel: ev.Topic.Channel, Symbol: ev.Topic.Symbol, User: ev.Topic.User, Data: ev.Data}
			var err error
			if r.o.json {
				err = enc.Encode(rec)
			} else {
				raw, _ := json.Marshal(ev.Data)
				_, err = fmt.Fprintf(r.env.Stdout, "%s %s\n", ev.Topic.Channel, text.Clean(string(raw)))
			}
			if err != nil {
				return err
			}
			if n++; r.o.par.count > 0 && n >= r.o.par.count {
				return nil
			}
		}
	}
}

// statusLines are the lines a status change writes on stderr, given the last connection said to
// be up (shown), and the new one. A drain sees only the latest status: a connection that came up
// and went down again between two drains (a down whose Epoch, the connections that came up, is
// past shown) is said to have come up before its down, so every connection's up is said.
func statusLines(st api.StreamStatus, shown uint64) ([]string, uint64) {
	var lines []string
	if st.Epoch > shown && (st.Up || st.Err != nil) {
		lines, shown = append(lines, fmt.Sprintf("stream up (connection %d)", st.Epoch)), st.Epoch
	}
	if !st.Up && st.Err != nil {
		lines = append(lines, fmt.Sprintf("stream down (%s): reconnecting", text.Clean(st.Err.Error())))
	}
	return lines, shown
}
