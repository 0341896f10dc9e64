package launch

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/keyfile"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/cli"
	"github.com/tradedesk/tradedesk/ui/components/pagedlist"
	"github.com/tradedesk/tradedesk/ui/components/statusbar"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// startShadow is `tradedesk --shadow`: the live exchange of --network/--url mirrored in process
// (sim.Mirror: its market, its terms, nothing sent to its /exchange), served on loopback, and a
// paper wallet with a random in-memory key trading it over real HTTP: funded with
// --shadow-balance, or a copy of --address's balances and positions read from the live /info.
// With --keystore or --agent-keystore it also holds a live client on the live exchange, for
// sending a rehearsed order live (openShadowLive); the paper wallet never signs with that key.
func startShadow(ctx context.Context, o cli.ConsoleOptions, stderr io.Writer, env KeyEnv) (*Connection, error) {
	bal, err := decimal.NewFromString(strings.TrimSpace(o.ShadowBalance))
	if err != nil || bal.IsNegative() {
		return nil, headless.Usage(fmt.Errorf("--shadow-balance %q: want a non-negative number of USDC such as 25000", o.ShadowBalance))
	}
	ep, err := api.ResolveEndpoint(api.Endpoint{URL: o.URL, Network: o.Network, Insecure: o.Insecure, ActionType: o.ActionType})
	if err != nil {
		return nil, headless.Usage(err)
	}
	mctx, cancel := context.WithCancel(ctx)
	mr, err := sim.NewMirror(mctx, sim.MirrorConfig{Upstream: ep.Base, Latency: -1, User: o.Address})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("shadow: %w", err)
	}
	signer, err := api.NewRandomSigner()
	if err != nil {
		cancel()
		return nil, err
	}
	if err := openShadowWallet(ctx, mr, ep, signer.Address(), o.Address, bal); err != nil {
		cancel()
		return nil, fmt.Errorf("shadow: %w", err)
	}
	live, err := shadowLiveClient(o, ep, stderr, env)
	if err != nil {
		cancel()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		return nil, fmt.Errorf("shadow: cannot listen on loopback: %w", err)
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = mr.Serve(mctx, ln)
	}()
	base := "http://" + ln.Addr().String() + "/"
	client := api.New(base, api.WithSigner(signer), api.WithHTTPClient(api.PollingHTTPClient()))
	maker, taker := mr.Sim.FeeRates()
	return &Connection{Client: client, Mode: shadowMode(client, base, mr), Network: statusbar.ShadowNetwork(ep.Name),
		Close: func() { cancel(); <-served }, Fees: &state.Fees{Maker: maker, Taker: taker}, Mirror: mr, Live: live, LiveNetwork: ep.Name}, nil
}

// shadowLiveClient is the live client of a shadow session given a keystore (nil without one):
// the key keyfile.LoadSigner loads from --keystore or --agent-keystore (never the environment's key,
// so a shadow session holds a live key only when the trader named it).
func shadowLiveClient(o cli.ConsoleOptions, ep api.Resolved, stderr io.Writer, env KeyEnv) (*api.Client, error) {
	if o.Keystore == "" && o.AgentKeystore == "" {
		return nil, nil
	}
	getenv := env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	keyless := func(k string) string {
		if k == api.EnvPrivateKey {
			return ""
		}
		return getenv(k)
	}
	signer, err := keyfile.LoadSigner(keyfile.Credentials{Keystore: o.Keystore, AgentKeystore: o.AgentKeystore, Address: o.Address,
		Network: ep.Name, Getenv: keyless, Warn: stderr})
	if err != nil {
		return nil, fmt.Errorf("shadow's live session: %w", err)
	}
	c := api.New(ep.Base, append([]api.Option{api.WithHTTPClient(api.PollingHTTPClient()), api.WithSigner(signer)}, ep.Options()...)...)
	return c, c.Err()
}

// shadowLiveMissing is what a shadow console without a live session says when asked to send live.
const shadowLiveMissing = "start tradedesk --shadow with --keystore FILE (or --agent-keystore FILE with --address) to hold a live session beside the paper one"

// OpenShadowLive keeps a shadow console's files apart from a live one's (its exports under the
// shadow network's own directory; its journal and command history already are, by network) and
// opens its live session: an executor on the live exchange's journal (the one a live console of
// that network and account uses, never the shadow's), with the console's guard and limits.
func OpenShadowLive(settings *ui.Config, conn *Connection, getenv func(string) string, limits risk.Limits) (func(), error) {
	if conn.Mirror == nil {
		return func() {}, nil
	}
	pagedlist.ExportDir = shadowExportDir(pagedlist.ExportDir, conn.Network)
	settings.Live = ui.LiveRoute{Network: conn.LiveNetwork, Missing: shadowLiveMissing}
	if conn.Live == nil {
		return func() {}, nil
	}
	scratch := *settings
	closeExec, err := OpenExecutor(&scratch, &Connection{Client: conn.Live, Network: conn.LiveNetwork, Close: func() {}}, getenv, limits)
	if err != nil {
		return nil, fmt.Errorf("shadow's live session: %w", err)
	}
	settings.Live.Exec, settings.Live.Ex = scratch.Exec, conn.Live
	return closeExec, nil
}

// shadowExportDir is where a shadow session writes its exports: a directory named after its
// network under the live one's (dir, "" for the default), so a paper export is never taken for a
// live one.
func shadowExportDir(dir, network string) string {
	if dir == "" {
		dir = pagedlist.DefaultExportDir()
	}
	return filepath.Join(dir, network)
}

// shadowMode is the mode of a client on a mirror: SHADOW only when the client's transport is the
// mirror's loopback address (what is wired in, not what a flag asked), else read-only.
func shadowMode(c *api.Client, mirrorBase string, mr *sim.Mirror) ui.Mode {
	if mr != nil && c.CanTrade() && strings.TrimSuffix(c.BaseURL(), "/") == strings.TrimSuffix(mirrorBase, "/") {
		return ui.ModeShadow
	}
	return ui.ModeReadOnly
}

// openShadowWallet opens the paper wallet: a copy of the live account at address (its balances
// and positions, read over /info) or bal USDC.
func openShadowWallet(ctx context.Context, mr *sim.Mirror, ep api.Resolved, paper, address string, bal decimal.Decimal) error {
	if address == "" {
		return mr.Sim.Fund(paper, bal)
	}
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	live := api.New(ep.Base, ep.Options()...)
	sum, err := live.AccountSummary(rctx, address)
	if err != nil {
		return fmt.Errorf("reading %s's balances from the live exchange: %w", address, err)
	}
	pos, err := live.Positions(rctx, address)
	if err != nil {
		return fmt.Errorf("reading %s's positions from the live exchange: %w", address, err)
	}
	return mr.Sim.CopyAccount(paper, sum, pos)
}
