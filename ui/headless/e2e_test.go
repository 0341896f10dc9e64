package headless

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
)

// testKey is a fixed test key (never a real one).
const testKey = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

type harness struct {
	t       *testing.T
	sim     *sim.Sim
	srv     *httptest.Server
	drop    *dropper // drops the next /exchange answer or request when told to
	env     map[string]string
	outputs []string // everything the commands wrote, to scan for the key
	// signers are the test's own signers for the same key: their nonces and the commands' must
	// never meet, or the simulator refuses the later request as a replay.
	signers []*api.Signer
	// stateDir holds the journal (a temporary directory of the harness's own, made with it, so a
	// command run on a goroutine and one run on the test's never both make it); expiry is the
	// orders' expiry window (0: the default).
	stateDir string
	expiry   time.Duration
	// defaults are the config file's settings the guard runs with (startGuard); guardEvery its
	// cadences (Env.GuardEvery; 0: the guard's own).
	defaults   Connection
	guardEvery time.Duration
	// reprice is the least time between an algorithm's reprices, a command's (runCtx) or the
	// guard's (Env.AlgoReprice; 0: the algorithms' own, 1 s).
	reprice time.Duration
}

// newHarness is a harness on a simulator of its own, made with opts after seed 11.
func newHarness(t *testing.T, opts ...sim.Option) *harness {
	t.Helper()
	s := sim.New(append([]sim.Option{sim.WithSeed(11)}, opts...)...)
	if err := s.Fund(testAddress(t), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	d := &dropper{sim: s}
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	return &harness{t: t, sim: s, srv: srv, drop: d, env: map[string]string{api.EnvPrivateKey: "0x" + testKey}, stateDir: t.TempDir()}
}

// loopbackSkew is the exchange's clock skew the commands allow for: the simulator on loopback
// runs on the same clock, so a lost request is called not placed soon after its expiry.
const loopbackSkew = 100 * time.Millisecond

// run runs one command against the simulator with the test key and returns its exit status,
// stdout and stderr.
func (h *harness) run(args ...string) (int, string, string) {
	h.t.Helper()
	var out, errb bytes.Buffer
	full := append(append([]string{}, args...), "--url", h.srv.URL)
	for _, s := range h.signers {
		recordNonces(s)
	}
	defer func() {
		for _, s := range h.signers {
			primeNonces(s)
		}
	}()
	if h.stateDir == "" {
		h.stateDir = h.t.TempDir()
	}
	code := Run(context.Background(), full, Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] },
		StateDir: h.stateDir, ExpiryWindow: h.expiry, Skew: loopbackSkew})
	h.outputs = append(h.outputs, out.String(), errb.String())
	return code, out.String(), errb.String()
}

// ok runs a command that must succeed.
func (h *harness) ok(args ...string) string {
	h.t.Helper()
	code, out, errs := h.run(args...)
	if code != 0 {
		h.t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
	}
	return out
}

// client is an api client with the same key, for setting up and checking.
func (h *harness) client() *api.Client {
	s, err := api.SignerFromHex(testKey)
	if err != nil {
		h.t.Fatal(err)
	}
	primeNonces(s)
	h.signers = append(h.signers, s)
	return api.New(h.srv.URL, api.WithSigner(s))
}

// restingBid is a buy price 2% under the mid, on BTC-PERP's tick.
func (h *harness) restingBid() string {
	h.t.Helper()
	c := h.client()
	ins, err := c.Instruments(context.Background(), "all")
	if err != nil {
		h.t.Fatal(err)
	}
	st := state.New(nil)
	st.Apply(state.InstrumentsMsg{Instruments: ins})
	mids, err := c.Mids(context.Background(), "all")
	if err != nil {
		h.t.Fatal(err)
	}
	st.Apply(state.MidsMsg{Mids: mids})
	in, _ := st.Instrument("BTC-PERP")
	mid, ok := st.Mid("BTC-PERP")
	if !ok {
		h.t.Fatal("no BTC-PERP mid in the simulator")
	}
	return state.FloorToStep(mid.Mul(decimal.RequireFromString("0.98")), in.TickSize).String()
}

