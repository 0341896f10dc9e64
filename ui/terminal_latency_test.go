//go:build linux

package ui

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/ui/screen"
)

// openPTY opens a pseudo-terminal of 200x60: the console is run on its terminal side as on a
// real one (raw mode, its frames written there), and the test is the terminal emulator at the
// other side, reading what the console writes and typing keys.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var n, unlock uint32
	if err := ioctl(master, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatal(err)
	}
	if err := ioctl(master, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	ws := struct{ rows, cols, x, y uint16 }{60, 200, 0, 0}
	if err := ioctl(tty, syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		t.Fatal(err)
	}
	return master, tty
}

func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(arg)); e != 0 {
		return e
	}
	return nil
}

// terminal reads what the console writes to its terminal and says when a text first arrives.
type terminal struct {
	mu     sync.Mutex
	tail   []byte // the last bytes read (a text split across two reads is still found)
	want   []byte
	wantRe func([]byte) bool
	found  chan time.Time
	out    bytes.Buffer // everything, for a failure's message
}

func (tm *terminal) read(master *os.File) {
	buf := make([]byte, 64<<10)
	for {
		n, err := master.Read(buf)
		at := time.Now()
		if err != nil {
			return
		}
		tm.mu.Lock()
		tm.tail = append(tm.tail, buf[:n]...)
		tm.out.Write(buf[:n])
		if tm.found != nil && (tm.want != nil && bytes.Contains(tm.tail, tm.want) || tm.wantRe != nil && tm.wantRe(tm.tail)) {
			tm.found <- at
			tm.found, tm.want, tm.wantRe = nil, nil, nil
		}
		if len(tm.tail) > 256 {
			tm.tail = append(tm.tail[:0], tm.tail[len(tm.tail)-256:]...)
		}
		tm.mu.Unlock()
	}
}

// expect arms the search for text (or for a chunk that match accepts) in what arrives from now.
func (tm *terminal) expect(text string, match func([]byte) bool) chan time.Time {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.tail = tm.tail[:0]
	tm.found = make(chan time.Time, 1)
	if text != "" {
		tm.want = []byte(text)
	}
	tm.wantRe = match
	return tm.found
}

func (tm *terminal) wait(t *testing.T, found chan time.Time, what string) time.Time {
	t.Helper()
	select {
	case at := <-found:
		return at
	case <-time.After(10 * time.Second):
		tm.mu.Lock()
		defer tm.mu.Unlock()
		t.Fatalf("waited 10 s for %s on the terminal; it got %d bytes", what, tm.out.Len())
		return time.Time{}
	}
}

// TestEventToTerminalLatency measures, end to end, the time from an order's answer (placed for the
// watched account by another client over its own connection) to the console's terminal receiving
// the frame that shows it (`Open orders (n)`), and from a key typed at the terminal (Down, then Up,
// in the tickers pane) to the terminal receiving the frame with the selection moved. The console
// runs as main runs it (screen.Open and screen.Program on a pseudo-terminal of 200x60, streaming
// from the simulator on loopback with its market loop stepping every second), and the test reads
// the terminal's side as an emulator does: no capture-pane polling in the figures. Orders and keys
// come at random phases to the market step. It logs the median, p90, p99 and max; asserts none.
func TestEventToTerminalLatency(t *testing.T) {
	measurement(t, "places 200 orders and types 100 keys, about a minute")
	s := fundedSim(t, sim.WithSeed(7))
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = s.Run(ctx) }()
	signer, _ := api.SignerFromHex(testKeyHex)
	bot := api.New(srv.URL+"/", api.WithSigner(signer), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	u, _ := api.StreamURL(srv.URL)
	st := api.NewStream(u)
	defer st.Close()
	cfg := Config{Exchange: api.New(srv.URL+"/", api.WithSigner(signer)), Stream: st, Keys: mustKeys(t),
		Theme: testTheme, Mode: ModeDemo, Network: "demo", Instrument: "BTC-PERP"}

	master, tty := openPTY(t)
	defer master.Close()
	term := &terminal{}
	go term.read(master)
	scr, err := screen.Open(tty, tty, FrameRate)
	if err != nil {
		t.Fatal(err)
	}
	p := screen.Program(New(cfg), scr.Renderer(), tea.WithInput(tty), tea.WithOutput(tty), tea.WithContext(ctx))
	go scr.Sizes(ctx, p.Send)
	done := make(chan struct{})
	go func() { _, _ = p.Run(); close(done) }()
	defer func() { cancel(); <-done; _ = scr.Close(); tty.Close() }()
	term.wait(t, term.expect("Open orders (0)", nil), "the console's first frame with its orders")
	time.Sleep(2 * time.Second) // the stream up and the first polls answered

	var orders []time.Duration
	for n := 1; n <= 200; n++ {
		time.Sleep(100*time.Millisecond + rand.N(200*time.Millisecond)) // a random phase to the step
		found := term.expect(fmt.Sprintf("Open orders (%d)", n), nil)
		_, err := bot.PlaceOrders(ctx, []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy,
			PositionSide: api.PositionSideBoth, Price: fmt.Sprint(50000 + n), Size: "0.001", Tif: api.TifGTC, Cloid: newCloid()}})
		answered := time.Now()
		if err != nil {
			t.Fatal(err)
		}
		orders = append(orders, term.wait(t, found, fmt.Sprintf("open orders (%d)", n)).Sub(answered))
	}
	keys := measureKeys(t, term, master)
	t.Logf("order to terminal: %s", quantiles(orders))
	t.Logf("key to terminal (selection moved): %s", quantiles(keys))
}

// measureKeys types Down and Up by turns at the tickers pane (focused at start) and times each
// to the frame on the terminal that draws the selection's mark (▶) at another instrument's row.
func measureKeys(t *testing.T, term *terminal, master *os.File) []time.Duration {
	t.Helper()
	var keys []time.Duration
	was := "BTC-PERP" // the first row, selected at start
	for n := 0; n < 100; n++ {
		time.Sleep(100*time.Millisecond + rand.N(200*time.Millisecond))
		key := "\x1b[B" // Down
		if n%2 == 1 {
			key = "\x1b[A" // Up
		}
		var now string
		found := term.expect("", func(b []byte) bool {
			for _, m := range selectedRow.FindAllSubmatch(b, -1) {
				if string(m[1]) != was {
					now = string(m[1])
					return true
				}
			}
			return false
		})
		typed := time.Now()
		if _, err := master.WriteString(key); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, term.wait(t, found, "the selection moved from "+was).Sub(typed))
		was = now
	}
	return keys
}

// selectedRow is the selection's mark at a row of the tickers pane, and the row's instrument.
var selectedRow = regexp.MustCompile(`▶(?:\x1b\[[0-9;]*m| )+([A-Z][A-Z0-9]*[-/][A-Z0-9]+)`)

// quantiles is the median, p90, p99 and max of ds.
func quantiles(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	q := func(f float64) time.Duration {
		return s[min(len(s)-1, int(f*float64(len(s))))].Round(100 * time.Microsecond)
	}
	return fmt.Sprintf("median %v, p90 %v, p99 %v, max %v (n=%d)", q(0.5), q(0.9), q(0.99), s[len(s)-1].Round(100*time.Microsecond), len(s))
}
