package headless

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestStreamBook: stream book SYM --json writes NDJSON, one record a line, and stops after --count.
func TestStreamBook(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	code, out, errs := h.run("stream", "book", "BTC-PERP", "--json", "--count", "1")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 1 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	var rec streamRecord
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil || rec.Channel == "" || rec.Symbol != "BTC-PERP" || rec.Data == nil {
		t.Fatalf("record %q: %+v %v", lines[0], rec, err)
	}
	if !strings.Contains(errs, "stream up") {
		t.Fatalf("stderr %q", errs)
	}
}

// TestStreamBadInput: what to follow is checked before connecting.
func TestStreamBadInput(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"stream"}, ExitUsage, "stream needs what to follow"},
		{[]string{"stream", "book"}, ExitUsage, "needs one instrument"},
		{[]string{"stream", "candles"}, ExitUsage, "want orders, fills, book SYM or trades SYM"},
		{[]string{"stream", "trades", "NOPE-PERP"}, ExitRefused, "unknown instrument"},
		{[]string{"stream", "orders", "BTC-PERP"}, ExitUsage, "takes no instrument"},
	} {
		code, _, errs := h.run(c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}

// TestStreamReconnects: when the connection drops, the stream says so on stderr, reconnects and
// goes on writing records.
func TestStreamReconnects(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := newHarness(t)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				h.sim.DropStreams()
			}
		}
	}()
	code, out, errs := h.run("stream", "book", "BTC-PERP", "--json", "--count", "3")
	close(stop)
	<-done
	if code != 0 || strings.Count(out, "\n") != 3 || !strings.Contains(errs, "stream down") || !strings.Contains(errs, "stream up (connection 2)") {
		t.Fatalf("exit %d, stdout %d lines, stderr %q", code, strings.Count(out, "\n"), errs)
	}
}

// TestStreamSaysEveryConnectionUp: the stream's status lines say each connection's up once, and
// one that came up and went down between two reads of the inbox (which keeps only the latest
// status) is said to have come up before its down. Guards TestStreamReconnects on a loaded
// machine, whose stderr went from "stream down" to "stream down" with no "connection 2".
func TestStreamSaysEveryConnectionUp(t *testing.T) {
	t.Parallel()
	dropped := errors.New("stream closed by the exchange")
	shown := uint64(0)
	var got []string
	for _, st := range []api.StreamStatus{
		{Err: errors.New("stream connect: refused")}, // never up: no connection counted
		{Up: true, Epoch: 1},
		{Err: dropped, Epoch: 1},
		{Err: dropped, Epoch: 2}, // connection 2 came up and went down between two reads
		{Up: true, Epoch: 3},
	} {
		var lines []string
		lines, shown = statusLines(st, shown)
		got = append(got, lines...)
	}
	want := []string{"stream down (stream connect: refused): reconnecting", "stream up (connection 1)",
		"stream down (stream closed by the exchange): reconnecting", "stream up (connection 2)",
		"stream down (stream closed by the exchange): reconnecting", "stream up (connection 3)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("status lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