func (h *harness) openOrders() []api.OrderRecord {
	h.t.Helper()
	var orders []api.OrderRecord
	if err := json.Unmarshal([]byte(h.ok("orders", "--json")), &orders); err != nil {
		h.t.Fatal(err)
	}
	return orders
}

func TestOrderListCancel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	px := h.restingBid()
	out := h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px, "--json")
	var res orderResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("order --json: %v\n%s", err, out)
	}
	if !res.Sent || res.Oid == 0 || res.Status == "" || !isUUID(res.Order.Cloid) || res.Order.Price != px {
		t.Fatalf("order result %+v", res)
	}
	orders := h.openOrders()
	if len(orders) != 1 || orders[0].Cloid != res.Order.Cloid || orders[0].OrderID != res.Oid {
		t.Fatalf("open orders %+v, want the order with cloid %s", orders, res.Order.Cloid)
	}
	table := h.ok("orders")
	if !strings.Contains(table, "BTC-PERP") || !strings.Contains(table, res.Order.Cloid) || !strings.HasPrefix(table, "INSTRUMENT") {
		t.Fatalf("orders table:\n%s", table)
	}
	out = h.ok("cancel", "--instrument", "btc-perp", "--cloid", res.Order.Cloid)
	if !strings.Contains(out, "cancelled order with cloid "+res.Order.Cloid+" on BTC-PERP") {
		t.Fatalf("cancel output %q", out)
	}
	if orders := h.openOrders(); len(orders) != 0 {
		t.Fatalf("order still open after cancel: %+v", orders)
	}
	// By oid, then cancel-all on one instrument.
	out = h.ok("order", "--instrument", "1", "--side", "buy", "--size", "0.01", "--price", px)
	if !strings.Contains(out, "placed buy 0.0100 BTC-PERP") {
		t.Fatalf("order table output:\n%s", out)
	}
	oid := h.openOrders()[0].OrderID
	h.ok("cancel", "--instrument", "BTC-PERP", "--oid", decimal.NewFromInt(int64(oid)).String())
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px)
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.02", "--price", px)
	out = h.ok("cancel-all", "--instrument", "BTC-PERP", "--yes")
	if !strings.HasPrefix(out, "cancelled 2 orders on BTC-PERP") {
		t.Fatalf("cancel-all output %q", out)
	}
	h.checkNoKey()
}

func TestMarketOrderAndReadCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	out := h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
	if !strings.Contains(out, "placed buy 0.0100 BTC-PERP at market, worst price") {
		t.Fatalf("market order output:\n%s", out)
	}
	// The simulator answers a fill with its size and no "filled" flag: the console always called
	// that filled, and headless (reading the same state.Outcome) now does too, not "accepted".
	if !regexp.MustCompile(`Order id +\d+ filled\n`).MatchString(out) {
		t.Fatalf("a market order that filled is not called filled:\n%s", out)
	}
	var pos []api.Position
	if err := json.Unmarshal([]byte(h.ok("positions", "--json")), &pos); err != nil {
		t.Fatal(err)
	}
	if len(pos) != 1 || pos[0].Instrument != "BTC-PERP" || !pos[0].Size.Equal(decimal.RequireFromString("0.01")) {
		t.Fatalf("positions after a market buy: %+v", pos)
	}
	table := h.ok("positions")
	if !strings.Contains(table, "BTC-PERP") || !strings.Contains(table, "long") {
		t.Fatalf("positions table:\n%s", table)
	}
	// Close it: a reduce-only market sell of the full size.
	h.ok("order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--market", "--reduce-only")
	if err := json.Unmarshal([]byte(h.ok("positions", "--json")), &pos); err != nil || len(pos) != 0 {
		t.Fatalf("position not closed: %+v %v", pos, err)
	}
	for _, cmd := range []string{"account", "fills", "history", "tickers", "instruments", "collateral"} {
		out := h.ok(cmd)
		if strings.TrimSpace(out) == "" {
			t.Fatalf("%s printed nothing", cmd)
		}
		var v any
		if err := json.Unmarshal([]byte(h.ok(cmd, "--json")), &v); err != nil {
			t.Fatalf("%s --json is not JSON: %v", cmd, err)
		}
	}
	if out := h.ok("fills"); !strings.Contains(out, "open long") || !strings.Contains(out, "close long") {
		t.Fatalf("fills table:\n%s", out)
	}
	h.checkNoKey()
}

func TestTransfer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var err error
	out := h.ok("transfer", "--collateral", "USDC", "--amount", "10", "--to-derivatives", "--yes")
	if !strings.Contains(out, "done (tx") {
		t.Fatalf("transfer output %q", out)
	}
	code, _, errs := h.run("transfer", "--collateral", "USDC", "--amount", "100000000", "--to-spot")
	if code != ExitRefused || !strings.Contains(errs, "to spot refused, nothing sent") || strings.Count(errs, "\n") != 1 {
		t.Fatalf("over-balance transfer: %d %q", code, errs)
	}
	code, _, errs = h.run("withdraw", "--collateral", "USDC", "--amount", "5", "--chain", "999999")
	if code != ExitRefused || !strings.HasPrefix(errs, "tradedesk withdraw: spot withdrawal refused, nothing sent: chain: ") {
		t.Fatalf("withdraw to a chain that is not a bridge: %d %q", code, errs)
	}
	out = h.ok("withdraw", "--collateral", "usdc", "--amount", "5", "--chain", "42161", "--from", "derivative", "--yes")
	if !strings.Contains(out, "Derivative withdrawal: 5.00 USDC") || !strings.Contains(out, "done (tx 0x") {
		t.Fatalf("withdraw output %q", out)
	}
	dest := "0x00000000000000000000000000000000000000aa"
	out = h.ok("transfer", "--collateral", "USDC", "--amount", "3", "--to", dest, "--yes")
	if !strings.Contains(out, "Spot transfer: 3.00 USDC") || !strings.Contains(strings.ToLower(out), dest) {
		t.Fatalf("transfer to another account: %q", out)
	}
	var a api.AccountSummary
	c := api.New(h.srv.URL, api.WithAddress(dest))
	if a, err = c.AccountSummary(context.Background(), ""); err != nil || a.SpotCollateral["USDC"].Balance.LessThan(decimal.RequireFromString("2")) {
		t.Fatalf("destination balance %+v %v", a.SpotCollateral, err)
	}
	code, _, errs = h.run("transfer", "--collateral", "USDC", "--amount", "1", "--to", dest, "--to-spot")
	if code != ExitUsage || !strings.Contains(errs, "give exactly one of --to ADDRESS, --to-derivatives or --to-spot") {
		t.Fatalf("two destinations: %d %q", code, errs)
	}
	h.checkNoKey()
}

func TestExportEveryPage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	px := h.restingBid()
	for batch := 0; batch < 3; batch++ {
		orders := make([]api.OrderWire, 80)
		for i := range orders {
			orders[i] = api.OrderWire{InstrumentID: 1, Side: "b", PositionSide: "BOTH", Price: px, Size: "0.001", Tif: "GTC", Cloid: state.NewCloid()}
		}
		if _, err := c.PlaceOrders(context.Background(), orders); err != nil {
			t.Fatal(err)
		}
	}
	h.ok("cancel-all", "--yes")
	want, err := api.AllPages(context.Background(), func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return c.OrderHistory(ctx, "", p)
	}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) <= api.DefaultPageSize {
		t.Fatalf("only %d history records: the test needs more than one page", len(want))
	}
	file := filepath.Join(t.TempDir(), "history.csv")
	code, _, errs := h.run("export", "history", "--format", "csv", "--output", file)
	if code != 0 {
		t.Fatalf("export: %d %s", code, errs)
	}
	if !strings.Contains(errs, "exporting history: ") || !strings.Contains(errs, "wrote 240 history records to "+file) {
		t.Fatalf("progress on stderr: %q", errs)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want)+1 {
		t.Fatalf("csv has %d rows, want header + %d", len(rows), len(want))
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for i, rec := range want {
		row := rows[i+1]
		if row[col["order_id"]] != decimal.NewFromInt(int64(rec.OrderID)).String() || row[col["cloid"]] != rec.Cloid || row[col["limit_price"]] != rec.LimitPrice.String() {
			t.Fatalf("row %d %v does not match record %+v", i, row, rec)
		}
	}
	// JSON to stdout, flags after the positional argument.
	code, out, _ := h.run("export", "--format", "json", "history")
	var recs []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &recs) != nil || len(recs) != len(want) {
		t.Fatalf("json export: exit %d, %d records, want %d", code, len(recs), len(want))
	}
	h.checkNoKey()
}

func TestFailureExits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	px := h.restingBid()
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown command", []string{"frobnicate"}, ExitUsage, `unknown command "frobnicate"`},
		{"bad flag", []string{"orders", "--colour"}, ExitUsage, "unknown flag: --colour"},
		{"stray argument", []string{"orders", "now"}, ExitUsage, `unexpected argument "now"`},
		{"unknown instrument", []string{"order", "--instrument", "NOPE-PERP", "--side", "buy", "--size", "1", "--price", "1"}, ExitRefused, `unknown instrument "NOPE-PERP"`},
		{"off tick", []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", decimal.RequireFromString(px).Add(decimal.RequireFromString("0.03")).String()}, ExitRefused, "order refused, nothing sent: price: price"},
		// A flag value not of its form is a usage error (2) naming the flag; a check of a
		// well-formed order against the market or the account refuses it (1), in the table's word.
		{"bad size", []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "lots", "--price", px}, ExitUsage, `--size: size "lots" is not a number`},
		{"bad side", []string{"order", "--instrument", "BTC-PERP", "--side", "up", "--size", "0.01", "--market"}, ExitUsage, `--side: side "up" is not buy or sell`},
		{"bad tif", []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px, "--tif", "day"}, ExitUsage, `--tif: time in force "DAY" is not GTC, IOC or FOK`},
		{"bad tpsl", []string{"order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--market", "--trigger", "90000", "--tpsl", "xx"}, ExitUsage, `--tpsl: "xx" is not tp (take profit) or sl (stop loss)`},
		{"negative price", []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", "-5"}, ExitUsage, "--price: price must be positive"},
		{"bad amount", []string{"withdraw", "--collateral", "USDC", "--amount", "ten", "--chain", "42161"}, ExitUsage, `--amount: amount "ten" is not a number`},
		{"price and market", []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "1", "--price", "1", "--market"}, ExitUsage, "--price and --market exclude each other"},
		{"no price", []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "1"}, ExitUsage, "give --price PX for a limit order, or --market"},
		{"tpsl without trigger", []string{"order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "1", "--market", "--tpsl", "sl"}, ExitUsage, "--tpsl needs --trigger PX"},
		{"guard", []string{"order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--price", halve(px)}, ExitRefused, "order needs confirmation, nothing sent: price"},
		{"reduce-only no position", []string{"order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--market", "--reduce-only"}, ExitRefused, "reduce-only: there is no position on BTC-PERP"},
		{"cancel needs one id", []string{"cancel", "--instrument", "BTC-PERP"}, ExitUsage, "give exactly one of --oid N or --cloid ID"},
		{"bad slippage", []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market", "--slippage", "80%"}, ExitUsage, "--slippage 80% is over 50%"},
		{"blank price", []string{"order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--price", " ", "--trigger", "90000", "--tpsl", "sl"}, ExitUsage, "--price is empty"},
		{"export what", []string{"export", "trades"}, ExitUsage, "trades"},
		{"bad page", []string{"fills", "--page", "0"}, ExitUsage, "--page 0: pages start at 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := h.run(tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 || out != "" {
				t.Fatalf("exit %d (want %d), stderr %q (want %q, one line), stdout %q", code, tc.code, errs, tc.want, out)
			}
		})
	}
	if orders := h.openOrders(); len(orders) != 0 {
		t.Fatalf("a failed command placed an order: %+v", orders)
	}
	h.checkNoKey()
}

func halve(px string) string {
	return decimal.RequireFromString(px).Div(decimal.NewFromInt(2)).Truncate(0).String()
}

func TestConnectionFailures(t *testing.T) {
	t.Parallel() // its own simulator and journal
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		if k == api.EnvPrivateKey {
			return testKey
		}
		return ""
	}}
	srv := httptest.NewServer(sim.New())
	url := srv.URL
	srv.Close()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"tickers", "--url", url}, ExitUnavailable, "connection refused"},
		{[]string{"tickers"}, ExitUsage, "no exchange: give --url URL or --network mainnet|testnet"},
		{[]string{"tickers", "--url", "http://example.com"}, ExitUsage, "plain http to a host that is not loopback"},
		{[]string{"tickers", "--url", "x", "--network", "mainnet"}, ExitUsage, "give --url or --network, not both"},
		{[]string{"tickers", "--network", "moonnet"}, ExitUsage, `unknown network "moonnet"`},
		{[]string{"account", "--url", url, "--user", "0x123"}, ExitUsage, "--user: address"},
	}
	for _, tc := range cases {
		out.Reset()
		errb.Reset()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		code := Run(ctx, tc.args, env)
		cancel()
		if code != tc.code || !strings.Contains(errb.String(), tc.want) || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", tc.args, code, tc.code, errb.String(), tc.want)
		}
		if strings.Contains(out.String()+errb.String(), testKey) {
			t.Fatal("the key leaked")
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	h := newHarness(t)
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] },
		Defaults: Connection{Network: "mainnet", Address: "0x0000000000000000000000000000000000000001"}}
	// --url on the command line replaces the config's network; the config's account is watched
	// even with the key exported (the console's rule: an account without a keystore is read-only).
	if code := Run(context.Background(), []string{"account", "--json", "--url", h.srv.URL}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var a api.AccountSummary
	if err := json.Unmarshal(out.Bytes(), &a); err != nil || !api.SameAddress(a.Address, "0x0000000000000000000000000000000000000001") {
		t.Fatalf("account %q, want the config's (%v)", a.Address, err)
	}
	out.Reset()
	env.Getenv = func(string) string { return "" }
	env.Defaults.URL, env.Defaults.Network = h.srv.URL, ""
	if code := Run(context.Background(), []string{"account", "--json"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), &a); err != nil || !api.SameAddress(a.Address, "0x0000000000000000000000000000000000000001") {
		t.Fatalf("read-only account from the config: %q (%v)", a.Address, err)
	}
}

func TestNoKeyNoTrade(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env = map[string]string{}
	code, _, errs := h.run("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
	if code != ExitUsage || !strings.Contains(errs, "order needs a key") {
		t.Fatalf("order without a key: %d %q", code, errs)
	}
	code, _, errs = h.run("positions")
	if code != ExitUsage || !strings.Contains(errs, "no account") {
		t.Fatalf("positions without an account: %d %q", code, errs)
	}
	h.env = map[string]string{api.EnvPrivateKey: "0x1234"}
	code, _, errs = h.run("account")
	if code != ExitUsage && code != ExitRefused || !strings.Contains(errs, "TRADEDESK_PRIVATE_KEY: private key must be 64 hex digits") || strings.Contains(errs, "1234") {
		t.Fatalf("bad key: %d %q", code, errs)
	}
}

func TestIsCommandAndHelp(t *testing.T) {
	for _, c := range []string{"order", "cancel", "cancel-all", "transfer", "withdraw", "account", "positions", "orders", "fills", "history", "tickers", "instruments", "collateral", "export", "agent", "leverage", "broker", "journal", "modify", "batch", "stream", "chase", "twap", "trail", "scale", "algos", "alert", "alerts", "close", "reverse", "flatten", "breakeven", "risk", "report", "pnl", "trades", "guard"} {
		if !IsCommand(c) {
			t.Errorf("%s is a command", c)
		}
	}
	if IsCommand("sim") || IsCommand("") || len(Commands()) != 37 {
		t.Fatal("only the headless commands")
	}
	var out bytes.Buffer
	if code := Run(context.Background(), []string{"order", "--help"}, Env{Stdout: &out, Stderr: &out}); code != 0 || !strings.Contains(out.String(), "--instrument SYM") || !strings.Contains(out.String(), "-reduce-only") {
		t.Fatalf("help: %d %s", code, out.String())
	}
}

// checkNoKey fails if the private key appears in anything a command wrote.
func (h *harness) checkNoKey() {
	h.t.Helper()
	for _, o := range h.outputs {
		if strings.Contains(strings.ToLower(o), testKey) {
			h.t.Fatal("the private key appears in command output")
		}
	}
	// Nor in the journal's files: no part of the key, no run of hex digits as long as one but
	// the addresses a transfer or an approval names (0x and 40 digits).
	files, _ := filepath.Glob(filepath.Join(h.stateDir, "journal", "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			h.t.Fatal(err)
		}
		b = regexp.MustCompile(`\b0x[0-9a-fA-F]{40}\b`).ReplaceAll(b, []byte("0xADDRESS"))
		low := strings.ToLower(string(b))
		if strings.Contains(low, testKey[:32]) || strings.Contains(low, testKey[32:]) || regexp.MustCompile(`(?i)[0-9a-f]{32,}`).Match(b) {
			h.t.Fatalf("the journal file %s holds key material", filepath.Base(f))
		}
	}
}

// TestKeyChecksAsTheConsole: the headless commands load the key by the console's rules
// (keyfile.LoadSigner): an account named alone (here --account, even the key's own) watches, so a
// trading command with the key exported signs nothing and says what to drop; a mainnet key from
// the environment is warned about.
func TestKeyChecksAsTheConsole(t *testing.T) {
	h := newHarness(t)
	for _, account := range []string{"0x00000000000000000000000000000000000000aa", testAddress(t)} {
		code, _, errs := h.run("cancel-all", "--account", account)
		if code != ExitUsage || !strings.Contains(errs, "opens read-only, but TRADEDESK_PRIVATE_KEY is set") || !strings.Contains(errs, "drop --account") {
			t.Fatalf("trading with --account %s: exit %d, stderr %q", account, code, errs)
		}
	}
	var out, errb bytes.Buffer
	// No --instrument: the command stops after connecting, before any request to mainnet.
	code := Run(context.Background(), []string{"order", "--network", "mainnet"}, Env{Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return h.env[k] }})
	if code != ExitUsage || !strings.Contains(errb.String(), "warning: trading MAINNET with a key from $TRADEDESK_PRIVATE_KEY") {
		t.Fatalf("mainnet env key: exit %d, stderr %q", code, errb.String())
	}
	if strings.Contains(errb.String(), testKey[8:24]) {
		t.Fatal("the warning repeats the key")
	}
}

// testAddress is the test key's account.
func testAddress(t testing.TB) string {
	t.Helper()
	s, err := api.SignerFromHex(testKey)
	if err != nil {
		t.Fatal(err)
	}
	return s.Address()
}

// uuidRe is a UUID written 8-4-4-4-12, the form of the cloids state.NewCloid makes.
var uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// isUUID reports whether s is a UUID written 8-4-4-4-12.
func isUUID(s string) bool { return uuidRe.MatchString(s) }
